import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// `poise evaluate FILE`: scores the estimated attitude against the file's ground truth.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score device-motion fusion against a recording's gt_q* ground truth (BROAD metric, degrees).")

    @Argument(help: "Recording CSV with gt_qw,gt_qx,gt_qy,gt_qz columns (ENU).")
    var file: String

    @OptionGroup var fusion: FusionOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let recording = try Recording.load(path: file, options: fusion.readOptions)
        guard recording.schema.hasTruth else {
            throw CommandError("\(file): no ground-truth columns (gt_qw, gt_qx, gt_qy, gt_qz)")
        }
        if fusion.mode == .nine && !recording.schema.hasMagnetometer {
            throw CommandError("\(file): --mode 9d needs magnetometer columns; use --mode 6d")
        }
        try recording.schema.require(fusion.sensors, file: file, for: "--mode \(fusion.mode.rawValue) fusion")
        try SampleRateCheck.check(rate: nominalSampleRate(of: recording.samples), schema: recording.schema, file: file)
        let configuration = try fusion.configuration(for: recording.samples)
        var pipeline = Pipeline([DeviceMotionStage(configuration: configuration)])
        var score = OrientationErrorSink(alignHeading: !configuration.reference.usesMagnetometer)
        BatchDriver.run(recording.samples, through: &pipeline) { score.receive($0) }
        let error = score.result
        guard error.count > 0 else { throw CommandError(Self.nothingScored(recording, file: file)) }
        if json {
            let object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue,
                "total_rmse_deg": error.total, "heading_rmse_deg": error.heading,
                "inclination_rmse_deg": error.inclination, "heading_aligned": error.headingAligned,
                "heading_offset_deg": error.headingOffset, "scored_samples": error.count,
                "sample_rate_hz": configuration.sampleRate,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "%@  %@  total %.3f°  heading %.3f°  inclination %.3f°  (%d samples%@)",
                         (file as NSString).lastPathComponent, fusion.mode.rawValue, error.total, error.heading,
                         error.inclination, error.count,
                         error.headingAligned ? String(format: ", heading aligned by %.2f°", error.headingOffset) : ""))
        }
    }

    /// Why no row was scored: a row counts when its ground truth is finite and (with a movement
    /// column) its movement is 1.
    static func nothingScored(_ recording: Recording, file: String) -> String {
        let rows = recording.samples.count
        let withTruth = recording.samples.filter { $0.truth != nil }.count
        var reason = "no row can be scored (a scored row has a finite gt_qw…gt_qz quaternion"
            + (recording.schema.hasMovement ? " and movement = 1" : "") + "): "
        if rows == 0 {
            reason += "the file has no data rows"
        } else if withTruth == 0 {
            reason += "none of the \(rows) rows has a finite ground-truth quaternion"
        } else {
            let moving = recording.samples.filter { $0.movement == true }.count
            let both = recording.samples.filter { $0.movement == true && $0.truth != nil }.count
            reason += "\(withTruth) of \(rows) rows have ground truth, \(moving) have movement = 1, \(both) have both"
        }
        return "\(file): \(reason); there is no orientation error to report"
    }
}
