extension FilterSpec {
    /// Parses a spec string (grammar in ``FilterSpec``), read as one stage by ``StageSpec``.
    ///
    /// - Throws: ``SpecError`` (subject `.filter`) naming the token, its column and why: empty
    ///   spec, empty argument, key or value, unknown name, unknown or repeated parameter, value not
    ///   a number or out of range, missing required parameter.
    public init(parsing text: String) throws(SpecError) {
        guard !text[...].trimmingBlanks.isEmpty else {
            throw SpecError(.filter, spec: text, message: "empty spec; expected one of \(Self.names.joined(separator: ", "))")
        }
        try self.init(StageSpec(parsing: text, subject: .filter))
    }

    /// Reads the filter a parsed stage names (a filter spec, or a filter stage of a pipeline).
    ///
    /// - Throws: ``SpecError`` located in the stage's source text, as for ``init(parsing:)``.
    public init(_ stage: StageSpec) throws(SpecError) {
        var reader = FilterSpecReader(stage: stage)
        self = try reader.read()
    }
}

/// Checks the arguments of one stage against the filter it names and builds the spec.
struct FilterSpecReader {
    /// The keys, flags and `start` a filter name accepts.
    struct Allowed {
        var numbers: Set<String>
        var flags: Set<String>
        var start: Bool

        /// The accepted arguments, for error messages.
        var summary: String {
            var parts: [String] = []
            if !numbers.isEmpty { parts.append("parameters: " + numbers.sorted().joined(separator: ", ")) }
            if !flags.isEmpty { parts.append("flags: " + flags.sorted().joined(separator: ", ")) }
            if start { parts.append("start=first|zero") }
            return parts.isEmpty ? "it takes no parameters" : parts.joined(separator: "; ")
        }
    }

    typealias Argument = StageSpec.Argument

    let stage: StageSpec
    var numbers: [String: (Double, Argument)] = [:]
    var flags: [String: Argument] = [:]
    var start = FilterStart.firstInput

    init(stage: StageSpec) { self.stage = stage }

    static func allowed(_ name: String) -> Allowed? {
        switch name {
        case "lowpass", "highpass": Allowed(numbers: ["cutoff"], flags: [], start: true)
        case "factor": Allowed(numbers: ["k"], flags: ["lowpass", "highpass"], start: true)
        case "butter": Allowed(numbers: ["order", "cutoff", "low", "high"], flags: ["lowpass", "highpass", "bandpass"], start: true)
        case "accelgraph": Allowed(numbers: ["cutoff"], flags: ["lowpass", "highpass", "adaptive"], start: true)
        case "oneeuro": Allowed(numbers: ["mincutoff", "beta", "dcutoff"], flags: [], start: false)
        case "adaptive": Allowed(numbers: ["cutoff", "threshold"], flags: [], start: false)
        default: nil
        }
    }

    func fail(_ argument: Argument?, _ message: String) -> SpecError {
        argument.map { stage.error(message, at: $0) } ?? stage.error(message)
    }

    /// Sorts every argument into `numbers`, `flags` and `start`, refusing what `allowed` does not take.
    mutating func collect(_ allowed: Allowed) throws(SpecError) {
        let name = stage.name.lowercased()
        var used: Set<String> = []
        for item in stage.arguments {
            let key = (item.key ?? item.value).lowercased()
            if used.contains(key) { throw fail(item, "'\(key)' given twice") }
            used.insert(key)
            if item.key != nil {
                let value = item.value
                if key == "start" && allowed.start {
                    guard let s = FilterStart(rawValue: value.lowercased()) else {
                        throw fail(item, "start must be 'first' or 'zero', got '\(value)'")
                    }
                    start = s
                } else if allowed.numbers.contains(key) {
                    guard let number = Double(value), number.isFinite else { throw fail(item, "'\(value)' is not a finite number") }
                    numbers[key] = (number, item)
                } else if allowed.flags.contains(key) {
                    throw fail(item, "'\(key)' is a flag and takes no value")
                } else {
                    throw fail(item, "unknown parameter '\(key)' for \(name); \(allowed.summary)")
                }
            } else if allowed.flags.contains(key) {
                flags[key] = item
            } else if allowed.numbers.contains(key) || (key == "start" && allowed.start) {
                throw fail(item, "'\(key)' needs a value ('\(key)=…')")
            } else {
                throw fail(item, "unknown flag '\(key)' for \(name); \(allowed.summary)")
            }
        }
    }

