/// Settings of `DeviceMotionEstimator`, in user units, with documented defaults.
///
/// The algorithm is VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU orientation estimation
/// with bias estimation and magnetic disturbance rejection", Information Fusion 91, 2023,
/// doi:10.1016/j.inffus.2022.10.014); the defaults are VQF's, converted to Poise's units
/// (acceleration in g). Everything derived from these (filter coefficients, gains) is computed
/// once when the estimator is created. The settings do not depend on the sample rate except
/// `sampleRate` itself.
public struct DeviceMotionConfiguration: Sendable, Codable, Equatable {
    /// Nominal sample rate in Hz (> 0). Filter coefficients are designed for it; the gyroscope
    /// is integrated with the real per-sample time step. Default 100.
    public var sampleRate: Double = 100
    /// Earth frame of the outputs. Default `.eastNorthUp`.
    public var earthFrame: EarthFrame = .eastNorthUp
    /// Heading reference (and with it 6D or 9D). Default `.magneticNorthZVertical` (9D).
    public var reference: AttitudeReference = .magneticNorthZVertical
    /// Magnetic declination in degrees, east positive; used by `.trueNorthZVertical`. Default 0.
    public var declination: Double = 0

    /// Time constant of the accelerometer (inclination) correction in seconds. Default 3.
    public var accelerometerTimeConstant: Double = 3
    /// Time constant of the magnetometer (heading) correction in seconds. Default 9.
    public var magnetometerTimeConstant: Double = 9

    /// Estimate the gyroscope bias while the device moves. Default true.
    public var motionBiasEstimation: Bool = true
    /// Estimate the gyroscope bias while the device rests. Default true.
    public var restBiasEstimation: Bool = true
    /// Detect and reject magnetic disturbances. Default true.
    public var magneticDisturbanceRejection: Bool = true

    /// Initial standard deviation of the bias estimate, °/s. Default 0.5.
    public var biasSigmaInitial: Double = 0.5
    /// Time in seconds after which the bias uncertainty grows by 0.1 °/s without updates. Default 100.
    public var biasForgettingTime: Double = 100
    /// Largest bias magnitude per axis, °/s (estimates are clipped to it). Default 2.
    public var biasClip: Double = 2
    /// Standard deviation of the in-motion bias measurement, °/s. Default 0.1.
    public var biasSigmaMotion: Double = 0.1
    /// Forgetting factor of the vertical bias component in motion (unobservable without a
    /// magnetometer): the vertical measurement is this many times less trusted, inverted. Default 1e-4.
    public var biasVerticalForgettingFactor: Double = 0.0001
    /// Standard deviation of the at-rest bias measurement, °/s. Default 0.01 (VQF: 0.03): the
    /// rest measurement is the gyroscope low-passed with `restFilterTimeConstant`; for a MEMS
    /// gyroscope with 0.1 °/s noise per sample at 285 Hz (BROAD's, ≈ 0.008 °/s/√Hz) its noise is
    /// ≈ 0.006 °/s, so 0.01 °/s lets rest phases calibrate the bias faster. See docs/fusion.md.
    public var biasSigmaRest: Double = 0.01

    /// Time the device must be still before rest is declared, s. Default 1.0 (VQF: 1.5): two
    /// rest-filter time constants, after which the rest low-pass has settled (its step response
    /// is within 1 % after ≈ 2τ); short pauses between movements then count. See docs/fusion.md.
    public var restMinimumTime: Double = 1.0
    /// Time constant of the rest-detection low-pass filters, s. Default 0.5.
    public var restFilterTimeConstant: Double = 0.5
    /// Rest threshold on the gyroscope deviation from its low-passed value, °/s. Default 2.
    public var restGyroscopeThreshold: Double = 2
    /// Rest threshold on the accelerometer deviation from its low-passed value, g.
    /// Default 0.5 m/s² = 0.0509858 g.
    public var restAccelerometerThreshold: Double = 0.5 / 9.80665

