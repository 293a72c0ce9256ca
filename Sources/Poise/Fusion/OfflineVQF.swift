/// VQF's offline estimator, `offlineVQF` of the reference implementation (D. Laidig, vqf 2.1.2,
/// MIT, github.com/dlaidig/vqf), ported from its offline_vqf.cpp: the attitude at every
/// sample of a whole recording, with VQF's fixed sample time.
///
/// 1. `DeviceMotionEstimator` runs forward over the recording, then (reset) backward with the
///    rotation rates negated (sample i's rate −ω_i); each sample's gyroscope bias is the two
///    passes' estimates combined by their covariances, (P₁⁻¹ + P₂⁻¹)⁻¹ (P₁⁻¹ b₁ − P₂⁻¹ b₂);
///    a sample is at rest when either pass says so, magnetically disturbed when both do.
/// 2. The rates less that bias are integrated over the period 1 / `sampleRate` per sample from
///    the identity; the accelerometer turned into that integrated frame is low-passed forward
///    and backward (VQF's second-order low-pass, `accelerometerTimeConstant`), and each sample's
///    inclination correction turns the low-passed vector up (applied cumulatively, as VQF's).
/// 3. 9D: per sample, the heading of the magnetometer reading in that 6D frame is filtered
///    forward and backward by a first-order filter (`magnetometerTimeConstant`, with VQF's fast
///    initial convergence and, with `magneticDisturbanceRejection`, gain 0 while the sample is
///    disturbed for at most `magneticMaximumRejectionTime`, then divided by
///    `magneticRejectionFactor`), and the 6D attitude is turned about the vertical by it.
///
/// With `DeviceMotionConfiguration.vqfDefaults(sampleRate:)` the outputs equal the `vqf`
/// package's `offlineVQF(gyr, acc, mag, Ts = 1 / sampleRate)` to rounding, whatever the
/// timestamps (they are not used). The passes use `configuration` with the ENU frame, magnetic
/// north and no output prediction; the outputs are in ENU (device → ENU).
///
/// Inputs as `DeviceMotionEstimator` (g, rad/s, µT, device frame); a missing magnetometer
/// sample (nil) counts as zero: skipped by the passes, and for the heading filter a reading
/// pointing nowhere (VQF's zero vector: heading atan2(0, 0) = 0).
/// Memory: about 200 bytes per sample and the outputs (about 150 more), kept in a
/// `SmootherStorage` (the heap unless the caller provides other storage; each array visited in
/// order, forward or backward). Time: two estimator passes and three O(n) loops.
public struct OfflineVQF: Sendable {
    /// The settings of the passes and of the offline filters (`sampleRate`, time constants,
    /// magnetic rejection settings).
    public let configuration: DeviceMotionConfiguration

    /// One sample's estimate.
    public struct Output: Sendable, Equatable {
        /// Attitude from the gyroscope and accelerometer, device → ENU, heading arbitrary (VQF's quat6D).
        public var attitude6D: Quaternion<Double>
        /// Attitude with the magnetometer, device → ENU with y to magnetic north (VQF's quat9D;
        /// equal to `attitude6D` without a magnetometer).
        public var attitude: Quaternion<Double>
        /// Heading correction, rad: the angle about the vertical from `attitude6D` to `attitude`.
        public var headingCorrection: Double
        /// Gyroscope bias, rad/s, device frame.
        public var bias: SIMD3<Double>
        /// At rest by either pass.
        public var atRest: Bool
        /// Magnetically disturbed by both passes.
        public var magneticDisturbance: Bool
    }

    /// Creates the estimator; `usesMagnetometer` of `configuration.reference` selects 9D.
    public init(configuration: DeviceMotionConfiguration) {
        self.configuration = configuration
    }

    /// The estimate at every sample of `samples` (in order), one output per sample.
    public func estimate<C: RandomAccessCollection>(_ samples: C) -> [Output] where C.Element == MotionSample, C.Index == Int {
        let outputs = estimate(samples, storage: InMemorySmootherStorage())
        return (0..<outputs.count).map { outputs[$0] }
    }