    func required(_ key: String) throws(SpecError) -> Double {
        guard let (value, _) = numbers[key] else { throw fail(nil, "\(stage.name.lowercased()) needs '\(key)=…'") }
        return value
    }

    func pass() throws(SpecError) -> FilterPass {
        if let low = flags["lowpass"], flags["highpass"] != nil {
            throw fail(low, "choose one of lowpass and highpass")
        }
        return flags["highpass"] != nil ? .highPass : .lowPass
    }

    func butterworth() throws(SpecError) -> FilterSpec {
        let chosen = ["lowpass", "highpass", "bandpass"].filter { flags[$0] != nil }
        guard chosen.count == 1 else {
            throw fail(chosen.count > 1 ? flags[chosen[1]] : nil, "butter needs exactly one of lowpass, highpass, bandpass")
        }
        let orderValue = numbers["order"]?.0 ?? 2
        guard orderValue == orderValue.rounded(), (1...8).contains(orderValue) else {
            throw fail(numbers["order"]?.1, "order must be a whole number 1…8, got \(numbers["order"]?.1.value ?? "")")
        }
        let band: ButterworthBand
        switch chosen[0] {
        case "bandpass":
            if let cutoff = numbers["cutoff"] { throw fail(cutoff.1, "a bandpass takes 'low' and 'high', not 'cutoff'") }
            band = .bandPass(low: try required("low"), high: try required("high"))
        default:
            for key in ["low", "high"] {
                if let edge = numbers[key] { throw fail(edge.1, "'\(key)' is for bandpass; use 'cutoff'") }
            }
            let cutoff = try required("cutoff")
            band = chosen[0] == "lowpass" ? .lowPass(cutoff: cutoff) : .highPass(cutoff: cutoff)
        }
        return .butterworth(band: band, order: Int(orderValue), start: start)
    }

    mutating func read() throws(SpecError) -> FilterSpec {
        let name = stage.name.lowercased()
        guard let allowed = Self.allowed(name) else {
            var message = "unknown filter '\(stage.name)'; expected one of \(FilterSpec.names.joined(separator: ", "))"
            if stage.name.contains(where: { $0 == "," || $0 == "=" }) { message += " (the name ends at ':', as in lowpass:cutoff=5)" }
            throw fail(nil, message)
        }
        try collect(allowed)
        let spec: FilterSpec
        switch name {
        case "lowpass", "highpass":
            spec = .onePole(pass: name == "lowpass" ? .lowPass : .highPass, cutoff: try required("cutoff"), start: start)
        case "factor":
            spec = .factor(pass: try pass(), k: try required("k"), start: start)
        case "butter":
            spec = try butterworth()
        case "accelgraph":
            spec = .accelerometerGraph(pass: try pass(), cutoff: try required("cutoff"),
                                       adaptive: flags["adaptive"] != nil, start: start)
        case "oneeuro":
            spec = .oneEuro(minimumCutoff: numbers["mincutoff"]?.0 ?? 1, beta: numbers["beta"]?.0 ?? 0,
                            derivativeCutoff: numbers["dcutoff"]?.0 ?? 1)
        default:
            spec = .adaptive(restCutoff: numbers["cutoff"]?.0 ?? AdaptiveFilter<Double>.defaultRestCutoff,
                             threshold: numbers["threshold"]?.0 ?? AdaptiveFilter<Double>.defaultThreshold)
        }
        // Range checks come from the filters themselves (a rate high enough that no Nyquist
        // limit applies), so the spec and the types never disagree.
        do {
            let _: AnyFilter<Double> = try spec.build(sampleRate: 1e12)
        } catch {
            throw fail(numbers[error.parameter]?.1, error.message)
        }
        return spec
    }
}