    /// Time constant of the current field norm/dip low-pass, s. Default 0.05.
    public var magneticCurrentTimeConstant: Double = 0.05
    /// Time constant of the reference field norm/dip adaptation, s. Default 20.
    public var magneticReferenceTimeConstant: Double = 20
    /// Relative field-norm threshold for a disturbance (0.1 = 10 %). Default 0.1.
    public var magneticNormThreshold: Double = 0.1
    /// Dip-angle threshold for a disturbance, degrees. Default 10.
    public var magneticDipThreshold: Double = 10
    /// Time a new, steady field must be seen (while turning) before it is accepted, s. Default 20.
    public var magneticNewFieldTime: Double = 20
    /// Same for the very first field, s. Default 5.
    public var magneticNewFirstFieldTime: Double = 5
    /// Minimum rotation rate for that new-field time to count, °/s. Default 20.
    public var magneticNewFieldMinimumRate: Double = 20
    /// Undisturbed time before the field counts as undisturbed again, s. Default 0.5.
    public var magneticMinimumUndisturbedTime: Double = 0.5
    /// Longest time the magnetometer is ignored during a disturbance, s. Default 60.
    public var magneticMaximumRejectionTime: Double = 60
    /// Gain reduction once the rejection time is used up (and its recovery speed). Default 2.
    public var magneticRejectionFactor: Double = 2

    /// Estimate a magnetometer offset that moves with the device (hard iron, e.g. a magnet
    /// fixed to it) from the recent readings, and remove it while it explains a field the
    /// disturbance tests would reject. Default true. At each correction step the magnetometer
    /// reading of that step joins an exponentially weighted sphere fit (time constant
    /// `magneticOffsetTimeConstant`; |m − h|² = r² in the device frame, h the offset); the fitted
    /// offset h is subtracted from the readings that follow when (1) the readings cover the
    /// sphere (`magneticOffsetMinimumCoverage`), (2) they lie on it (`magneticOffsetMaximumResidual`),
    /// (3) its radius r passes the disturbance norm test (within `magneticNormThreshold` of the
    /// reference field norm, when one has been accepted), and (4) |h| is at least
    /// `magneticNormThreshold` × r, or the readings' relative misfit is less than
    /// `magneticSmallOffsetMaximumResidual`; otherwise nothing is subtracted. Only
    /// with a magnetometer and `magneticDisturbanceRejection`. `vqfDefaults` turns it off.
    public var magneticOffsetEstimation: Bool = true
    /// Time constant of the sphere fit's exponential weighting, s. Default 5.
    public var magneticOffsetTimeConstant: Double = 5
    /// Smallest spread of the fitted readings, as the standard deviation along their least
    /// spread direction divided by the fitted radius (0.577 for readings all over the sphere,
    /// 0 for turns about one axis only). Default 0.2 (with the 0.02 residual below: chosen on BROAD
    /// among the settings no worse than without the offset estimation on the simulated sensor
    /// matrix; research/fusion-9d-rules.md).
    public var magneticOffsetMinimumCoverage: Double = 0.2
    /// Largest RMS misfit of the readings to the sphere, relative: RMS(|m − h|² − r²) / (2r²)
    /// (about the RMS relative norm error). Default 0.02: with 0.03 the fit accepted a field
    /// that changed while a tumbling device passed an earth-fixed disturbance (1° worse there on
    /// the simulated sensor matrix than without the estimation); with 0.02 no matrix cell is
    /// worse (research/fusion-9d-rules.md).
    public var magneticOffsetMaximumResidual: Double = 0.02
    /// Relative misfit (as `magneticOffsetMaximumResidual`) below which an offset smaller than
    /// `magneticNormThreshold` × the radius is subtracted; 0 leaves every smaller offset to the
    /// disturbance tests. Such an offset (the residual hard iron of a calibrated
    /// magnetometer: 2 µT of a 20-µT horizontal field turns the heading by up to 6°) passes
    /// the disturbance tests, so they cannot catch it if it is wrong: it must fit more tightly.
    /// Default 0.01, by the protocol of docs/fusion.md: no BROAD trial changes, and on the
    /// simulated sensor matrix 9D is lower in 13 of 57 cells online and 15 offline, higher in
    /// none; larger values also lower BROAD's mean but raise a BROAD category offline
    /// (research/fusion-small-offset.md). Not in the C configuration (`poise_fusion_config`),
    /// which uses this default.
    public var magneticSmallOffsetMaximumResidual: Double = 0.01

