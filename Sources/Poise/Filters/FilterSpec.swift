/// A filter described by a short string, as used on the command line and in pipelines.
///
/// Grammar (whitespace around tokens is ignored; names and flags are case-insensitive):
/// ```
/// spec  := name [ ":" item { "," item } ]
/// item  := key "=" number | flag
/// ```
/// | spec | filter | parameters (units, defaults) |
/// |---|---|---|
/// | `lowpass:cutoff=5` | ``OnePoleLowPass`` by cutoff | `cutoff` Hz (required) |
/// | `highpass:cutoff=0.5` | ``OnePoleHighPass`` by cutoff | `cutoff` Hz (required) |
/// | `factor:k=0.1` | fixed-factor low-pass `y ← k·x + (1−k)·y` | `k` in (0, 1] (required); flag `highpass` for `x − lowpass` |
/// | `butter:lowpass,order=4,cutoff=5` | ``ButterworthFilter`` | flag `lowpass`/`highpass` with `cutoff` Hz, or `bandpass` with `low`, `high` Hz; `order` 1…8 (default 2) |
/// | `accelgraph:cutoff=5,adaptive` | ``AccelerometerGraphFilter`` | `cutoff` Hz (RC = 1/cutoff, required); flags `lowpass` (default)/`highpass`, `adaptive` |
/// | `oneeuro:mincutoff=0.1,beta=2,dcutoff=1` | ``OneEuroFilter`` | `mincutoff` Hz (default 1), `beta` (default 0), `dcutoff` Hz (default 1) |
/// | `adaptive` | ``AdaptiveFilter`` (Poise) | `cutoff` Hz at rest (default 0.5), `threshold` input units (default 0.03) |
///
/// The linear filters and `accelgraph` also take `start=first` (default: steady state at the
/// first input) or `start=zero` (memory starts at zero, as Apple's sample and scipy do).
/// The sample rate is not part of the spec: ``makeFilter(_:sampleRate:)`` takes it.
public enum FilterSpec: Sendable, Equatable, CustomStringConvertible {
    /// One-pole RC low-pass or high-pass by cutoff (Hz).
    case onePole(pass: FilterPass, cutoff: Double, start: FilterStart)
    /// Fixed-factor low-pass `y ← k·x + (1−k)·y`, or its complement `x − lowpass`.
    case factor(pass: FilterPass, k: Double, start: FilterStart)
    /// Butterworth of `order` 1…8 (edges in Hz).
    case butterworth(band: ButterworthBand, order: Int, start: FilterStart)
    /// Apple's AccelerometerGraph filter (cutoff in Hz, RC = 1/cutoff).
    case accelerometerGraph(pass: FilterPass, cutoff: Double, adaptive: Bool, start: FilterStart)
    /// One Euro (mincutoff and dcutoff in Hz).
    case oneEuro(minimumCutoff: Double, beta: Double, derivativeCutoff: Double)
    /// Poise's adaptive filter (rest cutoff Hz, threshold in input units).
    case adaptive(restCutoff: Double, threshold: Double)

    /// The canonical spec string; parsing it gives back an equal spec.
    public var description: String {
        func number(_ x: Double) -> String {
            x == x.rounded() && x.magnitude < 1e15 ? String(Int(x)) : String(x)
        }
        func startSuffix(_ s: FilterStart) -> String { s == .firstInput ? "" : ",start=\(s.rawValue)" }
        switch self {
        case let .onePole(pass, cutoff, start):
            return "\(pass.rawValue):cutoff=\(number(cutoff))\(startSuffix(start))"
        case let .factor(pass, k, start):
            return "factor:k=\(number(k))\(pass == .highPass ? ",highpass" : "")\(startSuffix(start))"
        case let .butterworth(band, order, start):
            let edges: String
            switch band {
            case .lowPass(let c): edges = "lowpass,order=\(order),cutoff=\(number(c))"
            case .highPass(let c): edges = "highpass,order=\(order),cutoff=\(number(c))"
            case let .bandPass(low, high): edges = "bandpass,order=\(order),low=\(number(low)),high=\(number(high))"
            }
            return "butter:\(edges)\(startSuffix(start))"
        case let .accelerometerGraph(pass, cutoff, adaptive, start):
            return "accelgraph:\(pass == .highPass ? "highpass," : "")cutoff=\(number(cutoff))\(adaptive ? ",adaptive" : "")\(startSuffix(start))"
        case let .oneEuro(minimumCutoff, beta, derivativeCutoff):
            return "oneeuro:mincutoff=\(number(minimumCutoff)),beta=\(number(beta)),dcutoff=\(number(derivativeCutoff))"
        case let .adaptive(restCutoff, threshold):
            return "adaptive:cutoff=\(number(restCutoff)),threshold=\(number(threshold))"
        }
    }
}

