extension DeviceMotionEstimator {
    /// Everything the estimator remembers between samples. `Codable`: save it with the
    /// configuration and assign it to `state` of an estimator with the same configuration to
    /// resume exactly where the run stopped. Angles in radians, rates in rad/s.
    ///
    /// The internal fields change between versions of Poise; a state saved by a build with
    /// another layout fails to decode with a `DecodingError` that says so (key `layout`).
    public struct State: Sendable, Codable, Equatable {
        /// The layout of the fields below (first key of a saved state).
        @usableFromInline var layout = StateLayout()
        /// Gyroscope strapdown integration (device → gyroscope earth frame).
        public var gyroscopeAttitude = Quaternion<Double>.identity
        /// Estimated gyroscope bias, rad/s, device frame.
        public var bias = SIMD3<Double>.zero
        /// Rest detected (the bias is then updated from the mean rotation rate).
        public var restDetected = false
        /// Magnetic disturbance detected (heading correction paused or slowed).
        public var magneticDisturbanceDetected = true
        /// Flags of the last sample.
        public var flags: DeviceMotion.Flags = []
        /// Timestamp of the last sample, s.
        public var lastTime: Double?
        /// Time of the last magnetometer sample applied, s.
        public var lastMagneticTime: Double?
        /// Last inputs (for the outputs: user acceleration and corrected rotation rate).
        public var lastAcceleration = SIMD3<Double>.zero
        public var lastRotationRate = SIMD3<Double>.zero
        /// Counted samples until the next correction step (it runs when this reaches 0); an
        /// accelerometer sample arrived since the last one. The first counted sample runs a
        /// correction step (so the attitude is right from the start), then every
        /// `correctionInterval` samples.
        @usableFromInline var samplesToCorrection: Int
        @usableFromInline var pendingAccelerometer = false
        /// Last outputs of the rest low-passes (4th lane 0), and whether the gyroscope one is
        /// within `biasClip` on every axis (a rest condition).
        @usableFromInline var restGyroscopeMean = SIMD4<Double>.zero
        @usableFromInline var restAccelerometerMean = SIMD4<Double>.zero
        @usableFromInline var restGyroscopeMeanWithinClip = true
        /// Sums of the samples since the last correction step for the low-passes that run once
        /// per step on the block mean (rest gyroscope and accelerometer, and the specific force
        /// in the gyroscope earth frame); the 4th lane counts the samples (each adds 1 there).
        @usableFromInline var restGyroscopeSum = SIMD4<Double>.zero
        @usableFromInline var restAccelerometerSum = SIMD4<Double>.zero
        @usableFromInline var accelerometerEarthSum = SIMD4<Double>.zero
        @usableFromInline var restTime: Double = 0
        /// Magnetometer samples since the last correction, summed in the gyroscope earth frame
        /// (4th lane: their count), and the time they cover, s.
        @usableFromInline var magneticFieldSum = SIMD4<Double>.zero
        @usableFromInline var magneticElapsed: Double = 0
        /// Last magnetometer sample applied (kept only with `skipHeldMagnetometerSamples`, to
        /// recognise held values; nil otherwise), µT, device frame.
        public var lastMagneticField: SIMD3<Double>?

