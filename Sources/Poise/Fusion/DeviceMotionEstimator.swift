/// Device-motion estimation: attitude, gravity, user acceleration and gyroscope bias from an
/// accelerometer, a gyroscope and optionally a magnetometer.
///
/// The algorithm is VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU orientation estimation
/// with bias estimation and magnetic disturbance rejection", Information Fusion 91, 2023;
/// reference implementation MIT-licensed, github.com/dlaidig/vqf), ported from its C++ source
/// with these changes, each documented in docs/fusion.md:
/// - the gyroscope is integrated with each sample's real time step (irregular timestamps;
///   steps within 0.1 % of the nominal period count as the nominal period);
///   a repeated or backward timestamp integrates nothing; a gap longer than
///   `maximumTimeStep` is integrated as `maximumTimeStep` and flagged;
/// - a magnetometer sample identical to the previous one (a held value from a slower
///   magnetometer) is not applied again, and the magnetometer gains use the real time since
///   the last new sample;
/// - non-finite or all-zero inputs are skipped and flagged, so no NaN ever reaches the state
///   (a vector whose squared norm overflows, |v| ≳ 1e154, counts as non-finite);
/// - accelerometer samples far from 1 g are left out of the inclination correction.
///
/// Inputs: acceleration as specific force in g (+1 g on the up axis at rest), rotation rate in
/// rad/s, magnetic field in any unit (µT in Poise), all in the device frame; time in seconds.
///
/// ```swift
/// var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
/// for sample in samples { let motion = estimator.process(sample); use(motion.attitude) }
/// ```
public struct DeviceMotionEstimator: Sendable {
    /// The settings (read-only; create a new estimator to change them).
    public let configuration: DeviceMotionConfiguration
    @usableFromInline let coefficients: Coefficients
    /// The complete mutable state; save it and assign it back to resume a run exactly.
    public var state: State

    /// Creates an estimator in its initial state.
    public init(configuration: DeviceMotionConfiguration = DeviceMotionConfiguration()) {
        self.configuration = configuration
        self.coefficients = Coefficients(configuration)
        self.state = State(configuration: configuration, coefficients: coefficients)
    }

    /// Restores the initial state (equal to a fresh estimator with the same configuration).
    public mutating func reset() { state = State(configuration: configuration, coefficients: coefficients) }

    // MARK: Per-sample update

    /// Processes one sample and returns the device motion after it.
    ///
    /// - Parameters:
    ///   - time: timestamp in seconds (any origin).
    ///   - acceleration: specific force in g, device frame.
    ///   - rotationRate: rad/s, device frame.
    ///   - magneticField: device frame (µT); ignored by the 6D reference, `nil` when absent.
    @inlinable
    public mutating func process(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                 magneticField: SIMD3<Double>? = nil) -> DeviceMotion {
        update(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField)
        return deviceMotion
    }

    /// Processes one `MotionSample` (units as documented there).
    @inlinable
    public mutating func process(_ sample: MotionSample) -> DeviceMotion {
        process(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate,
                magneticField: sample.magneticField)
    }

    /// Processes samples in order, appending one output per input to `output`. Equal to calling
    /// `process(_:)` on each sample.
    public mutating func process(_ samples: [MotionSample], into output: inout [DeviceMotion]) {
        output.reserveCapacity(output.count + samples.count)
        for s in samples { output.append(process(s)) }
    }

