/// The allowed range of a numeric parameter, the one source for every front end: the CLI checks
/// its options against it (a usage error naming the option), the C API its arguments (an
/// invalid-argument error naming the argument), and the Python package through the C API.
///
/// Every range is finite, so no parameter can make a computation convert an absurd number to an
/// integer, allocate without bound or produce infinities; the limits are far beyond what a
/// motion sensor, a game loop or a person needs.
public struct ParameterRange: Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    /// Whether `lower` itself is allowed (false: the value must be greater).
    public var includesLower: Bool
    /// Unit shown after the numbers (e.g. "Hz", "s"), or empty.
    public var unit: String
    /// What the value is, in words ("a sample rate"), or empty.
    public var what: String

    public init(_ lower: Double, _ upper: Double, unit: String = "", includesLower: Bool = true, what: String = "") {
        self.lower = lower; self.upper = upper
        self.unit = unit; self.includesLower = includesLower; self.what = what
    }

    /// Sample rates of motion sensors and the loggers that record them: 1 Hz to 100 kHz.
    public static let sampleRate = ParameterRange(1, 100_000, unit: "Hz", what: "a sample rate")
    /// Game-loop frame rates: 1 to 1000 Hz.
    public static let frameRate = ParameterRange(1, 1000, unit: "Hz", what: "a frame rate")
    /// Worker threads: 1 to 256.
    public static let threads = ParameterRange(1, 256)

    /// Whether `value` is finite and inside the range.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value <= upper && (includesLower ? value >= lower : value > lower)
    }

    /// The range in words, e.g. "a frame rate between 1 and 1000 Hz" or "greater than 0 and at
    /// most 16 g".
    public var text: String {
        let u = unit.isEmpty ? "" : " \(unit)"
        return (what.isEmpty ? "" : what + " ") + (includesLower ? "between \(Self.number(lower)) and \(Self.number(upper))\(u)"
            : "greater than \(Self.number(lower)) and at most \(Self.number(upper))\(u)")
    }

    /// "NAME must be RANGE, got VALUE" when `value` is outside the range, else nil.
    public func problem(_ name: String, _ value: Double) -> String? {
        contains(value) ? nil : "\(name) must be \(text), got \(Self.number(value))"
    }

    /// A number as a person would type it: 1000 rather than 1000.0.
    public static func number(_ x: Double) -> String {
        x == x.rounded() && x.magnitude < 1e15 ? String(Int(x)) : String(x)
    }
}