        // Fields the correction step uses (above: those every sample uses, kept together so
        // that an update touches few cache lines).
        /// Inclination correction from the gyroscope earth frame to the 6D earth frame.
        public var inclinationCorrection = Quaternion<Double>.identity
        /// Heading correction (rotation about vertical) from the 6D to the 9D earth frame, rad.
        public var headingCorrection: Double = 0
        /// Bias covariance, (0.01 °/s)².
        @usableFromInline var biasP: Matrix3
        /// Yaw offset of the arbitrary-corrected reference, rad (set at the first sample).
        public var arbitraryHeadingOffset: Double?
        @usableFromInline var accelerometerLowPass = CriticalLowPassState<SIMD4<Double>>()
        /// Low-passed specific force in the gyroscope earth frame, g.
        @usableFromInline var accelerometerMean = SIMD3<Double>.zero
        @usableFromInline var motionBiasLowPass = CriticalLowPassState<SIMD16<Double>>()
        @usableFromInline var restGyroscopeLowPass = CriticalLowPassState<SIMD4<Double>>()
        @usableFromInline var restAccelerometerLowPass = CriticalLowPassState<SIMD4<Double>>()
        @usableFromInline var magneticInitialGain: Double = 1
        @usableFromInline var magneticNormDipLowPass = CriticalLowPassState<SIMD2<Double>>()
        @usableFromInline var magneticNormDip = SIMD2<Double>.zero
        @usableFromInline var magneticReferenceNorm: Double = 0
        @usableFromInline var magneticReferenceDip: Double = 0
        @usableFromInline var magneticUndisturbedTime: Double = 0
        @usableFromInline var magneticRejectionTime: Double
        @usableFromInline var magneticCandidateNorm: Double = -1
        @usableFromInline var magneticCandidateDip: Double = 0
        @usableFromInline var magneticCandidateTime: Double = 0
        /// cos and sin of `headingCorrection` when it was `headingCacheAngle` (kept up to date
        /// by the update; recomputed when `headingCorrection` is changed from outside).
        @usableFromInline var headingCosine: Double = 1
        @usableFromInline var headingSine: Double = 0
        @usableFromInline var headingCacheAngle: Double = 0
        /// An inclination correction has been made.
        @usableFromInline var inclinationAligned = false

        @usableFromInline init(configuration: DeviceMotionConfiguration, coefficients: Coefficients) {
            biasP = .scaledIdentity(coefficients.biasP0)
            samplesToCorrection = 1
            magneticRejectionTime = configuration.magneticMaximumRejectionTime
        }
    }

    /// The version of `State`'s stored fields. Bump `current` whenever a stored field of
    /// `State` is added, removed, renamed or changes meaning (`DeviceMotionEstimatorTests`
    /// fails when the saved keys change without it).
    @usableFromInline
    struct StateLayout: Sendable, Codable, Equatable {
        /// 2: the per-schedule update (rest sums, SIMD4 means, clip flag).
        /// 3: the block sums count their samples in their 4th lane (no separate counts); a
        ///    countdown to the correction step (`samplesToCorrection`) replaces its count.
        @usableFromInline static let current = 3
        @usableFromInline let version: Int

        @usableFromInline init() { version = Self.current }

