/// A run in two lanes, for hosts that process a long buffer on two threads (the C API's
/// `poise_fusion_update_buffer`): the magnetometer's part of the estimation never feeds the
/// rest of it, so it can run behind.
///
/// - The **6D lane** (`updateSixDLane`) is the whole update except the magnetometer's
///   application: it integrates the gyroscope, tests for rest, sums the accelerometer and runs
///   the correction step's inclination and bias parts. It still admits each magnetometer
///   sample (timing, held values: whether it counts toward the correction step), and hands
///   each sample's gyroscope attitude, admission and correction step to the other lane.
/// - The **magnetometer lane** (`applyMagnetometerLane`), on a second estimator that started
///   as a copy of the first, sums the admitted magnetometer samples in the gyroscope earth
///   frame and runs the correction step's magnetometer part (heading, disturbance, offset)
///   where the 6D lane ran a correction step. After each sample it holds everything
///   `deviceMotion` reads, so the outputs are computed there.
/// - At the end `adoptMagnetometerLane(of:)` copies the magnetometer's state into the 6D lane's
///   estimator.
///
/// Each lane runs exactly the operations of `update` on the same values, so the outputs and the
/// final state are bit-identical to a one-lane run (`DeviceMotionLaneTests`).
extension DeviceMotionEstimator {
    /// One sample as the 6D lane hands it over (written by its update in place).
    public struct LaneSample: Sendable {
        /// The gyroscope attitude after the sample's step (before a correction step
        /// renormalises it): the magnetometer sample's rotation into the earth frame.
        public var attitude = Quaternion<Double>.identity
        /// The time the admitted magnetometer sample covers, s.
        public var magneticStep = 0.0
        /// The sample's flags, without `magneticDisturbance` (the magnetometer lane's).
        public var flags: DeviceMotion.Flags = []
        /// The gyroscope sample was integrated (it is `LastSample.integratedRotationRate`).
        public var integrated = false
        /// The accelerometer sample was not finite (`LastSample.acceleration` is zero).
        public var accelerationDropped = false
        /// The magnetometer sample was admitted.
        public var magnetometerAdmitted = false
        /// A correction step ran after the sample (its `LaneCorrection` was written).
        public var corrected = false

        /// An empty handover (identity attitude, no flags, no bits).
        @inlinable public init() {}
    }

    /// What a correction step of the 6D lane set that the magnetometer lane reads.
    public struct LaneCorrection: Sendable {
        /// `State.gyroscopeAttitude` after the step (renormalised; device → gyroscope earth frame).
        public var attitude: Quaternion<Double>
        /// `State.inclinationCorrection` after the step (gyroscope earth → 6D earth frame).
        public var inclination: Quaternion<Double>
        /// The rest detector's low-passed rotation rate after the step, rad/s, device frame
        /// (4th lane 0).
        public var restGyroscopeMean: SIMD4<Double>
        /// `State.bias` after the step, rad/s, device frame.
        public var bias: SIMD3<Double>

        /// The record of the fields above.
        @inlinable public init(attitude: Quaternion<Double>, inclination: Quaternion<Double>,
                               restGyroscopeMean: SIMD4<Double>, bias: SIMD3<Double>) {
            self.attitude = attitude
            self.inclination = inclination
            self.restGyroscopeMean = restGyroscopeMean
            self.bias = bias
        }
    }

    /// The 6D lane's update of one sample with a magnetometer sample (units as in `update`);
    /// writes the handover to `sample`, and to `correction` when a correction step ran (then
    /// returns true). (Out of line with the vector in registers, as `update(…magneticField:)`
    /// with a non-optional vector.)
    @inline(never)
    public mutating func updateSixDLane(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                        magneticField: SIMD3<Double>, sample: UnsafeMutablePointer<LaneSample>,
                                        correction: UnsafeMutablePointer<LaneCorrection>) -> Bool {
        updateSixDLane(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: Optional(magneticField),
                       sample: sample, correction: correction)
    }

