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

    @Option(help: "Write the CSV here instead of standard output.")
    var out: String?

    @Flag(help: "Also write user acceleration in the earth frame.")
    var earthUserAcceleration = false

    @Flag(help: "Print a JSON summary (samples, final attitude, bias, flag counts) instead of the CSV; with --out the CSV is still written.")
    var json = false

    func run() throws {
        let recording = try Recording.load(path: file, options: ReadOptions(appleAccelerometerSign: fusion.appleAccelerometerSign))
        if fusion.mode == .nine && !recording.schema.hasMagnetometer {
            throw ValidationError("\(file): --mode 9d needs magnetometer columns; use --mode 6d")
        }
        let configuration = try fusion.configuration(for: recording.samples, earthFrame: frame)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var text = DeviceMotionCSV.header(earthFrameUserAcceleration: earthUserAcceleration) + "\n"
        var last: DeviceMotion?
        var counts = [String: Int]()
        for sample in recording.samples {
            let motion = estimator.process(sample)
            DeviceMotionCSV.appendRow(motion, earthFrameUserAcceleration: earthUserAcceleration, to: &text)
            if motion.flags.contains(.atRest) { counts["at_rest", default: 0] += 1 }
            if motion.flags.contains(.magneticDisturbance) { counts["mag_disturbance", default: 0] += 1 }
            if motion.flags.contains(.timeGap) { counts["time_gap", default: 0] += 1 }
            if motion.flags.contains(.invalidInput) { counts["invalid_input", default: 0] += 1 }
            last = motion
        }
        if let out {
            do { try text.write(toFile: out, atomically: true, encoding: .utf8) } catch {
                throw ValidationError("cannot write \(out): \(error.localizedDescription)")
            }
        } else if !json {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if json, let m = last {
            let object: [String: Any] = [
                "file": file, "mode": fusion.mode.rawValue, "frame": frame.rawValue,
                "reference": configuration.reference.rawValue, "samples": recording.samples.count,
                "sample_rate_hz": configuration.sampleRate,
                "final_quaternion_wxyz": [m.attitude.w, m.attitude.x, m.attitude.y, m.attitude.z],
                "final_bias_radps": [m.bias.x, m.bias.y, m.bias.z],
                "final_heading_deg": m.heading.map { $0 as Any } ?? NSNull(),
                "flag_counts": counts,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
