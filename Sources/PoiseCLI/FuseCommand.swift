import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise fuse FILE`: writes the device-motion stream (attitude, gravity, user acceleration…).
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Estimate device motion (attitude, gravity, user acceleration, bias) and write it as CSV.")

    @Argument(help: "Recording CSV.")
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

    /// Streams: the recording is read in chunks and each row written as it is estimated, so
    /// memory does not grow with the file. The sample rate (unless given) is estimated from the
    /// first 2048 rows, and so is the check that the timestamps give a plausible rate. Ctrl-C
    /// (SIGINT) or SIGTERM stops cleanly: the output file is not created (exit status 130 or 143).
    /// `FILE` may be `-` (standard input).
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        let reader = try RecordingReader(path: file, options: fusion.readOptions)
        if fusion.mode == .nine && !reader.schema.hasMagnetometer {
            throw CommandError("\(file): --mode 9d needs magnetometer columns; use --mode 6d")
        }
        try reader.schema.require(fusion.sensors, file: file, for: "--mode \(fusion.mode.rawValue) fusion")
        var chunk: [MotionSample] = []
        try reader.read(into: &chunk, maximumCount: 2048)
        try SampleRateCheck.check(rate: nominalSampleRate(of: chunk), schema: reader.schema, file: file,
                                  basis: "median interval of the first \(chunk.count) rows")
        let configuration = try fusion.configuration(for: chunk, earthFrame: frame)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        let interrupt = InterruptFlag()  // before the output exists: a signal never leaves a partial file
        defer { interrupt.restore() }
        let output: OutputFile? = try out.map { try OutputFile(path: $0) } ?? (json ? nil : OutputFile.standardOutput)
        output?.append(DeviceMotionCSV.header(earthFrameUserAcceleration: earthUserAcceleration) + "\n")
        var row = ""
        var last: DeviceMotion?
        var counts = [String: Int]()
        var samples = 0
        while !chunk.isEmpty {
            for sample in chunk {
                let motion = estimator.process(sample)
                if let output {
                    row.removeAll(keepingCapacity: true)
                    DeviceMotionCSV.appendRow(motion, earthFrameUserAcceleration: earthUserAcceleration, to: &row)
                    output.append(row)
                }
                if motion.flags.contains(.atRest) { counts["at_rest", default: 0] += 1 }
                if motion.flags.contains(.magneticDisturbance) { counts["mag_disturbance", default: 0] += 1 }
                if motion.flags.contains(.timeGap) { counts["time_gap", default: 0] += 1 }
                if motion.flags.contains(.invalidInput) { counts["invalid_input", default: 0] += 1 }
                last = motion
            }
            samples += chunk.count
            if interrupt.isSet {
                output?.abandon()
                let written = out.map { output?.mode == .atomic ? "\($0) was not written" : "\($0) is incomplete" } ?? "output incomplete"
                StandardError.write("poise fuse: \(interrupt.verb) after \(samples) samples; \(written)\n")
                throw ExitCode(interrupt.exitCode)
            }
            chunk.removeAll(keepingCapacity: true)
            try reader.read(into: &chunk, maximumCount: 4096)
        }
        do { try output?.finish() } catch let error as RecordingError {
            throw CommandError(error.description)
        }
        if json, let m = last {
            let object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue, "frame": frame.rawValue,
                "reference": configuration.reference.rawValue, "samples": samples,
                "sample_rate_hz": configuration.sampleRate,
                "final_quaternion_wxyz": [m.attitude.w, m.attitude.x, m.attitude.y, m.attitude.z],
                "final_bias_radps": [m.bias.x, m.bias.y, m.bias.z],
                "final_heading_deg": m.heading.map { $0 as Any } ?? NSNull(),
                "flag_counts": counts,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            let summary = String(decoding: data, as: UTF8.self)
            if output?.mode == .standardOutput { StandardError.write(summary + "\n") } else { print(summary) }
        }
    }
}
