import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// Options shared by `fuse` and `evaluate`.
struct FusionOptions: ParsableArguments {
    @Option(help: "6d (accelerometer + gyroscope) or 9d (with magnetometer).")
    var mode: FusionMode = .nine

    @Option(help: "Heading reference for 9d: arbitrary-corrected, magnetic-north, true-north.")
    var reference: AttitudeReference?

    @Option(parsing: .unconditional, help: "Magnetic declination in degrees, east positive (true-north reference).")
    var declination: Double = 0

    @Option(parsing: .unconditional, help: "Nominal sample rate in Hz (default: the median timestamp step of the file); for a file without a time column, row n is timed n / rate.")
    var sampleRate: Double?

    @OptionGroup var time: TimeUnitOption

    func validate() throws {
        try OptionRange("--declination", -180, 180, unit: "degrees").check(declination)
        try OptionRange.sampleRate("--sample-rate").check(sampleRate)
    }

    /// How fuse and evaluate read the recording.
    var readOptions: ReadOptions {
        time.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign, sampleRate: sampleRate))
    }

    /// The sensors the mode fuses: accelerometer and gyroscope, and in 9d the magnetometer.
    var sensors: [Sensor] { mode == .nine ? [.accelerometer, .gyroscope, .magnetometer] : [.accelerometer, .gyroscope] }

    @Flag(help: "The file's accelerometer uses Apple's sign (−1 g on the up axis at rest).")
    var appleAccelerometerSign = false

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override one fusion setting, NAME=VALUE (a DeviceMotionConfiguration property, e.g. magnetometerTimeConstant=9). Repeatable.",
        valueName: "name=value"))
    var settings: [String] = []

    func configuration(for samples: [MotionSample], earthFrame: EarthFrame = .eastNorthUp) throws -> DeviceMotionConfiguration {
        let rate = sampleRate ?? DeviceMotionConfiguration.estimatedSampleRate(of: samples) ?? 100
        guard rate.isFinite, rate > 0 else { throw ValidationError("--sample-rate must be a positive number of Hz") }
        var c = DeviceMotionConfiguration(sampleRate: rate)
        c.earthFrame = earthFrame
        c.declination = declination
        c = try Self.applying(settings, to: c)
        switch mode {
        case .six:
            if let r = reference, r != .arbitraryZVertical { throw ValidationError("--reference \(r.rawValue) needs --mode 9d") }
            c.reference = .arbitraryZVertical
        case .nine:
            c.reference = reference ?? .magneticNorthZVertical
            if c.reference == .arbitraryZVertical { throw ValidationError("--reference arbitrary is the 6d mode") }
        }
        return c
    }
}

extension FusionOptions {
    /// Applies NAME=VALUE overrides through the configuration's Codable form, so every
    /// documented setting can be changed without a dedicated flag.
    static func applying(_ settings: [String], to configuration: DeviceMotionConfiguration) throws -> DeviceMotionConfiguration {
        guard !settings.isEmpty else { return configuration }
        let data = try JSONEncoder().encode(configuration)
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return configuration }
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let old = object[parts[0]] else {
                let names = object.keys.sorted().joined(separator: ", ")
                throw ValidationError("--set \(setting): expected NAME=VALUE with NAME one of: \(names)")
            }
            if old is String {
                object[parts[0]] = parts[1]
            } else if parts[1] == "true" || parts[1] == "false" {
                object[parts[0]] = parts[1] == "true"
            } else if let v = Double(parts[1]) {
                object[parts[0]] = v
            } else {
                throw ValidationError("--set \(setting): '\(parts[1])' is not a number")
            }
        }
        do {
            return try JSONDecoder().decode(DeviceMotionConfiguration.self, from: JSONSerialization.data(withJSONObject: object))
        } catch {
            throw ValidationError("--set: \(error)")
        }
    }
}

enum FusionMode: String, ExpressibleByArgument, CaseIterable {
    case six = "6d", nine = "9d"
}

extension AttitudeReference: ExpressibleByArgument {}
extension EarthFrame: ExpressibleByArgument {}

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
        var estimator = DeviceMotionEstimator(configuration: configuration)
        let error = estimator.evaluate(recording.samples)
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
