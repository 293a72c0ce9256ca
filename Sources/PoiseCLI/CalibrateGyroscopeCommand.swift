import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise calibrate gyro FILE`: gyroscope bias from the still segments.
struct CalibrateGyroscopeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyro",
        abstract: "Gyroscope bias (and its drift between the first and last still segment) from the still segments of a recording.")

    @Argument(help: "Recording with accelerometer and gyroscope columns ('-': standard input).")
    var file: String

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var output: CalibrationOutputOptions

    func run() throws {
        var (estimate, _) = try CalibrationText.gather(file, reading: reading, sensors: [.accelerometer, .gyroscope],
                                                       purpose: "gyroscope calibration (the accelerometer finds the still segments)") { _ in GyroscopeBiasAccumulator() }
        let result = try CalibrationText.checked(file) { () throws(CalibrationError) in try estimate.finish() }
        let t = CalibrationText.self
        let degrees = 180 / Double.pi
        var lines = [
            "\((file as NSString).lastPathComponent): gyroscope, \(result.segments.count) still segment\(result.segments.count == 1 ? "" : "s"), \(t.number(result.stillDuration, 1)) s, \(result.stillSamples) samples\(result.nonFiniteSegments > 0 ? " (\(result.nonFiniteSegments) segments left out for readings that are not finite)" : "")",
            "  bias               \(t.vector(result.bias, 5)) rad/s = \(t.vector(result.bias * degrees, 3)) °/s",
            "  standard error     \(t.vector(result.standardError * degrees, 4)) °/s (white noise only)",
            "  noise              \(t.vector(result.noise * degrees, 4)) °/s per sample",
        ]
        if let drift = result.drift {
            lines.append("  drift              \(t.vector(drift * degrees, 4)) °/s from the first to the last still segment (\(t.number(result.driftInterval, 1)) s apart)")
        } else {
            lines.append("  drift              unknown (one still segment; rest again later in the recording to see it)")
        }
        try output.write(result.sensorCalibration(), summary: lines.joined(separator: "\n"), input: file)
    }
}
