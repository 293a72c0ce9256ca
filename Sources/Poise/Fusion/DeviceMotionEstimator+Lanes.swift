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
    /// One sample as the 6D lane hands it over.
    @_spi(Lanes) public struct LaneSample: Sendable {
        /// The gyroscope attitude after the sample's step (before a correction step
        /// renormalises it): the magnetometer sample's rotation into the earth frame.
        public var attitude: Quaternion<Double>
        /// The time the admitted magnetometer sample covers, s.
        public var magneticStep: Double
        /// `DeviceMotion.Flags` (low 8 bits; without `magneticDisturbance`, which is the
        /// magnetometer lane's) and the `LaneSample` bits below.
        public var bits: UInt32

        /// The gyroscope sample was integrated (it is `LastSample.integratedRotationRate`).
        public static var integrated: UInt32 { 1 << 8 }
        /// The accelerometer sample was not finite (`LastSample.acceleration` is zero).
        public static var accelerationDropped: UInt32 { 1 << 9 }
        /// The magnetometer sample was admitted.
        public static var magnetometerAdmitted: UInt32 { 1 << 10 }
        /// A correction step ran after the sample (a `LaneCorrection` follows).
        public static var corrected: UInt32 { 1 << 11 }

        @inlinable public init(attitude: Quaternion<Double>, magneticStep: Double, bits: UInt32) {
            self.attitude = attitude
            self.magneticStep = magneticStep
            self.bits = bits
        }
    }

    /// What a correction step of the 6D lane set that the magnetometer lane reads.
    @_spi(Lanes) public struct LaneCorrection: Sendable {
        public var attitude: Quaternion<Double>
        public var inclination: Quaternion<Double>
        public var restGyroscopeMean: SIMD4<Double>
        public var bias: SIMD3<Double>

        @inlinable public init(attitude: Quaternion<Double>, inclination: Quaternion<Double>,
                               restGyroscopeMean: SIMD4<Double>, bias: SIMD3<Double>) {
            self.attitude = attitude
            self.inclination = inclination
            self.restGyroscopeMean = restGyroscopeMean
            self.bias = bias
        }
    }

    /// The 6D lane's update of one sample (units as in `update`); writes the handover to
    /// `sample`, and to `correction` when a correction step ran (then returns true).
    @_spi(Lanes) @inlinable @inline(__always)
    public mutating func updateSixDLane(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                        magneticField: SIMD3<Double>?, sample: UnsafeMutablePointer<LaneSample>,
                                        correction: UnsafeMutablePointer<LaneCorrection>) -> Bool {
        var h = LaneHandoff()
        withUnsafeMutablePointer(to: &h) {
            update(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField, handoff: $0)
        }
        var bits = UInt32(lastSample.flags.rawValue)
        if h.integrated { bits |= LaneSample.integrated }
        if h.accelerationDropped { bits |= LaneSample.accelerationDropped }
        if h.magnetometerAdmitted { bits |= LaneSample.magnetometerAdmitted }
        if h.corrected { bits |= LaneSample.corrected }
        sample.pointee = LaneSample(attitude: h.attitude, magneticStep: h.magneticStep, bits: bits)
        if h.corrected {
            correction.pointee = LaneCorrection(attitude: state.gyroscopeAttitude, inclination: state.inclinationCorrection,
                                                restGyroscopeMean: state.restGyroscopeMean, bias: state.bias)
        }
        return h.corrected
    }

    /// The magnetometer lane's part of one sample: `sample` and (when its `corrected` bit is
    /// set) `correction` from the 6D lane, and the sample's inputs as given to it. Afterwards
    /// `deviceMotion` and its accessors return what they return after `update`.
    @_spi(Lanes) @inlinable @inline(__always)
    public mutating func applyMagnetometerLane(_ sample: LaneSample, correction: LaneCorrection?,
                                               acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                               magneticField: SIMD3<Double>?) {
        let bits = sample.bits
        if bits & LaneSample.magnetometerAdmitted != 0, let m = magneticField {
            addMagnetometer(m, covering: sample.magneticStep, earth: FusionRotation(sample.attitude))
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
        lastSample.acceleration = bits & LaneSample.accelerationDropped != 0 ? .zero : acceleration
        if bits & LaneSample.integrated != 0 { lastSample.integratedRotationRate = rotationRate }
        var flags = DeviceMotion.Flags(rawValue: UInt8(truncatingIfNeeded: bits))
        if coefficients.features.contains(.magnetometer) && state.magneticDisturbanceDetected { flags.insert(.magneticDisturbance) }
        lastSample.flags = flags
    }

    /// Ends a two-lane run on the 6D lane's estimator: takes the magnetometer's state, and the
    /// last flags, from the magnetometer lane's estimator `lane`.
    @_spi(Lanes) public mutating func adoptMagnetometerLane(of lane: DeviceMotionEstimator) {
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
        state.headingCosine = m.headingCosine
        state.headingSine = m.headingSine
        state.headingCacheAngle = m.headingCacheAngle
        lastSample.flags = lane.lastSample.flags
    }
}

/// What the 6D lane's update writes for one sample (`DeviceMotionEstimator.update(…handoff:)`).
@usableFromInline
struct LaneHandoff {
    @usableFromInline var attitude = Quaternion<Double>.identity
    @usableFromInline var magneticStep = 0.0
    @usableFromInline var integrated = false
    @usableFromInline var accelerationDropped = false
    @usableFromInline var magnetometerAdmitted = false
    @usableFromInline var corrected = false

    @inlinable init() {}
}
