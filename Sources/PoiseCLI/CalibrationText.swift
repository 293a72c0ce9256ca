import Foundation
import Poise
import PoiseRecording

/// What the `calibrate` subcommands share: number formatting of their summaries, loading the
/// recording, and turning a `CalibrationError` into a command error.
enum CalibrationText {
    static func number(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

    static func vector(_ v: SIMD3<Double>, _ digits: Int = 3) -> String {
        "(\(number(v.x, digits)), \(number(v.y, digits)), \(number(v.z, digits)))"
    }

    static func matrix(_ m: Matrix3, indent: String) -> String {
        [m.r0, m.r1, m.r2].map { indent + vector($0, 4) }.joined(separator: "\n")
    }

    /// The value of `body`, with a calibration error as a `CommandError` starting with `context`.
    static func checked<T>(_ context: String, _ body: () throws(CalibrationError) -> T) throws -> T {
        do throws(CalibrationError) { return try body() } catch { throw CommandError("\(context): \(error.message)") }
    }

    /// Loads a recording for calibration and requires `sensors`.
    static func load(_ file: String, reading: ReadingOptions, sensors: [Sensor], purpose: String) throws -> Recording {
        let recording = try reading.load(file)
        try recording.schema.require(sensors, file: file, for: purpose)
        guard !recording.samples.isEmpty else { throw CommandError("\(file): the recording has no samples") }
        return recording
    }
}
