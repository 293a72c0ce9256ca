import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// Where `poise calibrate` writes its JSON, and the file it updates.
struct CalibrationOutputOptions: ParsableArguments {
    @Option(help: "Write the calibration JSON here ('-': standard output; the summary then goes to standard error).")
    var out: String?

    @Option(help: ArgumentHelp("Start from this calibration file and replace only the sensor calibrated now (the result goes to --out; the file itself is not changed).", valueName: "cal.json"))
    var update: String?

    func validate() throws {
        if update != nil && out == nil { throw ValidationError("--update needs --out: the updated calibration is written there") }
    }

    /// Writes `calibration` (merged into `--update`'s) to `--out` and prints `summary` (on standard
    /// error when the JSON goes to standard output).
    func write(_ calibration: SensorCalibration, summary: String, input: String) throws {
        try FileIdentity.requireDistinct(outputs: [out], inputs: [input, update])
        var result = calibration
        if let update {
            result = try CalibrationText.checked("--update") { () throws(CalibrationError) in try SensorCalibration(contentsOf: update) }.merging(calibration)
        }
        if let out {
            let file = try OutputFile(path: out)
            file.append(result.json)
            do { try file.finish() } catch let error as RecordingError { throw CommandError(error.description) }
            if OutputFile.isStandardOutput(out) { StandardError.write(summary + "\n"); return }
            print(summary + "\nwrote \(out)")
        } else {
            print(summary)
        }
    }
}

/// Formatting of the calibration summaries.
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