    /// `updateSixDLane` without a magnetometer sample.
    @inline(never)
    public mutating func updateSixDLane(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                        sample: UnsafeMutablePointer<LaneSample>,
                                        correction: UnsafeMutablePointer<LaneCorrection>) -> Bool {
        updateSixDLane(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: nil,
                       sample: sample, correction: correction)
    }

    /// `updateSixDLane` with an optional magnetometer sample.
    @inlinable @inline(__always)
    public mutating func updateSixDLane(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                        magneticField: SIMD3<Double>?, sample: UnsafeMutablePointer<LaneSample>,
                                        correction: UnsafeMutablePointer<LaneCorrection>) -> Bool {
        sample.initialize(to: LaneSample())
        update(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField, handoff: sample)
        guard sample.pointee.corrected else { return false }
        correction.initialize(to: LaneCorrection(attitude: state.gyroscopeAttitude, inclination: state.inclinationCorrection,
                                                 restGyroscopeMean: state.restGyroscopeMean, bias: state.bias))
        return true
    }

    /// The magnetometer lane's part of one sample: `sample` and (when it is `corrected`)
    /// `correction` from the 6D lane, and the sample's inputs as given to it. Afterwards
    /// `deviceMotion` and its accessors return what they return after `update`.
    @inlinable @inline(__always)
    public mutating func applyMagnetometerLane(_ sample: LaneSample, correction: LaneCorrection?,
                                               acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                               magneticField: SIMD3<Double>?) {
        if sample.magnetometerAdmitted, let m = magneticField {
            addMagnetometer(m, covering: sample.magneticStep, earth: FusionRotation(sample.attitude))
        }
        if sample.flags.contains(.gyroscopeSaturated) && coefficients.saturationBiasHoldOff > 0 {
            state.magneticDirectionPause = coefficients.saturationBiasHoldOff
        }
        if let c = correction {
            state.gyroscopeAttitude = c.attitude
            state.inclinationCorrection = c.inclination
            state.restGyroscopeMean = c.restGyroscopeMean
            state.bias = c.bias
            correctMagnetometer()
        } else {
            state.gyroscopeAttitude = sample.attitude
        }
        lastSample.rotationRate = rotationRate
        lastSample.acceleration = sample.accelerationDropped ? .zero : acceleration
        if sample.integrated { lastSample.integratedRotationRate = rotationRate }
        var flags = sample.flags
        if coefficients.features.contains(.magnetometer) && state.magneticDisturbanceDetected { flags.insert(.magneticDisturbance) }
        lastSample.flags = flags
    }

    /// Ends a two-lane run on the 6D lane's estimator: takes the magnetometer's state, and the
    /// last sample (`lastSample`, which the 6D lane leaves alone), from the magnetometer lane's
    /// estimator `lane`.
    public mutating func adoptMagnetometerLane(of lane: DeviceMotionEstimator) {
        let m = lane.state
        state.magneticDisturbanceDetected = m.magneticDisturbanceDetected
        state.magneticFieldSum = m.magneticFieldSum
        state.magneticElapsed = m.magneticElapsed
        state.magneticOffset = m.magneticOffset
        state.magneticOffsetSample = m.magneticOffsetSample
        state.headingCorrection = m.headingCorrection
        state.arbitraryHeadingOffset = m.arbitraryHeadingOffset
        state.magneticInitialGain = m.magneticInitialGain
        state.magneticNormDipLowPass = m.magneticNormDipLowPass
        state.magneticReferenceNorm = m.magneticReferenceNorm
        state.magneticReferenceDip = m.magneticReferenceDip
        state.magneticUndisturbedTime = m.magneticUndisturbedTime
        state.magneticRejectionTime = m.magneticRejectionTime
        state.magneticCandidateNorm = m.magneticCandidateNorm
        state.magneticCandidateDip = m.magneticCandidateDip
        state.magneticCandidateTime = m.magneticCandidateTime
        state.magneticOffsetSums = m.magneticOffsetSums
        state.magneticDirectionMean = m.magneticDirectionMean
        state.magneticDirectionPause = m.magneticDirectionPause
        state.headingCosine = m.headingCosine
        state.headingSine = m.headingSine
        state.headingCacheAngle = m.headingCacheAngle
        lastSample = lane.lastSample
    }
}
