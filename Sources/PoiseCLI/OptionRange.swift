import ArgumentParser
import Poise

/// The allowed range of a numeric option, checked in `validate()`: a value outside it is a usage
/// error (exit 64) that names the option, the value given and the range, with its unit. The
/// ranges the C API shares (sample rate, frame rate, threads) are the core's `ParameterRange`s.
struct OptionRange: Sendable {
    /// Option name with its dashes, e.g. `--rate`.
    var option: String
    var range: ParameterRange

    init(_ option: String, _ range: ParameterRange) {
        self.option = option; self.range = range
    }

    init(_ option: String, _ lower: Double, _ upper: Double, unit: String = "", includesLower: Bool = true, what: String = "") {
        self.init(option, ParameterRange(lower, upper, unit: unit, includesLower: includesLower, what: what))
    }

    /// Sample rates of motion sensors and the loggers that record them, Hz.
    static func sampleRate(_ option: String) -> OptionRange { OptionRange(option, .sampleRate) }
    /// Game-loop frame rates, Hz.
    static func frameRate(_ option: String) -> OptionRange { OptionRange(option, .frameRate) }
    /// Worker threads.
    static func threads(_ option: String) -> OptionRange { OptionRange(option, .threads) }

    func contains(_ value: Double) -> Bool { range.contains(value) }

    /// The range in words (`ParameterRange.text`).
    var text: String { range.text }

    /// Throws a usage error unless `value` is in range.
    func check(_ value: Double?) throws {
        guard let value, let problem = range.problem(option, value) else { return }
        throw ValidationError(problem)
    }

    /// Throws a usage error unless `value` is in range.
    func check(_ value: Int?) throws {
        guard let value else { return }
        try check(Double(value))
    }

    /// A number as a person would type it: 1000 rather than 1000.0.
    static func number(_ x: Double) -> String { ParameterRange.number(x) }
}
