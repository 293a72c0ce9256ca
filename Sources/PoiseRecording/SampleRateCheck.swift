#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// Refuses a recording whose timestamps give a sample rate no motion sensor produces, which
/// almost always means the time column's unit is not what its header says (milliseconds or epoch
/// nanoseconds under `t_s`). Every command that derives a rate from the timestamps runs it, so a
/// wrong unit stops with advice instead of giving results at 0.1 Hz or 1e-7 Hz.
public enum SampleRateCheck {
    /// Median sample rates accepted, Hz: 1 Hz to 100 kHz.
    public static let plausibleRange: ClosedRange<Double> = ParameterRange.sampleRate.lower ... ParameterRange.sampleRate.upper

    /// Throws when `rate` (Hz, from the file's timestamps as read) is outside `plausibleRange`.
    ///
    /// Does nothing for a file without a time column (its rate is the one the user gave) or when
    /// `rate` is nil (too few timestamps to tell; the caller reports that).
    /// - Parameter basis: how the rate was found, for the message (`"median interval"`,
    ///   `"median interval of the first 2048 rows"`, `NominalRate.Basis.text`).
    /// - Throws: `RecordingError` (line 0) naming the file, the rate, the time column and the
    ///   `--time-unit` that would make the rate plausible.
    public static func check(rate: Double?, schema: RecordingSchema, file: String,
                             basis: String = NominalRate.Basis.timestamps(rows: NominalRate.rowCount).text) throws {
        guard let rate, schema.hasTime, !plausibleRange.contains(rate) else { return }
        throw RecordingError(file: file, line: 0, column: 0, message: message(rate: rate, schema: schema, basis: basis))
    }

    /// The warning `check` throws, also used by `poise info` (which reports it and goes on).
    public static func message(rate: Double, schema: RecordingSchema, basis: String = "median interval") -> String {
        let column = schema.columns.first { if case .time = $0.meaning { true } else { false } }
        var scale = 1.0
        if case .time(let s)? = column?.meaning { scale = s }
        let name = column?.name ?? "time"
        let unit = column?.unit ?? "s"
        var text = "sample rate \(format(rate)) Hz (from the \(basis) of column '\(name)' read as \(unit)) is outside \(format(plausibleRange.lowerBound)) Hz – \(format(plausibleRange.upperBound / 1000)) kHz, where motion sensors work: the time column's unit is probably not \(unit)."
        if let suggestion = suggestedUnit(rate: rate, scale: scale) {
            text += " Give the unit with --time-unit \(suggestion.unit.rawValue) (the rate would then be \(format(suggestion.rate)) Hz)"
        } else {
            text += " Give the unit with --time-unit \(TimeUnit.spellings)"
        }
        return text + ", or rename the column (t_s, t_ms, t_us, t_ns)."
    }

    /// The time unit that puts the rate closest to 100 Hz (on a log scale) within the plausible
    /// range, with that rate; nil when none does. `scale`: seconds per unit of the column as read.
    public static func suggestedUnit(rate: Double, scale: Double) -> (unit: TimeUnit, rate: Double)? {
        guard rate.isFinite, rate > 0, scale > 0 else { return nil }
        let candidates = TimeUnit.allCases.map { unit in (unit: unit, rate: rate * scale / unit.secondsPerUnit) }
            .filter { plausibleRange.contains($0.rate) && abs($0.unit.secondsPerUnit - scale) > 1e-3 * scale }
        return candidates.min { abs(log10($0.rate) - 2) < abs(log10($1.rate) - 2) }
    }

    /// Four significant digits, without trailing zeros or an exponent for ordinary values.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value != 0, abs(value) < 1e-3 || abs(value) >= 1e7 {
            var exponent = Int(log10(abs(value)).rounded(.down))
            var mantissa = (value / pow10(exponent) * 1000).rounded() / 1000
            if abs(mantissa) >= 10 { mantissa /= 10; exponent += 1 }
            if abs(mantissa) < 1 { mantissa *= 10; exponent -= 1 }
            return "\(trim(mantissa))e\(exponent)"
        }
        return trim(value)
    }

    private static func trim(_ value: Double) -> String {
        let digits = max(0, 3 - Int(log10(max(abs(value), 1e-300)).rounded(.down)))
        let factor = pow10(min(digits, 12))
        let rounded = (value * factor).rounded() / factor
        var text = "\(rounded)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func pow10(_ n: Int) -> Double { pow(10, Double(n)) }
}
