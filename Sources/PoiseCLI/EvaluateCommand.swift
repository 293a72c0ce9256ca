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

    /// Streams the recording twice: the scan (`RecordingScan`: every row checked, the recording's
    /// rate the fusion is configured for, `nominalSampleRate(of:)`, as `fuse` finds it, so the
    /// score is that of `fuse`'s output) and the scoring pass (standard input is kept in
    /// a temporary file for them).
    func run() throws {
        try StandardInputSpool.withFile(file) { path in try evaluate(path) }
    }

    func evaluate(_ path: String) throws {
        let scan = try RecordingScan(path: path, options: fusion.readOptions)
        let schema = scan.schema
        guard schema.hasTruth else {
            throw CommandError("\(file): no ground-truth columns (gt_qw, gt_qx, gt_qy, gt_qz)")
        }
        if fusion.mode == .nine && !schema.hasMagnetometer {
            throw CommandError("\(file): --mode 9d needs magnetometer columns; use --mode 6d")
        }
        try schema.require(fusion.sensors, file: file, for: "--mode \(fusion.mode.rawValue) fusion")
        try SampleRateCheck.check(rate: scan.nominalRate, schema: schema, file: file)
        let configuration = try fusion.configuration(medianRate: scan.nominalRate)
        let reader = try RecordingSources.open(path: path, options: fusion.readOptions)
        let stages = try fusion.calibrationStages(schema: schema)
        // 6D's heading alignment revisits every scored row's error: they are kept in a temporary file.
        let errorLog = ValueLogFile<SIMD2<Double>>(purpose: "the heading errors of the 6D alignment")
        var sinks = SinkPair(OrientationErrorSink(alignHeading: !configuration.reference.usesMagnetometer, errorLog: errorLog),
                             FusionFlagCounter(FuseCommand.countedFlags))
        let error: OrientationError
        let flags: [String: Int]
        var calibration: GyroscopeSelfCalibration?
        if fusion.offline {
            let outcome = try fusion.offlineFusion(configuration).run(reader, stages: stages, into: &sinks)
            (error, flags) = outcome.summary
            calibration = outcome.calibration
        } else {
            var run = Run(source: reader, pipeline: Pipeline(stages + [DeviceMotionStage(configuration: configuration)]),
                          clock: AsFastAsPossible())
            (error, flags) = try run.run(into: &sinks).summary
        }
        try errorLog.check()
        let rows = sinks.first.coverage
        guard error.count > 0 else { throw CommandError(Self.nothingScored(rows, hasMovement: schema.hasMovement, file: file)) }
        if json {
            var object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue, "offline": fusion.offline,
                "total_rmse_deg": error.total, "heading_rmse_deg": error.heading,
                "inclination_rmse_deg": error.inclination, "heading_aligned": error.headingAligned, "rows": rows.rows,
                "heading_offset_deg": error.headingOffset, "scored_samples": error.count,
                "sample_rate_hz": configuration.sampleRate, "flag_counts": flags,
            ]
            if fusion.offline { object["gyroscope_calibration"] = FusionOptions.summary(calibration) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "%@  %@%@  total %.3f°  heading %.3f°  inclination %.3f°  (%d samples%@)",
                         (file as NSString).lastPathComponent, fusion.mode.rawValue, fusion.offline ? " offline" : "", error.total, error.heading,
                         error.inclination, error.count,
                         error.headingAligned ? String(format: ", heading aligned by %.2f°", error.headingOffset) : ""))
        }
    }

    /// Why no row was scored: a row counts when its ground truth is finite and (with a movement
    /// column) its movement is 1.
    static func nothingScored(_ counts: OrientationErrorSink.Coverage, hasMovement: Bool, file: String) -> String {
        var reason = "no row can be scored (a scored row has a finite gt_qw…gt_qz quaternion"
            + (hasMovement ? " and movement = 1" : "") + "): "
        if counts.rows == 0 {
            reason += "the file has no data rows"
        } else if counts.withTruth == 0 {
            reason += "none of the \(counts.rows) rows has a finite ground-truth quaternion"
        } else {
            reason += "\(counts.withTruth) of \(counts.rows) rows have ground truth, \(counts.moving) have movement = 1, \(counts.both) have both"
        }
        return "\(file): \(reason); there is no orientation error to report"
    }
}

extension EvaluateCommand: BatchableCommand {
    static var batchWritesOut: Bool { false }
    static func batchOutputExtension(options: [String]) -> String { "json" }
    static func batchAddedArguments(options: [String]) -> [String] { ["--json"] }
    static var batchHeadlineColumns: [String] { ["scored_samples", "total_rmse_deg", "heading_rmse_deg", "inclination_rmse_deg"] }
    static var batchRowsKey: String? { "rows" }
}