    /// The estimate at every sample of `samples` (in order), its per-sample values (and the
    /// outputs) kept in `storage`.
    func estimate<C: RandomAccessCollection>(_ samples: C, storage: any SmootherStorage) -> StoredValues<Output>
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count
        let output = StoredValues<Output>(storage, count: n)
        guard n > 0 else { return output }
        let start = samples.startIndex
        let usesMagnetometer = configuration.reference.usesMagnetometer
        var pass = configuration
        pass.earthFrame = .eastNorthUp
        pass.outputPrediction = 0
        pass.reference = usesMagnetometer ? .magneticNorthZVertical : .arbitraryZVertical
        // 1. Forward and backward passes; the biases combined by their covariances.
        var estimator = DeviceMotionEstimator(configuration: pass)
        let period = estimator.coefficients.period
        let bias = StoredValues<SIMD3<Double>>(storage, count: n)
        let inverseCovariance = StoredValues<Matrix3>(storage, count: n)
        let rest = StoredValues<Bool>(storage, count: n)
        let disturbed = StoredValues<Bool>(storage, count: n)
        for i in 0..<n {
            let s = samples[start + i]
            estimator.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate,
                             magneticField: usesMagnetometer ? s.magneticField : nil)
            rest[i] = estimator.lastSample.flags.contains(.atRest)
            disturbed[i] = estimator.state.magneticDisturbanceDetected
            bias[i] = estimator.state.bias
            inverseCovariance[i] = estimator.state.biasP.inverse
        }
        estimator.reset()
        for i in stride(from: n - 1, through: 0, by: -1) {
            let s = samples[start + i]
            estimator.update(time: -s.time, acceleration: s.acceleration, rotationRate: -s.rotationRate,
                             magneticField: usesMagnetometer ? s.magneticField : nil)
            rest[i] = rest[i] || estimator.lastSample.flags.contains(.atRest)
            disturbed[i] = disturbed[i] && estimator.state.magneticDisturbanceDetected
            let backwardInverse = estimator.state.biasP.inverse
            let sum = (inverseCovariance[i] * bias[i]) - (backwardInverse * estimator.state.bias)
            let combined = Matrix3(inverseCovariance[i].r0 + backwardInverse.r0, inverseCovariance[i].r1 + backwardInverse.r1,
                                   inverseCovariance[i].r2 + backwardInverse.r2).inverse
            bias[i] = combined * sum
        }
        // 2. Integration with that bias, the accelerometer in the integrated frame, zero-phase low-pass.
        let integrated = StoredValues<Quaternion<Double>>(storage, count: n)
        let accelerometer = StoredValues<SIMD3<Double>>(storage, count: n)
        var q = Quaternion<Double>.identity
        for i in 0..<n {
            let s = samples[start + i]
            let rate = s.rotationRate - bias[i]
            let norm = (rate * rate).sum().squareRoot()
            if norm > Double.ulpOfOne {
                let half = norm * period / 2
                let k = Double.sin(half) / norm
                q = Self.normalized(q * Quaternion(w: Double.cos(half), x: k * rate.x, y: k * rate.y, z: k * rate.z))
            }
            integrated[i] = q
            accelerometer[i] = Self.rotate(q, s.acceleration)
        }
        let lowPass = CriticalLowPassCoefficients(timeConstant: configuration.accelerometerTimeConstant, period: period)
        var state = CriticalLowPassState<SIMD3<Double>>()
        for i in 0..<n { accelerometer[i] = state.step(accelerometer[i], lowPass) }
        state.s0 = accelerometer[n - 1] * (1 - lowPass.b0)
        state.s1 = accelerometer[n - 1] * (lowPass.b2 - lowPass.a2)
        state.count = -1
        for i in stride(from: n - 1, through: 0, by: -1) { accelerometer[i] = state.step(accelerometer[i], lowPass) }
        // Inclination correction, cumulative.
        var correction = Quaternion<Double>.identity
        for i in 0..<n {
            let a = Self.normalized(Self.rotate(correction, accelerometer[i]))
            let w = ((a.z + 1) / 2).squareRoot()
            let step = w > 1e-6 ? Quaternion(w: w, x: 0.5 * a.y / w, y: -0.5 * a.x / w, z: 0) : Quaternion(w: 0, x: 1, y: 0, z: 0)
            correction = Self.normalized(step * correction)
            let sixD = correction * integrated[i]
            output[i] = Output(attitude6D: sixD, attitude: sixD, headingCorrection: 0, bias: bias[i],
                               atRest: rest[i], magneticDisturbance: usesMagnetometer && disturbed[i])
        }
        guard usesMagnetometer else { return output }
        // 3. Heading: the disagreement filtered forward and backward.
        let delta = StoredValues<Double>(storage, count: n)
        for i in 0..<n {
            let e = Self.rotate(output[i].attitude6D, samples[start + i].magneticField ?? .zero)
            delta[i] = Double.atan2(y: e.x, x: e.y)
        }
        filterHeading(delta, disturbed: disturbed, period: period, backward: false)
        filterHeading(delta, disturbed: disturbed, period: period, backward: true)
        for i in 0..<n {
            let c = Double.cos(delta[i] / 2), s = Double.sin(delta[i] / 2)
            var o = output[i]
            o.attitude = Quaternion(w: c, x: 0, y: 0, z: s) * o.attitude6D
            o.headingCorrection = delta[i]
            output[i] = o
        }
        return output
    }

    /// The device motion at every sample of `samples` (in order), as `DeviceMotionSmoother`
    /// reports it: the attitude in `configuration.earthFrame` for `configuration.reference`
    /// (true north turned by `declination`; arbitrary-corrected: heading 0 at the first
    /// sample), gravity and user acceleration (g) from it, the rate less the bias, the bias, the
    /// heading (9D) and the flags `atRest` and `magneticDisturbance`. `emit` gets each sample's
    /// index (0-based) and motion, in order, after the whole recording is estimated.
    /// `storage` keeps the per-sample values (in the heap by default).
    public func smooth<C: RandomAccessCollection>(_ samples: C, storage: any SmootherStorage = InMemorySmootherStorage(),
                                                  emit: (Int, DeviceMotion) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        let outputs = estimate(samples, storage: storage)
        let frame = configuration.earthFrame
        let usesMagnetometer = configuration.reference.usesMagnetometer
        var yaw = 0.0
        switch configuration.reference {
        case .arbitraryZVertical, .magneticNorthZVertical: break
        case .trueNorthZVertical: yaw = -configuration.declination * .pi / 180
        case .arbitraryCorrectedZVertical: yaw = -DeviceMotionSmoother.yaw(outputs.count > 0 ? outputs[0].attitude : .identity)
        }
        for i in 0..<outputs.count {
            let o = outputs[i]
            let s = samples[samples.startIndex + i]
            let attitude = yaw == 0 ? o.attitude : DeviceMotionSmoother.aboutVertical(yaw) * o.attitude
            let up = DeviceMotionSmoother.up(o.attitude)
            var flags: DeviceMotion.Flags = []
            if o.atRest { flags.insert(.atRest) }
            if o.magneticDisturbance { flags.insert(.magneticDisturbance) }
            try emit(i, DeviceMotion(
                time: s.time, attitude: frame == .eastNorthUp ? attitude : frame.fromEastNorthUp * attitude,
                earthFrame: frame, gravity: up, userAcceleration: s.acceleration - up,
                rotationRate: s.rotationRate - o.bias, bias: o.bias,
                heading: usesMagnetometer ? DeviceMotionEstimator.compassHeading(eastNorthUp: attitude) : nil,
                flags: flags))
        }
    }

    /// VQF's first-order heading filter over `delta` (rad) in one direction, in place.
    func filterHeading(_ delta: StoredValues<Double>, disturbed: StoredValues<Bool>, period: Double, backward: Bool) {
        let n = delta.count
        var d = backward ? delta[n - 1] : delta[0]
        let c = configuration
        let tau = c.magnetometerTimeConstant
        let gain = tau < 0 ? 0 : (tau == 0 ? 1 : 1 - Double.exp(-period / tau))
        var initialGain = 1.0
        var rejectionTime = 0.0
        for i in 0..<n {
            let j = backward ? n - 1 - i : i
            let angle = Self.wrapped(delta[j] - d)
            var k = gain
            if c.magneticDisturbanceRejection {
                if disturbed[j] {
                    if rejectionTime <= c.magneticMaximumRejectionTime {
                        rejectionTime += period
                        k = 0
                    } else {
                        k /= c.magneticRejectionFactor
                    }
                } else {
                    rejectionTime = Swift.max(rejectionTime - c.magneticRejectionFactor * period, 0)
                }
            }
            if initialGain != 0 {
                if k < initialGain { k = initialGain }
                initialGain /= initialGain + 1
                if initialGain * tau < period { initialGain = 0 }
            }
            d = Self.wrapped(d + k * angle)
            delta[j] = d
        }
    }

    /// `x` (rad) moved into [−π, π] by at most one turn, as VQF.
    static func wrapped(_ x: Double) -> Double {
        x > .pi ? x - 2 * .pi : (x < -.pi ? x + 2 * .pi : x)
    }

    /// `q` scaled to unit length (VQF's normalize: unchanged when its norm is below machine epsilon).
    static func normalized(_ q: Quaternion<Double>) -> Quaternion<Double> {
        let norm = q.length
        guard norm >= Double.ulpOfOne else { return q }
        return Quaternion(w: q.w / norm, x: q.x / norm, y: q.y / norm, z: q.z / norm)
    }

    /// `v` scaled to unit length (unchanged when its norm is below machine epsilon).
    static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let norm = (v * v).sum().squareRoot()
        return norm >= Double.ulpOfOne ? v / norm : v
    }

    /// `v` rotated by `q` (VQF's quatRotate: the rotation matrix of q, exact for unit q).
    static func rotate(_ q: Quaternion<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return SIMD3(
            (1 - 2 * y * y - 2 * z * z) * v.x + 2 * v.y * (x * y - w * z) + 2 * v.z * (w * y + x * z),
            2 * v.x * (w * z + x * y) + v.y * (1 - 2 * x * x - 2 * z * z) + 2 * v.z * (y * z - w * x),
            2 * v.x * (x * z - w * y) + 2 * v.y * (w * x + y * z) + v.z * (1 - 2 * x * x - 2 * y * y))
    }
}
