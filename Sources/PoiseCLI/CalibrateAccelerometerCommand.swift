import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise calibrate accel FILE`: accelerometer offset and scale from a multi-position recording.
struct CalibrateAccelerometerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accel",
        abstract: "Accelerometer offset and scale (and cross-axis terms when nine or more orientations determine them) from a recording held still in several orientations.")

    @Argument(help: "Recording with accelerometer columns ('-': standard input); still for a few seconds in each of at least six orientations.")
    var file: String

    @Option(help: "full (scale and cross-axis terms) or diagonal (scale per axis) (default: full from nine distinct orientations on, else diagonal).")
    var model: EllipsoidModel?

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var output: CalibrationOutputOptions

    func validate() throws {
        if model == .offset { throw ValidationError("--model: the accelerometer takes full or diagonal") }
    }

    func run() throws {
        let (still, _) = try CalibrationText.gather(file, reading: reading, sensors: [.accelerometer], purpose: "accelerometer calibration") { schema in
            var detector = GyroscopeBiasEstimator.calibrationDetector
            detector.useGyroscope = schema.hasGyroscope
            return AccelerometerStillMeans(detector: detector)
        }
        let result = try CalibrationText.checked(file) { () throws(CalibrationError) in
            try AccelerometerCalibrator.calibrate(still, model: model)
        }
        let t = CalibrationText.self
        let lines = [
            "\((file as NSString).lastPathComponent): accelerometer, \(result.model.rawValue) model, \(result.orientations) distinct orientations in \(result.segments) still segments\(result.nonFiniteSegments > 0 ? " (\(result.nonFiniteSegments) left out for readings that are not finite)" : "")",
            "  offset             \(t.vector(result.correction.offset * 1000, 2)) mg",
            "  matrix",
            t.matrix(result.correction.matrix, indent: "    "),
            "  | |a| − 1 g | RMS  before \(t.number(result.residualBefore * 1000, 2)) mg, after \(t.number(result.residual * 1000, 2)) mg",
        ]
        try output.write(result.sensorCalibration(), summary: lines.joined(separator: "\n"), input: file)
    }
}