        @usableFromInline init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let version = try container.decode(Int.self)
            guard version == Self.current else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription:
                    "a DeviceMotionEstimator.State saved with state layout \(version); this build of Poise reads layout \(Self.current) only (start a new estimator instead)")
            }
            self.version = version
        }

        @usableFromInline func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(version)
        }
    }

    /// Values derived once from the configuration.
    @usableFromInline
    struct Coefficients: Sendable {
        // The ones every sample uses first (few cache lines per update).
        /// Samples per correction step (its period and the inverses further down).
        @usableFromInline var correctionInterval: Int
        /// The sample period, s.
        @usableFromInline var period: Double
        /// 0.1 % of the period, s: steps this close to it count as the period.
        @usableFromInline var periodTolerance: Double
        /// Steps in [nominalStepMinimum, nominalStepMaximum] are the period (period ∓ 0.1 %,
        /// the upper end at most `maximumTimeStep`).
        @usableFromInline var nominalStepMinimum: Double
        @usableFromInline var nominalStepMaximum: Double
        @usableFromInline var maximumTimeStep: Double
        /// The per-sample features, for the update's copy with the default 9D ones as constants.
        @usableFromInline var features: Features
        @usableFromInline var restGyroscopeThresholdSquared: Double
        @usableFromInline var restAccelerometerThresholdSquared: Double
        @usableFromInline var restMinimumTime: Double
        @usableFromInline var accelerationAcceptedMaximumSquared: Double
        @usableFromInline var accelerationAcceptedMinimumSquared: Double
        /// The accepted range of |a|² narrowed to exclude 0 and ∞: [max(min², least nonzero),
        /// min(max², greatest finite)].
        @usableFromInline var accelerationAcceptedLowest: Double
        @usableFromInline var accelerationAcceptedHighest: Double

        /// 1 / correctionInterval, the correction step's period (s) and its inverse.
        @usableFromInline var inverseCorrectionInterval: Double
        @usableFromInline var correctionPeriod: Double
        @usableFromInline var inverseCorrectionPeriod: Double
        @usableFromInline var motionBiasLowPass: CriticalLowPassCoefficients
        @usableFromInline var usesMagnetometer: Bool
        @usableFromInline var skipHeldMagnetometerSamples: Bool
        @usableFromInline var accelerometerLowPass: CriticalLowPassCoefficients
        @usableFromInline var restGyroscopeLowPass: CriticalLowPassCoefficients
        @usableFromInline var restAccelerometerLowPass: CriticalLowPassCoefficients
        @usableFromInline var magneticCurrentLowPass: CriticalLowPassCoefficients
        @usableFromInline var magneticCurrentLowPassEnabled: Bool
        @usableFromInline var restDetectionEnabled: Bool
        @usableFromInline var restBiasEstimation: Bool
        @usableFromInline var motionBiasEstimation: Bool
        @usableFromInline var magneticDisturbanceRejection: Bool
        @usableFromInline var biasClip: Double
        @usableFromInline var biasP0: Double
        @usableFromInline var biasV: Double
        @usableFromInline var biasMotionW: Double
        @usableFromInline var biasVerticalW: Double
        @usableFromInline var biasRestW: Double
        @usableFromInline var magnetometerTau: Double
        @usableFromInline var inverseMagnetometerTau: Double
        @usableFromInline var inverseMagneticReferenceTau: Double
        /// The magnetometer and magnetic-reference gains for a step of exactly `correctionPeriod`.
        @usableFromInline var magnetometerGain: Double
        @usableFromInline var magneticReferenceGain: Double
        @usableFromInline var magneticNormThreshold: Double
        @usableFromInline var magneticDipThreshold: Double
        @usableFromInline var magneticNewFieldTime: Double
        @usableFromInline var magneticNewFirstFieldTime: Double
        @usableFromInline var magneticNewFieldMinimumRateSquared: Double
        @usableFromInline var magneticMinimumUndisturbedTime: Double
        @usableFromInline var magneticMaximumRejectionTime: Double
        @usableFromInline var magneticRejectionFactor: Double
        @usableFromInline var declination: Double

        init(_ p: DeviceMotionConfiguration) {
            let degree = Double.pi / 180
            let rate = p.sampleRate.isFinite && p.sampleRate > 0 ? p.sampleRate : 100
            period = 1 / rate
            periodTolerance = period * 0.001
            let interval = p.correctionRate.isFinite && p.correctionRate > 0 ? (rate / p.correctionRate).rounded(.down) : 1
            correctionInterval = Int(Swift.max(1, Swift.min(interval, 1_000_000)))
            let slow = Double(correctionInterval) * period
            inverseCorrectionInterval = 1 / Double(correctionInterval)
            correctionPeriod = slow
            inverseCorrectionPeriod = 1 / slow
            maximumTimeStep = p.maximumTimeStep > 0 ? p.maximumTimeStep : period
            nominalStepMinimum = period - periodTolerance
            nominalStepMaximum = Swift.min(period + periodTolerance, maximumTimeStep)
            usesMagnetometer = p.reference.usesMagnetometer
            skipHeldMagnetometerSamples = p.skipHeldMagnetometerSamples
            func positive(_ tau: Double) -> Double { tau.isFinite && tau > 0 ? tau : 0 }
            // These three filter block means at the correction rate (every sample when the
            // correction interval is 1).
            accelerometerLowPass = CriticalLowPassCoefficients(timeConstant: positive(p.accelerometerTimeConstant), period: slow)
            restGyroscopeLowPass = CriticalLowPassCoefficients(timeConstant: positive(p.restFilterTimeConstant), period: slow)
            restAccelerometerLowPass = restGyroscopeLowPass
            magneticCurrentLowPassEnabled = p.magneticCurrentTimeConstant > 0
            magneticCurrentLowPass = CriticalLowPassCoefficients(timeConstant: positive(p.magneticCurrentTimeConstant), period: slow)
            motionBiasLowPass = CriticalLowPassCoefficients(timeConstant: positive(p.accelerometerTimeConstant), period: slow)
            let th = p.accelerationRejectionThreshold > 0 ? p.accelerationRejectionThreshold : .infinity
            accelerationAcceptedMaximumSquared = (1 + th) * (1 + th)
            accelerationAcceptedMinimumSquared = th < 1 ? (1 - th) * (1 - th) : 0
            accelerationAcceptedLowest = Swift.max(accelerationAcceptedMinimumSquared, .leastNonzeroMagnitude)
            accelerationAcceptedHighest = Swift.min(accelerationAcceptedMaximumSquared, .greatestFiniteMagnitude)
            restBiasEstimation = p.restBiasEstimation
            motionBiasEstimation = p.motionBiasEstimation
            magneticDisturbanceRejection = p.magneticDisturbanceRejection
            restDetectionEnabled = p.restBiasEstimation || p.magneticDisturbanceRejection
            restGyroscopeThresholdSquared = (p.restGyroscopeThreshold * degree) * (p.restGyroscopeThreshold * degree)
            restAccelerometerThresholdSquared = p.restAccelerometerThreshold * p.restAccelerometerThreshold
            restMinimumTime = p.restMinimumTime
            biasClip = p.biasClip * degree
            // Bias variances are in (0.01 °/s)², as in VQF.
            biasP0 = (p.biasSigmaInitial * 100) * (p.biasSigmaInitial * 100)
            // The Kalman filter runs once per correction step: V and W for that period (the
            // steady-state uncertainties, biasSigmaMotion/Rest, do not depend on it).
            biasV = (0.1 * 100) * (0.1 * 100) * slow / p.biasForgettingTime
            let pMotion = (p.biasSigmaMotion * 100) * (p.biasSigmaMotion * 100)
            biasMotionW = pMotion * pMotion / biasV + pMotion
            biasVerticalW = biasMotionW / Swift.max(p.biasVerticalForgettingFactor, 1e-10)
            let pRest = (p.biasSigmaRest * 100) * (p.biasSigmaRest * 100)
            biasRestW = pRest * pRest / biasV + pRest
            magnetometerTau = p.magnetometerTimeConstant
            func inverse(_ tau: Double) -> Double { tau < 0 ? 0 : (tau == 0 ? .infinity : 1 / tau) }
            inverseMagnetometerTau = inverse(p.magnetometerTimeConstant)
            inverseMagneticReferenceTau = inverse(p.magneticReferenceTimeConstant)
            magnetometerGain = DeviceMotionEstimator.gain(dt: slow, inverseTau: inverseMagnetometerTau)
            magneticReferenceGain = DeviceMotionEstimator.gain(dt: slow, inverseTau: inverseMagneticReferenceTau)
            magneticNormThreshold = p.magneticNormThreshold
            magneticDipThreshold = p.magneticDipThreshold * degree
            magneticNewFieldTime = p.magneticNewFieldTime
            magneticNewFirstFieldTime = p.magneticNewFirstFieldTime
            magneticNewFieldMinimumRateSquared = (p.magneticNewFieldMinimumRate * degree) * (p.magneticNewFieldMinimumRate * degree)
            magneticMinimumUndisturbedTime = p.magneticMinimumUndisturbedTime
            magneticMaximumRejectionTime = p.magneticMaximumRejectionTime
            magneticRejectionFactor = p.magneticRejectionFactor
            declination = p.declination * degree
            features = Features(restDetection: restDetectionEnabled, restBiasEstimation: restBiasEstimation,
                                magnetometer: usesMagnetometer, skipHeldMagnetometerSamples: skipHeldMagnetometerSamples)
        }
    }
}

extension DeviceMotionEstimator {
    /// The configuration switches the per-sample update tests.
    @usableFromInline
    struct Features: Sendable, Equatable {
        @usableFromInline var restDetection: Bool
        @usableFromInline var restBiasEstimation: Bool
        @usableFromInline var magnetometer: Bool
        @usableFromInline var skipHeldMagnetometerSamples: Bool

        @inlinable
        init(restDetection: Bool, restBiasEstimation: Bool, magnetometer: Bool, skipHeldMagnetometerSamples: Bool) {
            self.restDetection = restDetection
            self.restBiasEstimation = restBiasEstimation
            self.magnetometer = magnetometer
            self.skipHeldMagnetometerSamples = skipHeldMagnetometerSamples
        }

        /// The default configuration's, with a magnetometer.
        @inlinable static var default9D: Features {
            Features(restDetection: true, restBiasEstimation: true, magnetometer: true, skipHeldMagnetometerSamples: false)
        }
    }
}