    /// Field-direction consistency test (9D), degrees; 0 turns it off. Default 4 (VQF: none).
    /// The gyroscope carries the earth frame between correction steps, so in a steady field the
    /// magnetometer's heading disagreement (the heading of the field in the 6D earth frame less
    /// `headingCorrection`) changes only as slowly as the gyroscope drifts and the heading
    /// correction moves it; a field bent by a magnet the device passes, or a heading seen
    /// through a passing inclination error, moves it by degrees within a second, while the
    /// field's norm and dip may stay within the disturbance thresholds. At a correction step
    /// whose disagreement differs by more than this from its low-pass (time constant
    /// `magneticDirectionTimeConstant`), the heading correction is made with its gain times
    /// `magneticDirectionGainFactor`. Not during the initial convergence (the first
    /// `magnetometerTimeConstant` seconds). Only with a magnetometer and
    /// `magneticDisturbanceRejection`; `vqfDefaults` turns it off. Chosen on the 15 BROAD trials
    /// by cross-validation (research/fusion-tuning.md, "Field direction").
    public var magneticDirectionThreshold: Double = 4
    /// Time constant of the heading disagreement's low-pass for that test, s. Default 2.
    public var magneticDirectionTimeConstant: Double = 2
    /// The fraction of the heading correction's gain used at a step that fails that test
    /// (0: no correction at that step). Default 0.25.
    public var magneticDirectionGainFactor: Double = 0.25

    /// A magnetometer sample exactly equal to the previous one is a held value (the
    /// magnetometer is slower than the other sensors) and is not applied again. Default false:
    /// on the BROAD trials re-applying held samples is slightly more accurate (docs/fusion.md).
    public var skipHeldMagnetometerSamples: Bool = false

    /// Accelerometer samples whose magnitude differs from 1 g by more than this (g) are
    /// flagged `accelerationRejected` and left out of the inclination correction; 0 disables
    /// the test. Default 0 (off): the earth-frame low-pass already averages accelerations out,
    /// and skipping only the large ones biases that average (docs/fusion.md).
    public var accelerationRejectionThreshold: Double = 0
    /// Longest time step integrated, s: a larger gap between timestamps is integrated as this
    /// step (the rotation during a gap is unknown) and flagged `timeGap`. Default 0.1.
    public var maximumTimeStep: Double = 0.1

    /// Integrate every sample over the nominal period 1 / `sampleRate`, whatever its timestamp,
    /// as VQF does with its fixed sample time Ts: jittered steps, a repeated or backward
    /// timestamp and a gap all integrate the period (still flagged `timeNotIncreasing` or
    /// `timeGap`), and every magnetometer sample covers the period. Default false: Poise
    /// integrates each sample's real time step (see `maximumTimeStep`), which follows a sensor
    /// whose rate drifts or whose rows are dropped. `vqfDefaults` turns it on.
    public var fixedTimeStep: Bool = false

    /// Rate of the correction step in Hz: the inclination correction, the bias Kalman filter
    /// and the magnetometer update run every ⌊sampleRate / correctionRate⌋ samples (with
    /// gains and filters designed for that period; the low-pass filters run on the block
    /// means), while the gyroscope integration, the rest test and the sums of the
    /// accelerometer and magnetometer in the gyroscope earth frame run on every sample.
    /// 0 (or a rate ≥ `sampleRate`) corrects on every sample, exactly like VQF.
    /// Default 10 Hz: on the 15 BROAD trials (research/fusion-tuning.md, "Default schedule") the most
    /// accurate schedule by the cross-validation's score (chosen in 4 of 5 folds), within 1 % of
    /// every-sample correction in 9D, 6D and inclination, at about a fifth of its cost per
    /// update. `fast` (5 Hz) is cheaper still. What a lower rate costs: a magnetic disturbance is
    /// flagged up to one correction period (0.1 s) late, and corrections land in steps of one
    /// period.
    public var correctionRate: Double = 10