/// A filter spec that cannot be parsed or built. Names the offending token and its column.
public struct FilterSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole spec as given.
    public var spec: String
    /// The offending token (for example `order=9`), or the empty string for the spec as a whole.
    public var token: String
    /// 1-based column of the token in `spec` (0 when it refers to the whole spec).
    public var column: Int
    /// What is wrong.
    public var message: String

    public init(spec: String, token: String, column: Int, message: String) {
        self.spec = spec; self.token = token; self.column = column; self.message = message
    }

    public var description: String {
        token.isEmpty
            ? "filter spec '\(spec)': \(message)"
            : "filter spec '\(spec)', '\(token)' at column \(column): \(message)"
    }
}

extension FilterSpec {
    /// The spec names, for help texts.
    public static let names = ["lowpass", "highpass", "factor", "butter", "accelgraph", "oneeuro", "adaptive"]

    /// Parses a spec string (grammar above).
    ///
    /// - Throws: `FilterSpecError` naming the token and why: unknown name, unknown or repeated
    ///   parameter, missing value, value not a number or out of range, missing required parameter.
    public init(parsing text: String) throws(FilterSpecError) {
        var parser = SpecParser(text: text)
        self = try parser.parse()
    }

    /// Makes the filter for samples of type `Value` at `sampleRate` Hz.
    ///
    /// - Throws: `FilterSpecError` when a parameter does not suit the rate (for example a
    ///   Butterworth cutoff at or above the Nyquist frequency).
    @inlinable
    public func makeFilter<Value: SignalValue>(_ type: Value.Type = Value.self, sampleRate: Double) throws(FilterSpecError) -> AnyFilter<Value> {
        do {
            return try build(sampleRate: sampleRate)
        } catch {
            throw specError(error, sampleRate: sampleRate)
        }
    }

    /// Maps a parameter error to the token of the canonical spec string.
    @usableFromInline
    func specError(_ error: FilterParameterError, sampleRate: Double) -> FilterSpecError {
        let spec = description
        let prefix = error.parameter + "="
        var column = 0
        var token = ""
        var index = 1
        for piece in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let item = piece.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            if item.hasPrefix(prefix) {
                token = item
                column = index + piece.count - item.count
                break
            }
            index += piece.count + 1
        }
        return FilterSpecError(spec: spec, token: token, column: column,
                               message: "\(error.message) (sample rate \(sampleRate) Hz)")
    }

    /// Builds in the caller's module (inlinable) so the filter code is specialised for `Value`.
    @inlinable
    func build<Value: SignalValue>(sampleRate: Double) throws(FilterParameterError) -> AnyFilter<Value> {
        switch self {
        case let .onePole(pass, cutoff, start):
            return pass == .lowPass
                ? AnyFilter(try OnePoleLowPass<Value>(cutoffFrequency: cutoff, sampleRate: sampleRate, start: start))
                : AnyFilter(try OnePoleHighPass<Value>(cutoffFrequency: cutoff, sampleRate: sampleRate, start: start))
        case let .factor(pass, k, start):
            guard sampleRate > 0, sampleRate.isFinite else {
                throw FilterParameterError(parameter: "rate", message: "must be a positive finite number, got \(sampleRate)")
            }
            return pass == .lowPass
                ? AnyFilter(try OnePoleLowPass<Value>(factor: k, start: start))
                : AnyFilter(try OnePoleHighPass<Value>(factor: k, start: start))
        case let .butterworth(band, order, start):
            return AnyFilter(try ButterworthFilter<Value>(band: band, order: order, sampleRate: sampleRate, start: start))
        case let .accelerometerGraph(pass, cutoff, adaptive, start):
            return AnyFilter(try AccelerometerGraphFilter<Value>(kind: pass, cutoffFrequency: cutoff,
                                                                 sampleRate: sampleRate, adaptive: adaptive, start: start))
        case let .oneEuro(minimumCutoff, beta, derivativeCutoff):
            return AnyFilter(try OneEuroFilter<Value>(minimumCutoff: minimumCutoff, beta: beta,
                                                      derivativeCutoff: derivativeCutoff, sampleRate: sampleRate))
        case let .adaptive(restCutoff, threshold):
            return AnyFilter(try AdaptiveFilter<Value>(restCutoff: restCutoff, threshold: threshold, sampleRate: sampleRate))
        }
    }
}

/// Tokenises and checks one spec string.
struct SpecParser {
    struct Token {
        var text: String
        var column: Int
        var key: String
        var value: String?
    }

    let text: String
    var used: Set<String> = []

    init(text: String) { self.text = text }

    func fail(_ token: Token?, _ message: String) -> FilterSpecError {
        FilterSpecError(spec: text, token: token?.text ?? "", column: token?.column ?? 0, message: message)
    }

