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

    /// `FILE` (or `-`, standard input) → `fusion` stage → the output CSV (docs/conventions.md,
    /// one row per sample) and the flag counts, in one streaming pass, so memory does not grow
    /// with the file. The sample rate (unless given) is the recording's rate (`nominalSampleRate(of:)`:
    /// the median interval of the first `NominalRate.rowCount` rows, as every command finds it), and
    /// so is the check that the timestamps give a plausible rate. Ctrl-C (SIGINT) or SIGTERM stops
    /// cleanly: the output file is not created (exit status 130 or 143).
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
        var pipeline = Pipeline(try fusion.calibrationStages(schema: reader.schema) + [DeviceMotionStage(configuration: configuration)])
        let interrupt = InterruptFlag()  // before the output exists: a signal never leaves a partial file
        defer { interrupt.restore() }
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: reader.schema.hasMagnetometer,
                                    earthUserAcceleration: earthUserAcceleration)
        columns.magneticFieldIsArbitrary = reader.schema.magneticFieldIsArbitrary
        let destination = out ?? (json ? nil : "-")
        var writer = try destination.map { try RecordCSVWriter(path: $0, columns: columns) }
        let mode = writer?.mode
        var counts = [String: Int]()
        var last: ProcessedSample?
        let sink = { (record: ProcessedSample) in
            writer?.write(record)
            for (name, flag) in Self.countedFlags where record.fusion?.flags.contains(flag) == true {
                counts[name, default: 0] += 1
            }
            last = record
        }
        let run: (samples: Int, stopped: Bool)
        var calibration: GyroscopeSelfCalibration?
        if fusion.offline {
            let spooled = try OfflineFusion.spool(reader, first: first, stages: try fusion.calibrationStages(schema: reader.schema),
                                                  shouldStop: { interrupt.isSet })
            if !spooled.stopped {
                let offline = OfflineFusion(configuration: configuration, options: try fusion.smootherOptions(),
                                        exactVQF: fusion.preset == .vqf)
                calibration = offline.run(spooled.spool, sink: sink)
            }
            // A signal during the smoothing ends the run here (the output is then not created).
            run = (spooled.spool.count, spooled.stopped || interrupt.isSet)
        } else {
            let result = try BatchDriver.run(reader, first: first, through: &pipeline, shouldStop: { interrupt.isSet }, sink: sink)
            run = (result.samples, result.stopped)
        }
        if run.stopped {
            writer.take()?.abandon()
            let written = out.map { mode == .atomic ? "\($0) was not written" : "\($0) is incomplete" } ?? "output incomplete"
            StandardError.write("poise fuse: \(interrupt.verb) after \(run.samples) samples; \(written)\n")
            throw ExitCode(interrupt.exitCode)
        }
        do { try writer.take()?.finish() } catch let error as RecordingError {
            throw CommandError(error.description)
        }
        if json, let record = last, let q = record.attitude, let status = record.fusion {
            var object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue, "offline": fusion.offline, "frame": frame.rawValue,
                "reference": configuration.reference.rawValue, "samples": run.samples,
                "sample_rate_hz": configuration.sampleRate,
                "final_quaternion_wxyz": [q.w, q.x, q.y, q.z],
                "final_bias_radps": [status.bias.x, status.bias.y, status.bias.z],
                "final_heading_deg": status.heading.map { $0 as Any } ?? NSNull(),
                "flag_counts": counts,
            ]
            if fusion.offline { object["gyroscope_calibration"] = OfflineFusion.summary(calibration) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            let summary = String(decoding: data, as: UTF8.self)
            if mode == .standardOutput { StandardError.write(summary + "\n") } else { print(summary) }
        }
    }

    /// The flags counted in the JSON summary, by key.
    static let countedFlags: [(String, DeviceMotion.Flags)] = [
        ("at_rest", .atRest), ("mag_disturbance", .magneticDisturbance), ("time_gap", .timeGap),
        ("invalid_input", .invalidInput), ("time_not_increasing", .timeNotIncreasing),
        ("acceleration_rejected", .accelerationRejected), ("held_sample", .heldSample),
        ("gyro_saturated", .gyroscopeSaturated),
    ]

    /// `countedFlags` counted over records (the `flag_counts` object of `fuse --json` and
    /// `evaluate --json`); a flag never set is absent.
    struct FlagCounts {
        var counts = [String: Int]()
        mutating func add(_ record: ProcessedSample) {
            guard let flags = record.fusion?.flags, !flags.isEmpty else { return }
            for (name, flag) in FuseCommand.countedFlags where flags.contains(flag) { counts[name, default: 0] += 1 }
        }
    }
}