    /// Output prediction, s (≥ 0): the attitude outputs (`attitude6D`, `attitude`, and what is
    /// computed from them: gravity, user acceleration, heading, Euler angles, the evaluation
    /// against a truth) are the estimate carried this far past the last sample's timestamp with
    /// its bias-corrected rotation rate, q ⊗ exp(ω·τ/2) (device frame). It compensates a sensor
    /// whose samples lag their timestamps, as a MEMS gyroscope's internal low-pass delays its
    /// rate by a few milliseconds; the estimator's own state is not affected. Default 0 (the
    /// attitude at the sample's timestamp, as VQF): a delay is a property of one sensor (and of
    /// the truth it is scored against), not of sensors in general. On the BROAD trials 2.5 ms
    /// matches the optical truth best; on simulated sensors without a delay any prediction is
    /// worse (docs/fusion.md, "Output prediction"). On a sensor without a delay a prediction τ
    /// leads by |ω|·τ (0.25° at 100 °/s for 2.5 ms).
    public var outputPrediction: Double = 0

    /// What a sample flagged `gyroscopeSaturated` does, s (≥ 0; 0: saturation does not change
    /// the estimation): the in-motion bias measurement is left out for this long after it, and
    /// the inclination low-pass (with the bias measurement's) restarts, as at the first sample,
    /// from the mean of the samples that follow, and the field-direction test
    /// (`magneticDirectionThreshold`) is paused for this long (magnetometer time). A clipped rate
    /// turns the gyroscope's earth frame away from the accelerometer's up and from magnetic
    /// north; the running low-pass would take a few `accelerometerTimeConstant`s to follow, the
    /// bias filter would read that correction as a bias (up to `biasClip`), and the
    /// field-direction test would take the heading's jump for a disturbance and slow its
    /// correction. Default 9 (three accelerometer time constants).
    /// `vqfDefaults` sets 0.
    public var saturationBiasHoldOff: Double = 9

    /// The defaults (9D, magnetic north, ENU, 100 Hz).
    public init() {}

    /// VQF's published defaults (`VQFParams` of vqf 2.1.2), which differ from Poise's in
    /// `biasSigmaRest` (0.03) and `restMinimumTime` (1.5 s), and that correct on every sample
    /// (`correctionRate` 0) with VQF's fixed sample time (`fixedTimeStep`: every sample
    /// integrates 1 / `sampleRate`, whatever the timestamps), without Poise's additions
    /// (`magneticOffsetEstimation` false, `magneticDirectionThreshold` 0, `saturationBiasHoldOff`
    /// 0, `outputPrediction` 0, as the defaults).
    /// With them the outputs equal the reference implementation's (the `vqf` package with
    /// gyrTs = 1 / `sampleRate`) on any timestamps: jittered, repeated, with gaps.
    public static func vqfDefaults(sampleRate: Double, reference: AttitudeReference = .magneticNorthZVertical) -> DeviceMotionConfiguration {
        var c = DeviceMotionConfiguration(sampleRate: sampleRate, reference: reference)
        c.biasSigmaRest = 0.03
        c.restMinimumTime = 1.5
        c.correctionRate = 0
        c.magneticOffsetEstimation = false
        c.magneticDirectionThreshold = 0
        c.outputPrediction = 0
        c.fixedTimeStep = true
        c.saturationBiasHoldOff = 0
        return c
    }

    /// The speed preset: corrections at 5 Hz (`correctionRate`), `biasSigmaRest` 0.01 °/s and
    /// `restMinimumTime` 1.0 s, with the magnetometer offset estimation and the field-direction
    /// test, whatever the defaults become. The cheapest update (≈ 30 ns for 9D, docs/fusion.md
    /// "Cost"); its accuracy against the defaults' (10 Hz) on BROAD is in docs/fusion.md
    /// ("Default schedule").
    public static func fast(sampleRate: Double, reference: AttitudeReference = .magneticNorthZVertical,
                            earthFrame: EarthFrame = .eastNorthUp) -> DeviceMotionConfiguration {
        var c = DeviceMotionConfiguration(sampleRate: sampleRate, reference: reference, earthFrame: earthFrame)
        c.biasSigmaRest = 0.01
        c.restMinimumTime = 1.0
        c.correctionRate = 5
        return c
    }