    /// Splits `text` into the name token and item tokens with their 1-based columns.
    func tokenize() throws(FilterSpecError) -> (Token, [Token]) {
        let characters = Array(text)
        var pieces: [(String, Int)] = []
        var current = ""
        var startColumn = 1
        var seenColon = false
        for (index, character) in characters.enumerated() {
            let separator = character == "," || (character == ":" && !seenColon)
            if separator {
                pieces.append((current, startColumn))
                if character == ":" { seenColon = true }
                current = ""
                startColumn = index + 2
            } else {
                current.append(character)
            }
        }
        pieces.append((current, startColumn))
        var tokens: [Token] = []
        for (raw, column) in pieces {
            let leading = raw.prefix { $0 == " " || $0 == "\t" }.count
            let trimmed = String(raw.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            var token = Token(text: trimmed, column: column + leading, key: trimmed.lowercased(), value: nil)
            if let equals = trimmed.firstIndex(of: "=") {
                token.key = trimmed[..<equals].trimmingSpaces.lowercased()
                token.value = trimmed[trimmed.index(after: equals)...].trimmingSpaces
            }
            tokens.append(token)
        }
        let name = tokens.removeFirst()
        if name.text.isEmpty { throw fail(nil, "empty spec; expected one of \(FilterSpec.names.joined(separator: ", "))") }
        if seenColon, tokens.count == 1, tokens[0].text.isEmpty {
            throw fail(name, "':' must be followed by parameters")
        }
        for token in tokens where token.text.isEmpty {
            throw fail(token, "empty parameter (two commas, or a trailing comma)")
        }
        return (name, tokens)
    }

    mutating func parse() throws(FilterSpecError) -> FilterSpec {
        let (name, items) = try tokenize()
        var numbers: [String: (Double, Token)] = [:]
        var flags: [String: Token] = [:]
        var start = FilterStart.firstInput
        let allowed: (numbers: Set<String>, flags: Set<String>, start: Bool)
        switch name.key {
        case "lowpass", "highpass": allowed = (["cutoff"], [], true)
        case "factor": allowed = (["k"], ["lowpass", "highpass"], true)
        case "butter": allowed = (["order", "cutoff", "low", "high"], ["lowpass", "highpass", "bandpass"], true)
        case "accelgraph": allowed = (["cutoff"], ["lowpass", "highpass", "adaptive"], true)
        case "oneeuro": allowed = (["mincutoff", "beta", "dcutoff"], [], false)
        case "adaptive": allowed = (["cutoff", "threshold"], [], false)
        default:
            throw fail(name, "unknown filter '\(name.text)'; expected one of \(FilterSpec.names.joined(separator: ", "))")
        }
        for item in items {
            if used.contains(item.key) { throw fail(item, "'\(item.key)' given twice") }
            used.insert(item.key)
            if let value = item.value {
                if item.key == "start" && allowed.start {
                    guard let s = FilterStart(rawValue: value.lowercased()) else {
                        throw fail(item, "start must be 'first' or 'zero', got '\(value)'")
                    }
                    start = s
                } else if allowed.numbers.contains(item.key) {
                    guard let number = Double(value), number.isFinite else {
                        throw fail(item, value.isEmpty ? "missing value after '='" : "'\(value)' is not a finite number")
                    }
                    numbers[item.key] = (number, item)
                } else if allowed.flags.contains(item.key) {
                    throw fail(item, "'\(item.key)' is a flag and takes no value")
                } else {
                    throw fail(item, "unknown parameter '\(item.key)' for \(name.key); \(describe(allowed))")
                }
            } else if allowed.flags.contains(item.key) {
                flags[item.key] = item
            } else if allowed.numbers.contains(item.key) || (item.key == "start" && allowed.start) {
                throw fail(item, "'\(item.key)' needs a value ('\(item.key)=…')")
            } else {
                throw fail(item, "unknown flag '\(item.key)' for \(name.key); \(describe(allowed))")
            }
        }
        func required(_ key: String) throws(FilterSpecError) -> Double {
            guard let (value, _) = numbers[key] else { throw fail(name, "\(name.key) needs '\(key)=…'") }
            return value
        }
        func pass() throws(FilterSpecError) -> FilterPass {
            if let low = flags["lowpass"], flags["highpass"] != nil {
                throw fail(low, "choose one of lowpass and highpass")
            }
            return flags["highpass"] != nil ? .highPass : .lowPass
        }
        let spec: FilterSpec
        switch name.key {
        case "lowpass", "highpass":
            spec = .onePole(pass: name.key == "lowpass" ? .lowPass : .highPass, cutoff: try required("cutoff"), start: start)
        case "factor":
            spec = .factor(pass: try pass(), k: try required("k"), start: start)
        case "butter":
            let chosen = ["lowpass", "highpass", "bandpass"].filter { flags[$0] != nil }
            guard chosen.count == 1 else {
                throw fail(chosen.count > 1 ? flags[chosen[1]] : name, "butter needs exactly one of lowpass, highpass, bandpass")
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
            spec = .butterworth(band: band, order: Int(orderValue), start: start)
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
            let key = error.parameter
            throw fail(numbers[key]?.1 ?? name, error.message)
        }
        return spec
    }

    func describe(_ allowed: (numbers: Set<String>, flags: Set<String>, start: Bool)) -> String {
        var parts: [String] = []
        if !allowed.numbers.isEmpty { parts.append("parameters: " + allowed.numbers.sorted().joined(separator: ", ")) }
        if !allowed.flags.isEmpty { parts.append("flags: " + allowed.flags.sorted().joined(separator: ", ")) }
        if allowed.start { parts.append("start=first|zero") }
        return parts.isEmpty ? "it takes no parameters" : parts.joined(separator: "; ")
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
