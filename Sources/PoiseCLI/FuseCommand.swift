import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// `poise fuse FILE`: writes the device-motion stream (attitude, gravity, user acceleration…).
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Estimate device motion (attitude, gravity, user acceleration, bias) and write it as CSV.")

    @Argument(help: "Recording (CSV, or ROS 1 bag with a sensor_msgs/Imu topic).")
    var file: String

    @OptionGroup var fusion: FusionOptions

    @Option(help: "Earth frame of the attitude: enu, ned, nwu.")
    var frame: EarthFrame = .eastNorthUp

    @Option(help: "Write the CSV here instead of standard output ('-': standard output).")
    var out: String?

    @Flag(help: "Also write user acceleration in the earth frame.")
    var earthUserAcceleration = false

    @Flag(help: "Print a JSON summary (samples, final attitude, bias, flag counts) instead of the CSV; with --out the CSV is still written (with --out -, the summary goes to standard error).")
    var json = false

    /// `FILE` (or `-`, standard input) → `[calibrate |] fusion` → the output CSV
    /// (`RecordCSVWriter`, docs/conventions.md, one row per sample), the flag counts and the last
    /// record, in one `Run` (with `--offline`, `OfflineFusion`'s spool and smoothing), so memory
    /// does not grow with the file. The sample rate (unless given) is the recording's rate
    /// (`nominalSampleRate(of:)`: the median interval of the first `NominalRate.rowCount` rows, as
    /// every command finds it), and so is the check that the timestamps give a plausible rate.
    /// Ctrl-C (SIGINT) or SIGTERM stops cleanly: the output file is not created (exit status 130
    /// or 143).
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file, fusion.calibration])
        let reader = try RecordingSources.open(path: file, options: fusion.readOptions)
        if fusion.mode == .nine && !reader.schema.hasMagnetometer {
            throw CommandError("\(file): --mode 9d needs magnetometer columns; use --mode 6d")
        }
        try reader.schema.require(fusion.sensors, file: file, for: "--mode \(fusion.mode.rawValue) fusion")
        var first: [MotionSample] = []
        try reader.read(into: &first, maximumCount: NominalRate.rowCount)
        try SampleRateCheck.check(rate: nominalSampleRate(of: first), schema: reader.schema, file: file,
                                  basis: NominalRate.Basis.timestamps(rows: first.count).text)
        let configuration = try fusion.configuration(for: first, earthFrame: frame)
        let stages = try fusion.calibrationStages(schema: reader.schema)
        let pipeline = Pipeline(stages + [DeviceMotionStage(configuration: configuration)])
        let interrupt = InterruptFlag()  // before the output exists: a signal never leaves a partial file
        defer { interrupt.restore() }
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: reader.schema.hasMagnetometer,
                                    earthUserAcceleration: earthUserAcceleration)
        columns.magneticFieldIsArbitrary = reader.schema.magneticFieldIsArbitrary
        let writer = try (out ?? (json ? nil : "-")).map { try RecordCSVWriter(path: $0, columns: columns) }
        var sinks = SinkPair(writer, SinkPair(FusionFlagCounter(Self.countedFlags), LastRecordSink()))
        let end: RunEnd, summary: (Void?, ([String: Int], ProcessedSample?))
        var calibration: GyroscopeSelfCalibration?
        if fusion.offline {
            let outcome = try fusion.offlineFusion(configuration).run(reader, first: first, stages: stages, into: &sinks,
                                                                      shouldStop: { interrupt.isSet })
            end = outcome.end
            summary = outcome.summary
            calibration = outcome.calibration
        } else {
            var run = Run(source: reader, first: first, pipeline: pipeline, clock: AsFastAsPossible())
            let result = try run.run(into: &sinks, shouldStop: { interrupt.isSet })
            end = result.end
            summary = result.summary
        }
        let (counts, last) = summary.1
        if end.stopped {
            let written = out.map { writer?.mode == .atomic ? "\($0) was not written" : "\($0) is incomplete" } ?? "output incomplete"
            StandardError.write("poise fuse: \(interrupt.verb) after \(end.samples) samples; \(written)\n")
            throw ExitCode(interrupt.exitCode)
        }
        if json, let record = last, let q = record.attitude, let status = record.fusion {
            var object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue, "offline": fusion.offline, "frame": frame.rawValue,
                "reference": configuration.reference.rawValue, "samples": end.samples,
                "sample_rate_hz": configuration.sampleRate,
                "final_quaternion_wxyz": [q.w, q.x, q.y, q.z],
                "final_bias_radps": [status.bias.x, status.bias.y, status.bias.z],
                "final_heading_deg": status.heading.map { $0 as Any } ?? NSNull(),
                "flag_counts": counts,
            ]
            if fusion.offline { object["gyroscope_calibration"] = FusionOptions.summary(calibration) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            let summary = String(decoding: data, as: UTF8.self)
            if writer?.mode == .standardOutput { StandardError.write(summary + "\n") } else { print(summary) }
        }
    }

    /// The flags counted in the JSON summary, by key.
    static let countedFlags: [(name: String, flag: DeviceMotion.Flags)] = [
        ("at_rest", .atRest), ("mag_disturbance", .magneticDisturbance), ("time_gap", .timeGap),
        ("invalid_input", .invalidInput), ("time_not_increasing", .timeNotIncreasing),
        ("acceleration_rejected", .accelerationRejected), ("held_sample", .heldSample),
        ("gyro_saturated", .gyroscopeSaturated),
    ]
}

extension FuseCommand: BatchableCommand {
    static var batchWritesOut: Bool { true }
    static func batchOutputExtension(options: [String]) -> String { "csv" }
    static func batchAddedArguments(options: [String]) -> [String] { ["--json"] }
    static var batchHeadlineColumns: [String] { ["sample_rate_hz"] }
    static var batchRowsKey: String? { "samples" }
}
