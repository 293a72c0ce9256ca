import ArgumentParser

/// The allowed range of a numeric option, checked in `validate()`: a value outside it is a usage
/// error (exit 64) that names the option, the value given and the range, with its unit.
///
/// Every range is finite, so no option can make a command convert an absurd number to an integer,
/// allocate without bound or wait for ages; the limits are far beyond what a motion sensor, a game
/// loop or a person needs.
struct OptionRange: Sendable {
    /// Option name with its dashes, e.g. `--rate`.
    var option: String
    var lower: Double
    var upper: Double
    /// Whether `lower` itself is allowed (false: the value must be greater).
    var includesLower: Bool
    /// Unit shown after the numbers (e.g. "Hz", "s"), or empty.
    var unit: String
    /// What the value is, in words ("a sample rate"), or empty.
    var what: String

    init(_ option: String, _ lower: Double, _ upper: Double, unit: String = "", includesLower: Bool = true, what: String = "") {
        self.option = option; self.lower = lower; self.upper = upper
        self.unit = unit; self.includesLower = includesLower; self.what = what
    }

    /// Sample rates of motion sensors and the loggers that record them, Hz.
    static func sampleRate(_ option: String) -> OptionRange { OptionRange(option, 1, 100_000, unit: "Hz", what: "a sample rate") }
    /// Game-loop frame rates, Hz.
    static func frameRate(_ option: String) -> OptionRange { OptionRange(option, 1, 1000, unit: "Hz", what: "a frame rate") }
    /// Worker threads.
    static func threads(_ option: String) -> OptionRange { OptionRange(option, 1, 256) }

    func contains(_ value: Double) -> Bool {
        value.isFinite && value <= upper && (includesLower ? value >= lower : value > lower)
    }

    /// The range in words, e.g. "a frame rate between 1 and 1000 Hz" or "greater than 0 and at
    /// most 16 g".
    var text: String {
        let u = unit.isEmpty ? "" : " \(unit)"
        return (what.isEmpty ? "" : what + " ") + (includesLower ? "between \(Self.number(lower)) and \(Self.number(upper))\(u)"
            : "greater than \(Self.number(lower)) and at most \(Self.number(upper))\(u)")
    }

    /// Throws a usage error unless `value` is in range.
    func check(_ value: Double?) throws {
        guard let value, !contains(value) else { return }
        throw ValidationError("\(option) must be \(text), got \(Self.number(value))")
    }

    /// Throws a usage error unless `value` is in range.
    func check(_ value: Int?) throws {
        guard let value else { return }
        try check(Double(value))
    }

    /// A number as a person would type it: 1000 rather than 1000.0.
    static func number(_ x: Double) -> String {
        x == x.rounded() && x.magnitude < 1e15 ? String(Int(x)) : String(x)
    }
}
