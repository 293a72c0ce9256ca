import ArgumentParser
import Foundation
import Testing
@testable import PoiseCLI

/// Random and hostile values for every numeric option, parsed in process (no file is read): a
/// value is either accepted and inside the option's documented range, or refused with a usage
/// error (exit 64) whose message names the option. Nothing traps, whatever the value.
@Suite struct OptionRangePropertyTests {
    /// An option and its documented range (closed; `open` makes the lower end exclusive).
    struct Case: Sendable, CustomStringConvertible {
        var prefix: [String]
        var option: String
        var low: Double
        var high: Double
        var open = false
        var integer = false
        var description: String { (prefix + [option]).joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(prefix: ["info", "f.csv"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["replay", "f.csv"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["replay", "f.csv"], option: "--speed", low: 0.001, high: 1000),
        Case(prefix: ["replay", "f.csv"], option: "--frame-rate", low: 1, high: 1000),
        Case(prefix: ["tilt", "f.csv"], option: "--frame-rate", low: 1, high: 1000),
        Case(prefix: ["tilt", "f.csv", "--saturation", "180"], option: "--dead-zone", low: 0, high: 90),
        Case(prefix: ["tilt", "f.csv"], option: "--smoothing", low: 0, high: 3600),
        Case(prefix: ["tilt", "f.csv"], option: "--hold-time", low: 0, high: 3600),
        Case(prefix: ["tilt", "f.csv"], option: "--home-angle", low: 0, high: 180, open: true),
        Case(prefix: ["jitter", "f.csv", "--filter", "lowpass:cutoff=5"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["step", "--filter", "lowpass:cutoff=5"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["response", "--filter", "lowpass:cutoff=5"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["response", "--filter", "lowpass:cutoff=5", "--rate", "100"], option: "--length", low: 16, high: 4_194_304, integer: true),
        Case(prefix: ["response", "--filter", "lowpass:cutoff=5", "--rate", "100"], option: "--rows", low: 2, high: 1000, integer: true),
        Case(prefix: ["spectrum", "f.csv"], option: "--nperseg", low: 8, high: 1_048_576, integer: true),
        Case(prefix: ["spectrum", "f.csv"], option: "--peaks", low: 0, high: 100, integer: true),
        Case(prefix: ["spectrum", "f.csv"], option: "--min-frequency", low: 0, high: 1e6),
        Case(prefix: ["spectrum", "f.csv"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["fuse", "f.csv"], option: "--sample-rate", low: 1, high: 100_000),
        Case(prefix: ["evaluate", "f.csv"], option: "--declination", low: -180, high: 180),
        Case(prefix: ["bench", "f.csv", "--filter", "factor"], option: "--threads", low: 1, high: 256, integer: true),
        Case(prefix: ["bench", "f.csv", "--filter", "factor"], option: "--target-jitter", low: 0, high: 16, open: true),
        Case(prefix: ["report", "f.csv", "--out", "r.html"], option: "--target-latency-ms", low: 0, high: 60_000, open: true),
        Case(prefix: ["report", "f.csv", "--out", "r.html"], option: "--threads", low: 1, high: 256, integer: true),
        Case(prefix: ["simulate", "--scenario", "still", "--out", "s.csv"], option: "--rate", low: 1, high: 100_000),
        Case(prefix: ["simulate", "--scenario", "still", "--out", "s.csv"], option: "--duration", low: 0, high: 604_800, open: true),
        Case(prefix: ["simulate", "--scenario", "still", "--out", "s.csv"], option: "--digits", low: 1, high: 17, integer: true),
    ]

    /// Hostile texts, then random numbers over all magnitudes and both signs.
    static func values(count: Int, seed: UInt64) -> [String] {
        var fixed = ["nan", "-nan", "inf", "-inf", "infinity", "1e309", "-1e309", "1e-320", "-0", "0", "", " ", "--json",
                     "0x10", "1_000", " 5", "5 ", "5,0", "٥", "1e", "--", "-", "9223372036854775808", "-9223372036854775809",
                     "18446744073709551616", "1e18", "-1e18", "4.9e-324"]
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        while fixed.count < count {
            let mantissa = Double(next() >> 11) * 0x1p-53 * 10
            let exponent = Int(next() % 25) - 12
            let sign = next() % 3 == 0 ? "-" : ""
            switch next() % 3 {
            case 0: fixed.append(sign + String(Int(mantissa * 100)))
            case 1: fixed.append(sign + String(mantissa))
            default: fixed.append(sign + "\(mantissa)e\(exponent)")
            }
        }
        return fixed
    }

    @Test(arguments: cases)
    func everyValueIsInRangeOrAUsageErrorNamingTheOption(_ c: Case) {
        for text in Self.values(count: 32, seed: UInt64(c.description.utf8.count)) {
            let arguments = c.prefix + [c.option, text]
            do {
                _ = try PoiseCommand.parseAsRoot(arguments)
                let value = Double(text.trimmingCharacters(in: .whitespaces))
                let inRange = value.map { $0.isFinite && $0 <= c.high && (c.open ? $0 > c.low : $0 >= c.low) } ?? false
                #expect(inRange, "\(arguments) was accepted")
            } catch {
                #expect(PoiseCommand.exitCode(for: error) == .validationFailure, "\(arguments): \(error)")
                let message = PoiseCommand.message(for: error)
                #expect(message.contains(c.option), "\(arguments): \(message)")
                #expect(!message.contains("Missing value"), "\(arguments): \(message)")
            }
        }
    }
}
