import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// Options shared by `fuse` and `evaluate`.
struct FusionOptions: ParsableArguments {
    @Option(help: "6d (accelerometer + gyroscope) or 9d (with magnetometer).")
    var mode: FusionMode = .nine

    @Option(help: "Heading reference for 9d: arbitrary-corrected, magnetic-north, true-north.")
    var reference: AttitudeReference?

    @Option(parsing: .unconditional, help: "Magnetic declination in degrees, east positive (true-north reference).")
    var declination: Double = 0

    @Option(parsing: .unconditional, help: "Nominal sample rate in Hz (default: the recording's rate, the median interval of its first 2048 rows, as every command finds it); for a file without a time column, row n is timed n / rate.")
    var sampleRate: Double?

    @OptionGroup var reading: ReadingOptions

    @Option(help: ArgumentHelp("Apply this sensor calibration (made by poise calibrate) to the samples before fusion.", valueName: "cal.json"))
    var calibration: String?

    func validate() throws {
        try OptionRange("--declination", -180, 180, unit: "degrees").check(declination)
        try OptionRange.sampleRate("--sample-rate").check(sampleRate)
    }

    /// How fuse and evaluate read the recording.
    var readOptions: ReadOptions {
        reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign, sampleRate: sampleRate))
    }

    /// The sensors the mode fuses: accelerometer and gyroscope, and in 9d the magnetometer.
    var sensors: [Sensor] { mode == .nine ? [.accelerometer, .gyroscope, .magnetometer] : [.accelerometer, .gyroscope] }

    @Flag(help: "The file's accelerometer uses Apple's sign (−1 g on the up axis at rest).")
    var appleAccelerometerSign = false

    @Option(help: "Starting settings: default (corrections at 10 Hz; with --offline: the smoother's, magnetometerTimeConstant 20 s), fast (corrections at 5 Hz; DeviceMotionConfiguration.fast) or vqf (VQF's published defaults, every sample, its fixed time step 1/rate whatever the timestamps, no magnetometer offset estimation; equals the vqf package's VQF, and with --offline its offlineVQF). --set changes them further.")
    var preset: FusionPreset = .default

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override one fusion setting, NAME=VALUE (a DeviceMotionConfiguration property, e.g. magnetometerTimeConstant=9). Repeatable.",
        valueName: "name=value"))
    var settings: [String] = []

    @Flag(help: "Offline: use the whole recording (forward and backward passes, DeviceMotionSmoother) instead of the causal estimate; --set also takes the smoother's settings (DeviceMotionSmoother.Options: carryBias, carryAttitude, carryHeading, carryMagneticReference, disturbanceWeightTime, restWeightTime, convergenceWeightTime, inclinationLowPassTime, headingLowPassTime, biasCovarianceWeighting, magneticDisturbanceSpans, magneticDisturbanceMaximumRestShare, magneticDisturbanceMinimumSpanTime, gyroscopeSelfCalibration, gyroscopeMaximumMisalignment, smoothedBias); the JSON summary reports the gyroscope calibration it fitted.")
    var offline = false

    /// The smoother's settings: its defaults changed by the `--set` names that are its own.
    func smootherOptions() throws -> DeviceMotionSmoother.Options {
        try Self.applying(settings.filter { Self.isSmootherSetting($0) }, to: DeviceMotionSmoother.Options())
    }

    /// Whether `setting` (NAME=VALUE) names a `DeviceMotionSmoother.Options` property.
    static func isSmootherSetting(_ setting: String) -> Bool {
        let name = String(setting.prefix { $0 != "=" })
        return DeviceMotionSmoother.Options.names.contains(name)
    }

    func configuration(for samples: [MotionSample], earthFrame: EarthFrame = .eastNorthUp) throws -> DeviceMotionConfiguration {
        try configuration(medianRate: DeviceMotionConfiguration.estimatedSampleRate(of: samples), earthFrame: earthFrame)
    }

    /// The configuration for a recording whose rate (`nominalSampleRate`) is `medianRate` Hz (`--sample-rate`
    /// wins; 100 Hz when neither is known).
    func configuration(medianRate: Double?, earthFrame: EarthFrame = .eastNorthUp) throws -> DeviceMotionConfiguration {
        let rate = sampleRate ?? medianRate ?? 100
        guard rate.isFinite, rate > 0 else { throw ValidationError("--sample-rate must be a positive number of Hz") }
        var c: DeviceMotionConfiguration
        switch preset {
        case .default: c = offline ? DeviceMotionSmoother.defaultConfiguration(sampleRate: rate) : DeviceMotionConfiguration(sampleRate: rate)
        case .fast: c = .fast(sampleRate: rate)
        case .vqf: c = .vqfDefaults(sampleRate: rate)
        }
        c.earthFrame = earthFrame
        c.declination = declination
        c = try Self.applying(offline ? settings.filter { !Self.isSmootherSetting($0) } : settings, to: c)
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
    /// The stages that run before fusion: the `--calibration` stage, if any.
    ///
    /// - Throws: `CommandError` for an unreadable or invalid calibration file, or one whose
    ///   magnetometer unit (µT or arbitrary) differs from the recording's.
    func calibrationStages(schema: RecordingSchema) throws -> [any PipelineStage] {
        guard let calibration else { return [] }
        let loaded = try CalibrationText.checked("--calibration") { () throws(CalibrationError) in try SensorCalibration(contentsOf: calibration) }
        if loaded.magnetometer != nil, schema.hasMagnetometer, (loaded.magnetometerUnit == "au") != schema.magneticFieldIsArbitrary {
            throw CommandError("--calibration: \(calibration) calibrates a magnetometer in \(loaded.magnetometerUnit == "au" ? "arbitrary units" : "µT"), but the recording's is in \(schema.magneticFieldIsArbitrary ? "arbitrary units" : "µT")")
        }
        return [CalibrationStage(calibration: loaded, hasGyroscope: schema.hasGyroscope, description: "calibrate:file=\(calibration)")]
    }

    /// The JSON summary's "gyroscope_calibration" of an offline run: whether the fit was
    /// accepted, the matrix C applied to the bias-free rate (rows; identity when refused), the
    /// fitted one, the bias (rad/s), anchors and pairs; null when the fit is off.
    static func summary(_ calibration: GyroscopeSelfCalibration?) -> Any {
        guard let c = calibration else { return NSNull() }
        func rows(_ m: Matrix3) -> [[Double]] { [m.r0, m.r1, m.r2].map { [$0.x, $0.y, $0.z] } }
        return ["accepted": c.accepted, "matrix": rows(c.matrix), "fitted_matrix": rows(c.fittedMatrix),
                "bias_radps": [c.bias.x, c.bias.y, c.bias.z], "anchors": c.anchors, "pairs": c.pairs] as [String: Any]
    }

    /// The offline fusion of these options (`--offline`) for `configuration`.
    func offlineFusion(_ configuration: DeviceMotionConfiguration) throws -> OfflineFusion {
        OfflineFusion(configuration: configuration, options: try smootherOptions(), exactVQF: preset == .vqf)
    }

    /// Applies NAME=VALUE overrides through the configuration's Codable form, so every
    /// documented setting can be changed without a dedicated flag.
    static func applying<Settings: Codable>(_ settings: [String], to configuration: Settings) throws -> Settings {
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
            return try JSONDecoder().decode(Settings.self, from: JSONSerialization.data(withJSONObject: object))
        } catch {
            throw ValidationError("--set: \(error)")
        }
    }
}

/// The named starting configurations of `--preset`.
enum FusionPreset: String, ExpressibleByArgument, CaseIterable {
    case `default`, fast, vqf
}

enum FusionMode: String, ExpressibleByArgument, CaseIterable {
    case six = "6d", nine = "9d"
}

extension AttitudeReference: ExpressibleByArgument {}
extension EarthFrame: ExpressibleByArgument {}