    /// The defaults at `sampleRate` Hz with the given reference and earth frame.
    public init(sampleRate: Double, reference: AttitudeReference = .magneticNorthZVertical,
                earthFrame: EarthFrame = .eastNorthUp) {
        self.sampleRate = sampleRate; self.reference = reference; self.earthFrame = earthFrame
    }
}

extension DeviceMotionConfiguration {
    /// Decodes a configuration; every key is optional and a missing one takes its documented
    /// default, so configurations saved before a setting existed (e.g. before
    /// `correctionRate`) still decode. A present key with a wrong type is still an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var configuration = DeviceMotionConfiguration()
        func read<Value: Decodable>(_ key: CodingKeys, _ path: WritableKeyPath<DeviceMotionConfiguration, Value>) throws {
            if let value = try container.decodeIfPresent(Value.self, forKey: key) { configuration[keyPath: path] = value }
        }
        try read(.sampleRate, \.sampleRate)
        try read(.earthFrame, \.earthFrame)
        try read(.reference, \.reference)
        try read(.declination, \.declination)
        try read(.accelerometerTimeConstant, \.accelerometerTimeConstant)
        try read(.magnetometerTimeConstant, \.magnetometerTimeConstant)
        try read(.motionBiasEstimation, \.motionBiasEstimation)
        try read(.restBiasEstimation, \.restBiasEstimation)
        try read(.magneticDisturbanceRejection, \.magneticDisturbanceRejection)
        try read(.biasSigmaInitial, \.biasSigmaInitial)
        try read(.biasForgettingTime, \.biasForgettingTime)
        try read(.biasClip, \.biasClip)
        try read(.biasSigmaMotion, \.biasSigmaMotion)
        try read(.biasVerticalForgettingFactor, \.biasVerticalForgettingFactor)
        try read(.biasSigmaRest, \.biasSigmaRest)
        try read(.restMinimumTime, \.restMinimumTime)
        try read(.restFilterTimeConstant, \.restFilterTimeConstant)
        try read(.restGyroscopeThreshold, \.restGyroscopeThreshold)
        try read(.restAccelerometerThreshold, \.restAccelerometerThreshold)
        try read(.magneticCurrentTimeConstant, \.magneticCurrentTimeConstant)
        try read(.magneticReferenceTimeConstant, \.magneticReferenceTimeConstant)
        try read(.magneticNormThreshold, \.magneticNormThreshold)
        try read(.magneticDipThreshold, \.magneticDipThreshold)
        try read(.magneticNewFieldTime, \.magneticNewFieldTime)
        try read(.magneticNewFirstFieldTime, \.magneticNewFirstFieldTime)
        try read(.magneticNewFieldMinimumRate, \.magneticNewFieldMinimumRate)
        try read(.magneticMinimumUndisturbedTime, \.magneticMinimumUndisturbedTime)
        try read(.magneticMaximumRejectionTime, \.magneticMaximumRejectionTime)
        try read(.magneticRejectionFactor, \.magneticRejectionFactor)
        try read(.magneticOffsetEstimation, \.magneticOffsetEstimation)
        try read(.magneticOffsetTimeConstant, \.magneticOffsetTimeConstant)
        try read(.magneticOffsetMinimumCoverage, \.magneticOffsetMinimumCoverage)
        try read(.magneticOffsetMaximumResidual, \.magneticOffsetMaximumResidual)
        try read(.magneticSmallOffsetMaximumResidual, \.magneticSmallOffsetMaximumResidual)
        try read(.magneticDirectionThreshold, \.magneticDirectionThreshold)
        try read(.magneticDirectionTimeConstant, \.magneticDirectionTimeConstant)
        try read(.magneticDirectionGainFactor, \.magneticDirectionGainFactor)
        try read(.skipHeldMagnetometerSamples, \.skipHeldMagnetometerSamples)
        try read(.accelerationRejectionThreshold, \.accelerationRejectionThreshold)
        try read(.maximumTimeStep, \.maximumTimeStep)
        try read(.fixedTimeStep, \.fixedTimeStep)
        try read(.correctionRate, \.correctionRate)
        try read(.outputPrediction, \.outputPrediction)
        try read(.saturationBiasHoldOff, \.saturationBiasHoldOff)
        self = configuration
    }
}
