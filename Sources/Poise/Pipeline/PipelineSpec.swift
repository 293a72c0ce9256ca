/// One stage of a pipeline spec string, split into its name and arguments.
///
/// Syntax of a stage: `name` or `name:argument,argument,…`, where an argument is `key=value` or a
/// bare word (`fusion:9d`, `remap:landscapeLeft`, `lowpass:cutoff=5`). Stages are separated by
/// `|`; spaces around names, arguments and separators are ignored.
public struct StageSpec: Sendable, Equatable {
    /// One argument: `key=value` (key non-nil) or a bare word (key nil, the word in `value`).
    public struct Argument: Sendable, Equatable {
        public var key: String?
        public var value: String
        public init(key: String?, value: String) { self.key = key; self.value = value }
    }

    /// The stage's text with surrounding spaces removed (`lowpass:cutoff=5`).
    public var text: String
    /// The stage name (before the first `:`).
    public var name: String
    /// The arguments in order.
    public var arguments: [Argument]
    /// 1-based position of the stage in the pipeline.
    public var position: Int
    /// 1-based character column where the stage's text starts in the whole spec.
    public var column: Int
    /// The whole spec string, for error messages.
    public var pipeline: String

    public init(text: String, name: String, arguments: [Argument], position: Int, column: Int, pipeline: String) {
        self.text = text; self.name = name; self.arguments = arguments
        self.position = position; self.column = column; self.pipeline = pipeline
    }

    /// An error about this stage, located by stage position and column.
    public func error(_ message: String) -> PipelineError {
        PipelineError(pipeline: pipeline, stage: position, column: column, message: message)
    }

    /// The value of `key=value`, or `nil` when absent.
    public func value(_ key: String) -> String? {
        arguments.last { $0.key == key }?.value
    }

    /// The number given as `key=value`, or `defaultValue` when absent.
    ///
    /// - Throws: `PipelineError` when the value is not a finite number or lies outside `range`.
    public func number(_ key: String, default defaultValue: Double,
                       in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude ... Double.greatestFiniteMagnitude) throws -> Double {
        guard let text = value(key) else { return defaultValue }
        guard let number = Double(text), number.isFinite else {
            throw error("'\(key)=\(text)' is not a number")
        }
        guard range.contains(number) else {
            throw error("'\(key)=\(text)' is out of range \(range.lowerBound) … \(range.upperBound)")
        }
        return number
    }

    /// The bare words, in order.
    public var words: [String] { arguments.compactMap { $0.key == nil ? $0.value : nil } }

    /// Throws when an argument is not among `keys` (for `key=value`) or `words` (bare words).
    public func requireKnown(keys: Set<String> = [], words allowedWords: Set<String> = []) throws {
        for argument in arguments {
            if let key = argument.key {
                if !keys.contains(key) {
                    let known = keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")
                    throw error("stage '\(name)' has no parameter '\(key)' (parameters: \(known))")
                }
            } else if !allowedWords.contains(argument.value) {
                let known = allowedWords.isEmpty ? "none" : allowedWords.sorted().joined(separator: ", ")
                throw error("stage '\(name)' does not accept '\(argument.value)' (options: \(known))")
            }
        }
    }

    /// Splits a pipeline spec into stages. `""` and `none` give no stages.
    ///
    /// - Throws: `PipelineError` for an empty stage (`a || b`), an empty name (`:x`), an empty
    ///   argument or key (`a:,b`, `a:=3`).
    public static func parse(_ spec: String) throws -> [StageSpec] {
        let trimmedWhole = spec.trimmingSpaces
        if trimmedWhole.isEmpty || trimmedWhole == "none" { return [] }
        var result: [StageSpec] = []
        var column = 1
        for (index, segment) in spec.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            let leading = segment.prefix { $0 == " " || $0 == "\t" }.count
            let text = String(segment).trimmingSpaces
            let stageColumn = column + leading
            column += segment.count + 1
            func fail(_ message: String) -> PipelineError {
                PipelineError(pipeline: spec, stage: index + 1, column: stageColumn, message: message)
            }
            guard !text.isEmpty else { throw fail("empty stage (two '|' in a row, or '|' at an end)") }
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).trimmingSpaces
            guard !name.isEmpty else { throw fail("stage without a name in '\(text)'") }
            var arguments: [Argument] = []
            if parts.count == 2 {
                for raw in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
                    let item = String(raw).trimmingSpaces
                    guard !item.isEmpty else { throw fail("empty argument in '\(text)'") }
                    if let equals = item.firstIndex(of: "=") {
                        let key = String(item[..<equals]).trimmingSpaces
                        let value = String(item[item.index(after: equals)...]).trimmingSpaces
                        guard !key.isEmpty, !value.isEmpty else { throw fail("argument '\(item)' needs the form key=value") }
                        arguments.append(Argument(key: key, value: value))
                    } else {
                        arguments.append(Argument(key: nil, value: item))
                    }
                }
            }
            result.append(StageSpec(text: text, name: name, arguments: arguments,
                                    position: index + 1, column: stageColumn, pipeline: spec))
        }
        return result
    }
}

/// A pipeline spec that cannot be built, located by stage number and character column.
public struct PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole spec string.
    public var pipeline: String
    /// 1-based stage position.
    public var stage: Int
    /// 1-based character column in `pipeline` where the stage starts.
    public var column: Int
    /// What is wrong.
    public var message: String

    public init(pipeline: String, stage: Int, column: Int, message: String) {
        self.pipeline = pipeline; self.stage = stage; self.column = column; self.message = message
    }

    /// `pipeline 'SPEC', stage N (column C): message`.
    public var description: String {
        "pipeline '\(pipeline)', stage \(stage) (column \(column)): \(message)"
    }
}

/// What a stage factory knows about the stream the stage will see.
public struct StageContext: Sendable, Equatable {
    /// Rate at which the stage is called, Hz (the replay rate, or the frame rate for frame-time
    /// smoothing). Filters derive their coefficients from it.
    public var sampleRate: Double
    /// Whether samples carry a magnetic field (9D fusion needs it).
    public var hasMagnetometer: Bool
    /// Whether samples carry a rotation rate (fusion needs it; without one the rotation rate of a
    /// sample is zero, not a reading).
    public var hasGyroscope: Bool

    public init(sampleRate: Double, hasMagnetometer: Bool = false, hasGyroscope: Bool = true) {
        self.sampleRate = sampleRate; self.hasMagnetometer = hasMagnetometer; self.hasGyroscope = hasGyroscope
    }
}

/// The stages a pipeline spec may name, each with a factory.
///
/// `StageCatalog.standard` lists the stages the library provides; a program can add its own
/// entries. Only listed names are accepted: anything else is a `PipelineError` that names the
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
        /// Builds the stage; throws `PipelineError` (via `StageSpec.error`) for bad arguments.
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
    /// - Throws: `PipelineError` for syntax errors, unknown stages and bad arguments.
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