    /// Updates the state with one sample without building the output (the cheapest call; read
    /// `attitude` or `deviceMotion` afterwards). Units as in `process(time:…)`.
    @inlinable
    public mutating func update(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                magneticField: SIMD3<Double>? = nil) {
        var flags: DeviceMotion.Flags = []
        let c = coefficients
        var dt = c.period
        if let last = state.lastTime {
            let d = time - last
            if !(d > 0) { dt = 0 }  // repeated, backward or non-finite timestamp
            else if d > c.maximumTimeStep { dt = c.maximumTimeStep; flags.insert(.timeGap) }
            // Steps within 0.1 % of the nominal period are rounding jitter of the timestamps
            // (e.g. index/rate printed to 1 µs): use the period itself.
            else if (d - c.period).magnitude > c.period * 0.001 { dt = d }
        }
        if time.isFinite { state.lastTime = time } else { flags.insert(.invalidInput) }

        state.lastAcceleration = acceleration
        state.lastRotationRate = rotationRate
        if Self.isUsable(rotationRate) {
            updateGyroscope(rotationRate, dt: dt)
        } else {
            flags.insert(.invalidInput)
        }
        if Self.isUsable(acceleration) {
            if acceleration != .zero { updateAccelerometer(acceleration, dt: dt, flags: &flags) }
        } else {
            flags.insert(.invalidInput)
            state.lastAcceleration = .zero
        }
        if c.usesMagnetometer, let m = magneticField {
            if !Self.isUsable(m) {
                flags.insert(.invalidInput)
            } else if m != .zero && !(c.skipHeldMagnetometerSamples && m == state.lastMagneticField) {
                let dtMag: Double
                if let t = state.lastMagneticTime, time.isFinite {
                    let d = time - t
                    dtMag = (d - c.period).magnitude <= c.period * 0.001 ? c.period : (d > 0 ? Swift.min(d, c.maximumTimeStep) : 0)
                } else { dtMag = c.period }
                state.lastMagneticField = m
                if time.isFinite { state.lastMagneticTime = time }
                updateMagnetometer(m, dt: dtMag)
                if state.arbitraryHeadingOffset == nil { state.arbitraryHeadingOffset = state.headingCorrection }
            }
        }
        if state.restDetected { flags.insert(.atRest) }
        if c.usesMagnetometer && state.magneticDisturbanceDetected { flags.insert(.magneticDisturbance) }
        state.flags = flags
    }

    /// True when `v` is finite and so is its squared norm (|v| below about 1e154): larger
    /// values overflow in the rotations and norms of the update (seen as NaN attitudes).
    @inlinable @inline(__always)
    static func isUsable(_ v: SIMD3<Double>) -> Bool { (v * v).sum().isFinite }

    // MARK: Gyroscope: strapdown integration and rest detection

    @inlinable
    mutating func updateGyroscope(_ gyr: SIMD3<Double>, dt: Double) {
        let c = coefficients
        if c.restDetectionEnabled {
            let lp4 = state.restGyroscopeLowPass.step(SIMD4(gyr, 0), c.restGyroscopeLowPass)
            let lp = SIMD3(lp4.x, lp4.y, lp4.z)
            state.restGyroscopeMean = lp
            let d = gyr - lp
            state.restGyroscopeDeviation = (d * d).sum()
            if state.restGyroscopeDeviation >= c.restGyroscopeThresholdSquared
                || lp.x.magnitude > c.biasClip || lp.y.magnitude > c.biasClip || lp.z.magnitude > c.biasClip {
                state.restTime = 0
                state.restDetected = false
            }
        }
        let w = gyr - state.bias
        let n2 = (w * w).sum()
        guard n2 > Double.ulpOfOne * Double.ulpOfOne, dt > 0 else { return }
        let n = n2.squareRoot()
        let half = n * dt / 2
        let s = Double.sin(half) / n
        let step = Quaternion(w: Double.cos(half), x: s * w.x, y: s * w.y, z: s * w.z)
        state.gyroscopeAttitude = (state.gyroscopeAttitude * step).normalized
    }

    // MARK: Accelerometer: inclination correction and bias estimation

