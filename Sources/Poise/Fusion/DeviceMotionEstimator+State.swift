extension DeviceMotionEstimator {
    /// Everything the estimation carries from one sample to the next. `Codable`: save it with
    /// the configuration and assign it to `state` of an estimator with the same configuration to
    /// resume exactly where the run stopped. Angles in radians, rates in rad/s.
    ///
    /// It holds no outputs: the last sample's inputs and flags, which only `deviceMotion`
    /// reads, are the estimator's `lastSample`, and the configuration and the values derived
    /// from it are not repeated here.
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
        /// Timestamp of the last sample, s.
        public var lastTime: Double?
        /// Time of the last magnetometer sample applied, s.
        public var lastMagneticTime: Double?
        /// The last two samples' rotation rates as measured, rad/s (a value no reading has
        /// before the first), and the largest magnitude each axis has reported (finite
        /// readings): what the held-sample and saturation tests compare with.
        @usableFromInline var previousRotationRate = SIMD3<Double>(repeating: -.greatestFiniteMagnitude)
        @usableFromInline var secondPreviousRotationRate = SIMD3<Double>(repeating: -.greatestFiniteMagnitude)
        @usableFromInline var rotationRatePeak = SIMD3<Double>.zero
        /// Time of the last sample flagged `gyroscopeSaturated`, s (−∞ before any; never NaN).
        @usableFromInline var lastSaturationTime = -Double.greatestFiniteMagnitude
        /// Counted samples until the next correction step (it runs when this reaches 0); an
        /// accelerometer sample arrived since the last one. The first counted sample runs a
        /// correction step (so the attitude is right from the start), then every
        /// `correctionInterval` samples.
        @usableFromInline var samplesToCorrection: Int
        @usableFromInline var pendingAccelerometer = false
        /// Last outputs of the rest low-passes (4th lane 0), and whether the gyroscope one is
        /// within `biasClip` on every axis (a rest condition; derived from the gyroscope output
        /// when the low-pass runs, and kept so that the per-sample rest test reads one flag).
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
        /// The magnetometer offset subtracted from the readings (hard iron moving with the
        /// device, estimated by `magneticOffsetEstimation`), µT, device frame; zero when none is.
        public var magneticOffset = SIMD3<Double>.zero
        /// The last magnetometer reading summed (before the offset is subtracted), µT: the
        /// sphere fit's sample at the correction step.
        @usableFromInline var magneticOffsetSample = SIMD3<Double>.zero
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
        @usableFromInline var magneticReferenceNorm: Double = 0
        @usableFromInline var magneticReferenceDip: Double = 0
        @usableFromInline var magneticUndisturbedTime: Double = 0
        @usableFromInline var magneticRejectionTime: Double
        @usableFromInline var magneticCandidateNorm: Double = -1
        @usableFromInline var magneticCandidateDip: Double = 0
        @usableFromInline var magneticCandidateTime: Double = 0
        /// Exponentially weighted sums of the sphere fit (`DeviceMotionEstimator.MagneticOffsetFit`).
        @usableFromInline var magneticOffsetSums = SIMD16<Double>.zero
        /// Low-pass of the heading disagreement for the field-direction test, rad.
        @usableFromInline var magneticDirectionMean: Double = 0
        /// Magnetometer time left, s, during which the field-direction test does not lower the
        /// heading gain: `saturationBiasHoldOff` from a `gyroscopeSaturated` sample (the clipped
        /// rate turned the gyroscope's heading, and the disagreement's jump is that error).
        @usableFromInline var magneticDirectionPause: Double = 0
        /// cos and sin of `headingCorrection` when it was `headingCacheAngle` (kept up to date
        /// by the update, which rotates them by each heading step; recomputed when
        /// `headingCorrection` is changed from outside). State, not a cache of outputs: being
        /// rotated step by step, they differ from cos and sin of the angle in the last bits, and
        /// the heading disagreement and the 9D attitude use them, so an exact resume needs them.
        @usableFromInline var headingCosine: Double = 1
        @usableFromInline var headingSine: Double = 0
        @usableFromInline var headingCacheAngle: Double = 0
        /// An inclination correction has been made.
        @usableFromInline var inclinationAligned = false

        /// The initial state for these coefficients.
        @usableFromInline init(coefficients: Coefficients) {
            biasP = .scaledIdentity(coefficients.biasP0)
            samplesToCorrection = 1
            magneticRejectionTime = coefficients.magneticMaximumRejectionTime
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
        /// 4: no outputs: `flags`, `lastAcceleration` and `lastRotationRate` are the
        ///    estimator's `lastSample`; `magneticNormDip` (written, never read) is gone.
        /// 5: the magnetometer offset (`magneticOffset`, its fit's sample and sums).
        /// 6: the field-direction test's low-pass (`magneticDirectionMean`).
        /// 7: the held-sample and saturation tests (`previousRotationRate`,
        ///    `secondPreviousRotationRate`, `rotationRatePeak`, `lastSaturationTime`).
        /// 8: the field-direction test's pause after a clipped gyroscope sample
        ///    (`magneticDirectionPause`).
        @usableFromInline static let current = 8
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
}
