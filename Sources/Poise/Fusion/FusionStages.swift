/// Pipeline stages for gravity separation and device-motion fusion (`gravity`, `fusion`).

/// A pipeline stage running ``DeviceMotionEstimator`` on each sample.
///
/// Writes `ProcessedSample.attitude` (device → earth, in the configuration's earth frame, ENU by
/// default), `gravity` (unit vector in g, device frame), `userAcceleration` (total − gravity, g,
/// device frame), `rotationRate` (rad/s with the estimated gyro bias removed) and `fusion` (bias,
/// heading, flags). It reads the stage's input acceleration (g, specific force),
/// rotation rate (rad/s) and, in 9D, the magnetic field (µT), and uses the real time between
/// samples. It is not a filtering stage (no latency or jitter is measured for it): fusion trusts
/// the gyroscope, so a step in acceleration alone is, by design, followed only slowly.
public struct DeviceMotionStage: PipelineStage {
    /// 6D (accelerometer + gyroscope, heading arbitrary) or 9D (with magnetometer).
    public let nineAxis: Bool
    @usableFromInline var estimator: DeviceMotionEstimator

    /// Creates the stage for samples arriving at `sampleRate` Hz with the default configuration
    /// (9D: heading to magnetic north; 6D: heading arbitrary; earth frame ENU).
    public init(nineAxis: Bool, sampleRate: Double) {
        var configuration = DeviceMotionConfiguration()
        configuration.sampleRate = sampleRate
        configuration.reference = nineAxis ? .magneticNorthZVertical : .arbitraryZVertical
        self.init(configuration: configuration)
    }

    /// Creates the stage with a full configuration (rate, reference, earth frame, time constants);
    /// it is 9D when the reference uses the magnetometer.
    public init(configuration: DeviceMotionConfiguration) {
        nineAxis = configuration.reference.usesMagnetometer
        estimator = DeviceMotionEstimator(configuration: configuration)
    }

    /// The estimator's configuration.
    public var configuration: DeviceMotionConfiguration { estimator.configuration }

    public var description: String { nineAxis ? "fusion:9d" : "fusion:6d" }
    public var outputs: StageOutputs { [.attitude, .gravity, .rotation, .fusion] }
    public var measuredSignal: StageSignal? { nil }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        let motion = estimator.process(time: sample.time, acceleration: sample.acceleration,
                                       rotationRate: sample.rotationRate,
                                       magneticField: nineAxis ? sample.magneticField : nil)
        sample.attitude = motion.attitude
        sample.gravity = motion.gravity
        sample.userAcceleration = motion.userAcceleration
        sample.rotationRate = motion.rotationRate
        sample.fusion = FusionStatus(motion)
    }

    public mutating func reset() { estimator.reset() }
}

/// A pipeline stage separating gravity from the accelerometer alone with a low-pass filter
/// (``GravitySeparator``), for devices without a gyroscope.
///
/// Writes `gravity` (g, device frame, the low-passed acceleration) and `userAcceleration`
/// (acceleration − gravity, g). Its measured signal is the gravity estimate, so reports show how
/// fast it follows a tilt and how steady it is at rest: the cutoff trades one for the other
/// (docs/fusion.md).
public struct GravityStage: PipelineStage {
    /// Low-pass cutoff in Hz.
    public let cutoffFrequency: Double
    @usableFromInline var separator: GravitySeparator<OnePoleLowPass<SIMD4<Double>>>

    /// Creates the stage; `cutoffFrequency` and `sampleRate` in Hz.
    public init(cutoffFrequency: Double, sampleRate: Double) throws(FilterParameterError) {
        self.cutoffFrequency = cutoffFrequency
        separator = try GravitySeparator(cutoffFrequency: cutoffFrequency, sampleRate: sampleRate)
    }

    public var description: String { "gravity:cutoff=\(cutoffFrequency)" }
    public var outputs: StageOutputs { [.gravity] }
    public var measuredSignal: StageSignal? { .gravity }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        let separation = separator.process(time: sample.time, acceleration: sample.acceleration)
        sample.gravity = separation.gravity
        sample.userAcceleration = separation.userAcceleration
    }

    public mutating func reset() { separator.reset() }
}

extension StageCatalog {
    /// Catalog entries for `fusion[:6d|9d]` and `gravity[:cutoff=HZ]`.
    public static var fusionEntries: [Entry] {
        [
            Entry(name: "fusion", usage: "fusion[:6d|9d]",
                  summary: "device-motion fusion: attitude, gravity, user acceleration, bias-corrected rotation (9D when the recording has a magnetometer)") { stage, context in
                try stage.requireKnown(words: ["6d", "9d"])
                let words = stage.words
                guard words.count <= 1 else { throw stage.error("fusion takes one mode: 6d or 9d") }
                guard context.hasGyroscope else {
                    throw stage.missingSensor("fusion needs a gyroscope, and the recording has none; use gravity (attitude from the accelerometer alone)")
                }
                let nineAxis = words.first.map { $0 == "9d" } ?? context.hasMagnetometer
                if nineAxis && !context.hasMagnetometer {
                    throw stage.missingSensor("fusion:9d needs a magnetometer, and the recording has none; use fusion:6d")
                }
                return DeviceMotionStage(nineAxis: nineAxis, sampleRate: context.sampleRate)
            },
            Entry(name: "gravity", usage: "gravity[:cutoff=HZ]",
                  summary: "gravity from the accelerometer alone (one-pole low-pass, default 0.5 Hz)") { stage, context in
                try stage.requireKnown(keys: ["cutoff"])
                let cutoff = try stage.number("cutoff", default: 0.5, in: 1e-6 ... 1e6)
                do {
                    return try GravityStage(cutoffFrequency: cutoff, sampleRate: context.sampleRate)
                } catch {
                    throw stage.error("gravity: \(error)")
                }
            },
        ]
    }
}