    @inlinable
    mutating func updateAccelerometer(_ acc: SIMD3<Double>, dt: Double, flags: inout DeviceMotion.Flags) {
        let c = coefficients
        if c.restBiasEstimation {
            let lp4 = state.restAccelerometerLowPass.step(SIMD4(acc, 0), c.restAccelerometerLowPass)
            let lp = SIMD3(lp4.x, lp4.y, lp4.z)
            let d = acc - lp
            state.restAccelerometerDeviation = (d * d).sum()
            if state.restAccelerometerDeviation >= c.restAccelerometerThresholdSquared {
                state.restTime = 0
                state.restDetected = false
            } else {
                state.restTime += dt
                if state.restTime >= c.restMinimumTime { state.restDetected = true }
            }
        }
        let norm2 = (acc * acc).sum()
        if norm2 > c.accelerationAcceptedMaximumSquared || norm2 < c.accelerationAcceptedMinimumSquared {
            flags.insert(.accelerationRejected)
        } else {
            // Low-pass the specific force in the gyroscope-integrated earth frame.
            let accEarth = state.gyroscopeAttitude.act(acc)
            let lp = state.accelerometerLowPass.step(SIMD4(accEarth, 0), c.accelerometerLowPass)
            state.accelerometerMean = SIMD3(lp.x, lp.y, lp.z)
        }
        guard state.accelerometerMean != .zero else { return }
        // Bring it into the 6D earth frame and correct the inclination so it points up.
        var a = state.inclinationCorrection.act(state.accelerometerMean)
        let an = (a * a).sum().squareRoot()
        if an > Double.ulpOfOne { a /= an }
        let qw = ((a.z + 1) / 2).squareRoot()
        let correction: Quaternion<Double>
        if qw > 1e-6 {
            correction = Quaternion(w: qw, x: 0.5 * a.y / qw, y: -0.5 * a.x / qw, z: 0)
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        state.inclinationCorrection = (correction * state.inclinationCorrection).normalized
        if c.motionBiasEstimation || c.restBiasEstimation {
            estimateBias(accelerationEarth: a)
        }
    }

    @inlinable
    mutating func estimateBias(accelerationEarth a: SIMD3<Double>) {
        let c = coefficients
        let q = state.inclinationCorrection * state.gyroscopeAttitude
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        var r = Matrix3(
            SIMD3(1 - 2 * y * y - 2 * z * z, 2 * (y * x - w * z), 2 * (w * y + z * x)),
            SIMD3(2 * (w * z + y * x), 1 - 2 * x * x - 2 * z * z, 2 * (y * z - x * w)),
            SIMD3(2 * (z * x - w * y), 2 * (w * x + z * y), 1 - 2 * x * x - 2 * y * y))
        let b = state.bias
        let rb = r * b
        // Low-pass R (9 lanes) and R·b (x, y) together: same coefficients, one 16-lane filter.
        var packed = SIMD16<Double>.zero
        packed[0] = r.r0.x; packed[1] = r.r0.y; packed[2] = r.r0.z
        packed[3] = r.r1.x; packed[4] = r.r1.y; packed[5] = r.r1.z
        packed[6] = r.r2.x; packed[7] = r.r2.y; packed[8] = r.r2.z
        packed[9] = rb.x; packed[10] = rb.y
        let f = state.motionBiasLowPass.step(packed, c.accelerometerLowPass)
        r = Matrix3(SIMD3(f[0], f[1], f[2]), SIMD3(f[3], f[4], f[5]), SIMD3(f[6], f[7], f[8]))
        let biasLp = SIMD2(f[9], f[10])

        var e = SIMD3<Double>.zero
        var weight = SIMD3<Double>(repeating: -1)
        if state.restDetected && c.restBiasEstimation {
            e = state.restGyroscopeMean - b
            r = .scaledIdentity(1)
            weight = SIMD3(repeating: c.biasRestW)
        } else if c.motionBiasEstimation {
            let rb2 = r * b
            e = SIMD3(-a.y / c.period + biasLp.x - rb2.x,
                      a.x / c.period + biasLp.y - rb2.y,
                      -rb2.z)
            weight = SIMD3(c.biasMotionW, c.biasMotionW, c.biasVerticalW)
        }
        // Kalman filter: P ← P + V (up to the initial variance).
        if state.biasP.r0.x < c.biasP0 { state.biasP.r0.x += c.biasV }
        if state.biasP.r1.y < c.biasP0 { state.biasP.r1.y += c.biasV }
        if state.biasP.r2.z < c.biasP0 { state.biasP.r2.z += c.biasV }
        guard weight.x >= 0 else { return }
        e = e.clamped(lowerBound: SIMD3(repeating: -c.biasClip), upperBound: SIMD3(repeating: c.biasClip))
        let p = state.biasP
        // K = P Rᵀ (W + R P Rᵀ)⁻¹
        var s = r * (p * r.transposed)
        s.r0.x += weight.x; s.r1.y += weight.y; s.r2.z += weight.z
        let k = p * (r.transposed * s.inverse)
        state.bias = (b + k * e).clamped(lowerBound: SIMD3(repeating: -c.biasClip),
                                         upperBound: SIMD3(repeating: c.biasClip))
        state.biasP = p - (k * r) * p
    }

    // MARK: Magnetometer: heading correction and disturbance rejection

    @inlinable
    mutating func updateMagnetometer(_ mag: SIMD3<Double>, dt: Double) {
        let c = coefficients
        let q6 = state.inclinationCorrection * state.gyroscopeAttitude
        let m = q6.act(mag)
        if c.magneticDisturbanceRejection {
            let norm = (m * m).sum().squareRoot()
            let dip = -Double.asin(Swift.max(-1, Swift.min(1, m.z / norm)))
            var nd = SIMD2(norm, dip)
            if c.magneticCurrentLowPassEnabled {
                nd = state.magneticNormDipLowPass.step(nd, c.magneticCurrentLowPass)
            }
            state.magneticNormDip = nd
            let kRef = gain(dt: dt, inverseTau: c.inverseMagneticReferenceTau)
            if (nd.x - state.magneticReferenceNorm).magnitude < c.magneticNormThreshold * state.magneticReferenceNorm
                && (nd.y - state.magneticReferenceDip).magnitude < c.magneticDipThreshold {
                state.magneticUndisturbedTime += dt
                if state.magneticUndisturbedTime >= c.magneticMinimumUndisturbedTime {
                    state.magneticDisturbanceDetected = false
                    state.magneticReferenceNorm += kRef * (nd.x - state.magneticReferenceNorm)
                    state.magneticReferenceDip += kRef * (nd.y - state.magneticReferenceDip)
                }
            } else {
                state.magneticUndisturbedTime = 0
                state.magneticDisturbanceDetected = true
            }
            if (nd.x - state.magneticCandidateNorm).magnitude < c.magneticNormThreshold * state.magneticCandidateNorm
                && (nd.y - state.magneticCandidateDip).magnitude < c.magneticDipThreshold {
                if (state.restGyroscopeMean * state.restGyroscopeMean).sum() >= c.magneticNewFieldMinimumRateSquared {
                    state.magneticCandidateTime += dt
                }
                state.magneticCandidateNorm += kRef * (nd.x - state.magneticCandidateNorm)
                state.magneticCandidateDip += kRef * (nd.y - state.magneticCandidateDip)
                if state.magneticDisturbanceDetected
                    && (state.magneticCandidateTime >= c.magneticNewFieldTime
                        || (state.magneticReferenceNorm == 0 && state.magneticCandidateTime >= c.magneticNewFirstFieldTime)) {
                    state.magneticReferenceNorm = state.magneticCandidateNorm
                    state.magneticReferenceDip = state.magneticCandidateDip
                    state.magneticDisturbanceDetected = false
                    state.magneticUndisturbedTime = c.magneticMinimumUndisturbedTime
                }
            } else {
                state.magneticCandidateTime = 0
                state.magneticCandidateNorm = nd.x
                state.magneticCandidateDip = nd.y
            }
        }
        // Heading disagreement: the horizontal field should point along +y (north).
        var disagreement = Double.atan2(y: m.x, x: m.y) - state.headingCorrection
        if disagreement > .pi { disagreement -= 2 * .pi } else if disagreement < -.pi { disagreement += 2 * .pi }
        var k = gain(dt: dt, inverseTau: c.inverseMagnetometerTau)
        if c.magneticDisturbanceRejection {
            if state.magneticDisturbanceDetected {
                if state.magneticRejectionTime <= c.magneticMaximumRejectionTime {
                    state.magneticRejectionTime += dt
                    k = 0
                } else {
                    k /= c.magneticRejectionFactor
                }
            } else {
                state.magneticRejectionTime = Swift.max(state.magneticRejectionTime - c.magneticRejectionFactor * dt, 0)
            }
        }
        // Fast initial convergence: gain at least 1/N for the N-th sample until t > τ.
        if state.magneticInitialGain != 0 {
            if k < state.magneticInitialGain { k = state.magneticInitialGain }
            state.magneticInitialGain = state.magneticInitialGain / (state.magneticInitialGain + 1)
            if state.magneticInitialGain * c.magnetometerTau < c.period { state.magneticInitialGain = 0 }
        }
        var delta = state.headingCorrection + k * disagreement
        if delta > .pi { delta -= 2 * .pi } else if delta < -.pi { delta += 2 * .pi }
        state.headingCorrection = delta
    }

    /// 1 − exp(−dt/τ) (the first-order filter gain for a step of dt). For dt/τ ≤ 0.01 (every
    /// sensor rate in practice) the cubic Taylor polynomial is used: error below 5e-10.
    @inlinable @inline(__always)
    func gain(dt: Double, inverseTau: Double) -> Double {
        let x = dt * inverseTau
        if !(x <= 0.01) { return 1 - Double.exp(-x) }
        return x * (1 - x * (0.5 - x * (1.0 / 6)))
    }
}
