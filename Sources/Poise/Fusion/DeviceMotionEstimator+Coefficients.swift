extension DeviceMotionEstimator {
    /// Values derived once from the configuration (constant for an estimator; the estimation's
    /// changing values are its `State`).
    @usableFromInline
    struct Coefficients: Sendable {
        // The ones every sample uses first (few cache lines per update).
        /// Samples per correction step (its period and the inverses further down).
        @usableFromInline var correctionInterval: Int
        /// The sample period, s.
        @usableFromInline var period: Double
        /// 0.1 % of the period, s: steps this close to it count as the period (∞ with
        /// `fixedTimeStep`: every step does).
        @usableFromInline var periodTolerance: Double
        /// Steps in [nominalStepMinimum, nominalStepMaximum] are the period (period ∓ 0.1 %,
        /// the upper end at most `maximumTimeStep`).
        @usableFromInline var nominalStepMinimum: Double
        @usableFromInline var nominalStepMaximum: Double
        @usableFromInline var maximumTimeStep: Double
        /// `DeviceMotionConfiguration.fixedTimeStep`: every step is the period.
        @usableFromInline var fixedTimeStep: Bool
        /// The switches the per-sample update tests (the update has a copy with the default 9D
        /// ones as constants).
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
        @usableFromInline var accelerometerLowPass: CriticalLowPassCoefficients
        @usableFromInline var restGyroscopeLowPass: CriticalLowPassCoefficients
        @usableFromInline var restAccelerometerLowPass: CriticalLowPassCoefficients
        @usableFromInline var magneticCurrentLowPass: CriticalLowPassCoefficients
        @usableFromInline var magneticCurrentLowPassEnabled: Bool
        @usableFromInline var motionBiasEstimation: Bool
        /// `saturationBiasHoldOff`, s (0: off).
        @usableFromInline var saturationBiasHoldOff: Double
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
        /// The sphere fit of the magnetometer offset runs (`magneticOffsetEstimation` with a
        /// magnetometer and disturbance rejection); its weight decay per correction step
        /// (e^(−period/τ)) and acceptance limits.
        @usableFromInline var magneticOffsetEstimation: Bool
        @usableFromInline var magneticOffsetDecay: Double
        @usableFromInline var magneticOffsetMinimumCoverage: Double
        @usableFromInline var magneticOffsetMaximumResidual: Double
        @usableFromInline var magneticSmallOffsetMaximumResidual: Double
        /// The field-direction consistency test runs (`magneticDirectionThreshold` > 0 with a
        /// magnetometer and disturbance rejection): its threshold (rad) and its low-pass gain
        /// per correction step.
        @usableFromInline var magneticDirectionTest: Bool
        @usableFromInline var magneticDirectionThreshold: Double
        @usableFromInline var magneticDirectionGain: Double
        @usableFromInline var magneticDirectionGainFactor: Double
        /// Half the output prediction, s (`outputPrediction` / 2; 0: none).
        @usableFromInline var halfOutputPrediction: Double

        init(_ p: DeviceMotionConfiguration) {
            let degree = Double.pi / 180
            let rate = p.sampleRate.isFinite && p.sampleRate > 0 ? p.sampleRate : 100
            period = 1 / rate
            fixedTimeStep = p.fixedTimeStep
            periodTolerance = p.fixedTimeStep ? .infinity : period * 0.001
            let interval = p.correctionRate.isFinite && p.correctionRate > 0 ? (rate / p.correctionRate).rounded(.down) : 1
            correctionInterval = Int(Swift.max(1, Swift.min(interval, 1_000_000)))
            let slow = Double(correctionInterval) * period
            inverseCorrectionInterval = 1 / Double(correctionInterval)
            correctionPeriod = slow
            inverseCorrectionPeriod = 1 / slow
            maximumTimeStep = p.maximumTimeStep > 0 ? p.maximumTimeStep : period
            nominalStepMinimum = period - period * 0.001
            nominalStepMaximum = Swift.min(period + period * 0.001, maximumTimeStep)
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
            motionBiasEstimation = p.motionBiasEstimation
            saturationBiasHoldOff = p.saturationBiasHoldOff > 0 ? p.saturationBiasHoldOff : 0
            magneticDisturbanceRejection = p.magneticDisturbanceRejection
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
            magneticOffsetEstimation = p.magneticOffsetEstimation && p.magneticDisturbanceRejection && p.reference.usesMagnetometer
            let offsetTau = positive(p.magneticOffsetTimeConstant)
            magneticOffsetDecay = offsetTau > 0 ? Double.exp(-slow / offsetTau) : 0
            magneticOffsetMinimumCoverage = p.magneticOffsetMinimumCoverage
            magneticOffsetMaximumResidual = p.magneticOffsetMaximumResidual
            magneticSmallOffsetMaximumResidual = p.magneticSmallOffsetMaximumResidual
            magneticDirectionTest = p.magneticDirectionThreshold > 0 && p.magneticDirectionThreshold.isFinite
                && p.magneticDisturbanceRejection && p.reference.usesMagnetometer
            magneticDirectionThreshold = p.magneticDirectionThreshold * degree
            magneticDirectionGain = DeviceMotionEstimator.gain(dt: slow, inverseTau: inverse(p.magneticDirectionTimeConstant))
            magneticDirectionGainFactor = p.magneticDirectionGainFactor
            halfOutputPrediction = p.outputPrediction.isFinite && p.outputPrediction > 0 ? p.outputPrediction / 2 : 0
            features = Features(configuration: p, correctionInterval: correctionInterval)
        }
    }
}

extension DeviceMotionEstimator.Coefficients {
    /// The estimate uses the magnetometer (9D reference).
    @inlinable var usesMagnetometer: Bool { features.contains(.magnetometer) }
    /// Rest detection feeds the rest bias measurement.
    @inlinable var restBiasEstimation: Bool { features.contains(.restBiasEstimation) }
}
