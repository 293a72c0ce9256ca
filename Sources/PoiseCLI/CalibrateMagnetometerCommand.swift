import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

extension EllipsoidModel: ExpressibleByArgument {}

/// `poise calibrate mag FILE`: hard- and soft-iron calibration of the magnetometer.
struct CalibrateMagnetometerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mag",
        abstract: "Hard-iron offset and soft-iron matrix from a recording in which the device turns in all directions.")

    @Argument(help: "Recording with magnetometer columns ('-': standard input).")
    var file: String

    @Option(help: "full (offset and soft-iron matrix), diagonal (offset and per-axis scale) or offset (hard iron only).")
    var model: EllipsoidModel = .full

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var output: CalibrationOutputOptions

    func run() throws {
        // The fit's rejection rounds revisit every reading: they are kept in a temporary file.
        let log = ValueLogFile<MagneticReading>(purpose: "the magnetometer readings")
        let (collected, schema) = try CalibrationText.gather(file, reading: reading, sensors: [.magnetometer],
                                                             purpose: "magnetometer calibration") { _ in MagneticFieldCollector(log: log) }
        let unit = schema.magneticFieldIsArbitrary ? "au" : "uT"
        var options = MagnetometerCalibrator.Options()
        options.model = model
        // Rows repeating the previous reading (a magnetometer slower than the file's rate) are
        // left out by the collector and counted.
        let held = collected.held
        let result: MagnetometerCalibration
        do {
            result = try CalibrationText.checked(file) { () throws(CalibrationError) in try MagnetometerCalibrator.calibrate(log, options: options) }
        } catch {
            try log.check()   // a full disk, rather than what the fit made of the readings kept before it
            throw error
        }
        try log.check()
        let shown = unit == "au" ? "a.u." : "µT"
        let t = CalibrationText.self
        var lines = [
            "\((file as NSString).lastPathComponent): magnetometer, \(result.model.rawValue) ellipsoid, \(result.samples - result.rejected - result.nonFinite - result.saturated) of \(result.samples) samples used (\(result.rejected) rejected as disturbed\(result.nonFinite > 0 ? ", \(result.nonFinite) not finite" : "")\(result.saturated > 0 ? ", \(result.saturated) saturated" : "")\(held > 0 ? "; \(held) rows repeating the previous reading left out" : ""))",
            "  field strength     \(t.number(result.fieldStrength)) \(shown)",
            "  hard-iron offset   \(t.vector(result.correction.offset)) \(shown)",
            "  soft-iron matrix",
            t.matrix(result.correction.matrix, indent: "    "),
            "  |B| spread         before \(t.number(result.before.standardDeviation)) \(shown) (\(t.number(result.before.percent, 2)) %), after \(t.number(result.after.standardDeviation)) \(shown) (\(t.number(result.after.percent, 2)) %)",
            "  residual RMS       \(t.number(result.residual)) \(shown)",
            "  coverage           \(Int((result.coverage.sphereFraction * 100).rounded())) % of the sphere, thickness \(t.number(result.coverage.thickness, 2)); turned \(result.coverage.turnText)",
        ]
        lines += result.warnings.map { "  warning: " + $0 }
        try output.write(result.sensorCalibration(unit: unit), summary: lines.joined(separator: "\n"), input: file)
    }
}
