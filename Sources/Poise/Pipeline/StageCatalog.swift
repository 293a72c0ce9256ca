/// The stages a pipeline spec may name, each with a factory.
///
/// `StageCatalog.standard` lists the stages the library provides; a program can add its own
/// entries. Only listed names are accepted: anything else is a ``SpecError`` that names the
/// stage, its column, the closest known name and the full list.
public struct StageCatalog: Sendable {
    /// One kind of stage.
    public struct Entry: Sendable {
        /// The name used in specs (`lowpass`).
        public var name: String
        /// How to write it, for help and errors (`lowpass:cutoff=HZ[,order=N]`).
        public var usage: String
        /// One line saying what it does.
        public var summary: String
        /// Builds the stage; throws ``SpecError`` (via ``StageSpec/error(_:)``) for bad arguments.
        public var make: @Sendable (StageSpec, StageContext) throws -> any PipelineStage

        public init(name: String, usage: String, summary: String,
                    make: @escaping @Sendable (StageSpec, StageContext) throws -> any PipelineStage) {
            self.name = name; self.usage = usage; self.summary = summary; self.make = make
        }
    }

    /// The entries, in the order help lists them.
    public var entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// The entry called `name`, if any.
    public func entry(named name: String) -> Entry? {
        let key = name.lowercased()
        return entries.first { $0.name.lowercased() == key }
    }

    /// Builds a pipeline from a spec such as `lowpass:cutoff=5 | gravity`.
    ///
    /// - Throws: ``SpecError`` for syntax errors, unknown stages and bad arguments.
    public func pipeline(_ spec: String, context: StageContext) throws -> Pipeline {
        var stages: [any PipelineStage] = []
        for stage in try StageSpec.parse(spec) {
            guard let entry = entry(named: stage.name) else {
                var message = "unknown stage '\(stage.name)'"
                if let close = closestName(to: stage.name) { message += " (did you mean '\(close)'?)" }
                message += entries.isEmpty ? "; no stages are available"
                    : "; available: " + entries.map(\.usage).joined(separator: ", ")
                throw stage.error(message)
            }
            stages.append(try entry.make(stage, context))
        }
        return Pipeline(stages)
    }

    /// The known name within edit distance 2 of `name`, if one exists.
    func closestName(to name: String) -> String? {
        var best: (String, Int)?
        for entry in entries {
            let distance = editDistance(Array(name.lowercased()), Array(entry.name.lowercased()))
            if distance <= 2, best.map({ distance < $0.1 }) ?? true { best = (entry.name, distance) }
        }
        return best?.0
    }
}

/// Levenshtein distance between two character arrays.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
