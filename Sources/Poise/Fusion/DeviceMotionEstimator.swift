/// Device-motion estimation: attitude, gravity, user acceleration and gyroscope bias from an
/// accelerometer, a gyroscope and optionally a magnetometer.
///
/// The algorithm is VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU orientation estimation
/// with bias estimation and magnetic disturbance rejection", Information Fusion 91, 2023;
/// reference implementation MIT-licensed, github.com/dlaidig/vqf), ported from its C++ source
/// with these changes, each documented in docs/fusion.md:
/// - the gyroscope is integrated with each sample's real time step (irregular timestamps;
///   steps within 0.1 % of the nominal period count as the nominal period; `fixedTimeStep`
///   integrates every sample over the nominal period, as VQF);
///   a repeated or backward timestamp integrates nothing (flagged `timeNotIncreasing`); a gap longer than
///   `maximumTimeStep` is integrated as `maximumTimeStep` and flagged;
/// - a magnetometer sample identical to the previous one (a held value from a slower
///   magnetometer) is not applied again, and the magnetometer gains use the real time since
///   the last new sample;
/// - non-finite inputs are skipped and flagged, so no NaN ever reaches the state (a vector
///   whose squared norm overflows, |v| ≳ 1e154, counts as non-finite); an all-zero
///   accelerometer or magnetometer sample (squared norm 0) means "no sample" and is skipped;
/// - accelerometer samples far from 1 g are left out of the inclination correction;
/// - the corrections (inclination, bias Kalman filter, magnetometer, and the low-passes that
///   feed them, on block means) run at `correctionRate` (default 10 Hz), the gyroscope
///   integration and the rest test on every sample; `correctionRate` 0 is VQF's schedule;
/// - a magnetometer offset that moves with the device (a magnet fixed to it) is estimated by a
///   sphere fit and removed (`magneticOffsetEstimation`, Poise's addition).
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
    /// The values derived from `configuration` (filter coefficients, gains, switches).
    @usableFromInline let coefficients: Coefficients
    /// The last sample's inputs and flags, for `deviceMotion` (outputs, not state).
    public var lastSample = LastSample()
    /// The complete state of the estimation; save it and assign it back to resume a run
    /// exactly (the outputs of the next update on are then those of the uninterrupted run).
    public var state: State

    /// Creates an estimator in its initial state.
    public init(configuration: DeviceMotionConfiguration = DeviceMotionConfiguration()) {
        self.configuration = configuration
        self.coefficients = Coefficients(configuration)
        self.state = State(coefficients: coefficients)
    }

    /// Restores the initial state (equal to a fresh estimator with the same configuration).
    public mutating func reset() {
        state = State(coefficients: coefficients)
        lastSample = LastSample()
    }

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
    @inlinable @inline(__always)
    public mutating func update(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                magneticField: SIMD3<Double>? = nil) {
        update(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField, handoff: nil)
    }

    /// `update`, or with a `handoff` the 6D lane's update of a two-lane run
    /// (`DeviceMotionEstimator+Lanes.swift`): the magnetometer sample is admitted but not
    /// applied, and what the magnetometer lane needs is written to `handoff`.
    @inlinable @inline(__always)
    mutating func update(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                         magneticField: SIMD3<Double>?, handoff: UnsafeMutablePointer<LaneSample>?) {
        var flags: DeviceMotion.Flags = []
        var magnetometerFollows = false
        let dt = timeStep(to: time, flags: &flags, magnetometerFollows: &magnetometerFollows)
        // Held and saturated readings: only a sample that repeats an axis of the last one goes
        // out of line to be told apart (rare in a live stream; one compare otherwise).
        let magnitude = rotationRate.replacing(with: -rotationRate, where: rotationRate .< 0)
        if any(rotationRate .== state.previousRotationRate) {
            flags.formUnion(repeatedRotationRate(rotationRate, magnitude: magnitude, time: time))
        }
        state.secondPreviousRotationRate = state.previousRotationRate
        state.previousRotationRate = rotationRate
        state.rotationRatePeak.replace(with: magnitude, where: magnitude .> state.rotationRatePeak .& magnitude .< .infinity)
        // The bias-corrected rate; its squared norm is finite exactly when the sample is
        // usable (the bias is finite and within `biasClip`).
        let rate = SIMD4(rotationRate, 0) - SIMD4(state.bias, 0)
        let rateSquared = fusionSquaredNorm(rate)
        let halfDt = dt * 0.5
        // One update body, `accumulate`, for every schedule, in three copies. The fast path: a
        // gyroscope step whose half angle is within the short polynomials of
        // `fusionCosineAndSinc` (|ω|·dt/2 ≤ 1/32 rad: up to 358 °/s at 100 Hz), with a
        // correction step every several samples, is inlined here with no call but the
        // correction step, so its values stay in registers (and its rate is known to be
        // finite); the default 9D switches get a copy with them as constants. Larger or
        // unusable steps, and correction interval 1 (VQF's schedule, several times costlier
        // per sample anyway), take the same body out of line, where it may call libm.
        if rateSquared * (halfDt * halfDt) <= 1.0 / 1024 {
            let features = coefficients.features
            if features == .default9D {
                accumulate(time: time, dt: dt, flags: flags, acceleration: acceleration, rotationRate: rotationRate,
                           rate: rate, rateSquared: rateSquared, magneticField: magneticField,
                           magnetometerFollows: magnetometerFollows, smallAngle: true, features: .default9D,
                           correctionEverySample: false, handoff: handoff)
            } else if !features.contains(.correctionEverySample) {
                accumulate(time: time, dt: dt, flags: flags, acceleration: acceleration, rotationRate: rotationRate,
                           rate: rate, rateSquared: rateSquared, magneticField: magneticField,
                           magnetometerFollows: magnetometerFollows, smallAngle: true, features: features,
                           correctionEverySample: false, handoff: handoff)
            } else {
                accumulateOutOfLine(time: time, dt: dt, flags: flags, acceleration: acceleration, rotationRate: rotationRate,
                                    rate: rate, rateSquared: rateSquared, magneticField: magneticField,
                                    magnetometerFollows: magnetometerFollows, handoff: handoff)
            }
        } else {
            accumulateOutOfLine(time: time, dt: dt, flags: flags, acceleration: acceleration, rotationRate: rotationRate,
                                rate: rate, rateSquared: rateSquared, magneticField: magneticField,
                                magnetometerFollows: magnetometerFollows, handoff: handoff)
        }
    }

    /// `update` with a magnetometer sample that is always present (units as in
    /// `process(time:…)`): equal to passing it as an optional, but the vector arrives in
    /// registers. Loops that build each sample from buffers (the C API's) call this one: an
    /// optional `SIMD3` is passed through memory, written in pieces by the caller and read
    /// back whole by the update, a load that cannot be forwarded from those stores and waits
    /// for them on every sample. (Out of line on purpose: the update is inlined here, with the
    /// vector in registers.)
    @inline(never)
    public mutating func update(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                magneticField: SIMD3<Double>) {
        update(time: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: Optional(magneticField))
    }

    /// The smallest magnitude at which a plateau counts as saturation, rad/s (57 °/s; the
    /// smallest full scale of MEMS gyroscopes is 125 °/s): below it a repeated extreme is
    /// quantisation of a slow rate, not clipping.
    @usableFromInline static let saturationMinimumRate = 1.0

    /// The flags of a rotation rate that repeats at least one axis of the last sample's exactly:
    /// `heldSample` when every axis does; `gyroscopeSaturated` when an axis repeats the last two
    /// samples' value (a plateau of three) at the largest magnitude any axis has reported
    /// (before this sample; ≥ `saturationMinimumRate`) while another axis changed (a wholly held
    /// row cannot tell a plateau from a hold). A plateau of two, or one below the largest
    /// magnitude, is the quantisation of a smooth peak (BROAD's gyroscope has such plateaus and
    /// no clipping). Records the time of a saturated sample and, with `saturationBiasHoldOff`,
    /// restarts the inclination and bias-measurement low-passes and pauses the field-direction
    /// test for that long (magnetometer time).
    @usableFromInline @inline(never)
    mutating func repeatedRotationRate(_ rotationRate: SIMD3<Double>, magnitude: SIMD3<Double>, time: Double) -> DeviceMotion.Flags {
        let repeated = rotationRate .== state.previousRotationRate
        if all(repeated) { return .heldSample }
        let peak = state.rotationRatePeak.max()
        let plateau = repeated .& (state.previousRotationRate .== state.secondPreviousRotationRate)
            .& (magnitude .>= peak) .& (magnitude .>= Self.saturationMinimumRate)
        guard any(plateau) else { return [] }
        if time.isFinite { state.lastSaturationTime = time }
        if coefficients.saturationBiasHoldOff > 0 {
            // The clipped rate has turned the gyroscope earth frame away from the accelerometer's
            // up: restart the inclination low-pass (and the bias measurement's), so that after
            // the plateau it starts again from the mean of the new samples (as at the first
            // sample) instead of turning its old output over seconds.
            state.accelerometerLowPass = .init()
            state.motionBiasLowPass = .init()
            state.magneticDirectionPause = coefficients.saturationBiasHoldOff
        }
        return .gyroscopeSaturated
    }

    /// The time step to `time` from the last sample, s (the nominal period for the first one),
    /// and records `time` as the last one; flags gaps and non-finite timestamps.
    /// `magnetometerFollows` is set when the step is regular (in (0, `maximumTimeStep`], so
    /// `time` is finite) and the last magnetometer sample applied was the last sample's: a
    /// magnetometer sample now covers the same `dt`.
    @inlinable @inline(__always)
    mutating func timeStep(to time: Double, flags: inout DeviceMotion.Flags, magnetometerFollows: inout Bool) -> Double {
        guard let last = state.lastTime else {
            if time.isFinite { state.lastTime = time } else { flags.insert(.invalidInput) }
            return coefficients.period
        }
        let d = time - last
        // The common case first: the nominal period give or take 0.1 %.
        if d >= coefficients.nominalStepMinimum && d <= coefficients.nominalStepMaximum {
            if let t = state.lastMagneticTime { magnetometerFollows = t == last }
            state.lastTime = time
            return coefficients.period
        }
        // Other steps in (0, maximumTimeStep] (`time` is then finite, as `last` is).
        if d > 0 && d <= coefficients.maximumTimeStep {
            if let t = state.lastMagneticTime { magnetometerFollows = t == last }
            state.lastTime = time
            return Self.regularStep(d, coefficients)
        }
        // A repeated, backward or non-finite timestamp (+∞ included: the step is unknown, not a
        // gap) integrates nothing and is flagged; a gap integrates `maximumTimeStep` and is
        // flagged. With `fixedTimeStep` both are flagged and integrate the period.
        let fixed = coefficients.fixedTimeStep
        guard time.isFinite else {
            flags.insert(.invalidInput)
            return fixed ? coefficients.period : 0
        }
        state.lastTime = time
        guard d > 0 else {
            flags.insert(.timeNotIncreasing)
            return fixed ? coefficients.period : 0
        }
        flags.insert(.timeGap)
        return fixed ? coefficients.period : coefficients.maximumTimeStep
    }

    /// The time step for an interval `d` in (0, `maximumTimeStep`], s: the nominal period when
    /// `d` is within 0.1 % of it (rounding jitter of the timestamps, e.g. index/rate printed to
    /// 1 µs), else `d`; always the period with `fixedTimeStep` (its tolerance is then infinite).
    @inlinable @inline(__always)
    static func regularStep(_ d: Double, _ c: Coefficients) -> Double {
        (d - c.period).magnitude > c.periodTolerance ? d : c.period
    }

    /// When a usable, non-zero magnetometer sample `m` is applied: unless it is a held value
    /// that is to be skipped. Returns the time it covers, s (by the rules of `timeStep`, from
    /// the last magnetometer sample applied; `dt` when that was the last sample's), and
    /// records it as the last one.
    @inlinable @inline(__always)
    mutating func acceptMagnetometer(_ m: SIMD3<Double>, time: Double, dt: Double, follows: Bool, skipHeld: Bool) -> Double? {
        guard !(skipHeld && m == state.lastMagneticField) else { return nil }
        var dtMag = dt
        if !follows {
            // The first magnetometer sample covers one period, like the first sample.
            dtMag = coefficients.period
            if let t = state.lastMagneticTime, !coefficients.fixedTimeStep {
                let d = time - t
                dtMag = d > 0 && d <= coefficients.maximumTimeStep ? Self.regularStep(d, coefficients)
                    : (d > 0 && time.isFinite ? coefficients.maximumTimeStep : 0)
            }
        }
        if skipHeld { state.lastMagneticField = m }
        if follows || time.isFinite { state.lastMagneticTime = time }
        return dtMag
    }

    /// Whether a magnetometer sample is applied: when it is usable (else flagged), not zero
    /// (absent) and accepted (`acceptMagnetometer`). Returns the time it covers, s.
    @inlinable @inline(__always)
    mutating func admitMagnetometer(_ m: SIMD3<Double>, time: Double, dt: Double, follows: Bool, skipHeld: Bool,
                                    flags: inout DeviceMotion.Flags) -> Double? {
        let squaredNorm = fusionSquaredNorm(m)
        guard squaredNorm < .infinity else {
            flags.insert(.invalidInput)
            return nil
        }
        guard squaredNorm != 0 else { return nil }
        return acceptMagnetometer(m, time: time, dt: dt, follows: follows, skipHeld: skipHeld)
    }

    /// Adds an admitted magnetometer sample covering `dtMag` s, less the estimated offset
    /// (`State.magneticOffset`) and rotated into the gyroscope earth frame by `earth`, to the
    /// sum averaged until the next correction.
    @inlinable @inline(__always)
    mutating func addMagnetometer(_ m: SIMD3<Double>, covering dtMag: Double, earth: FusionRotation) {
        state.magneticOffsetSample = m
        state.magneticFieldSum += earth.rotate(SIMD4(m - state.magneticOffset, 1))
        state.magneticElapsed += dtMag
    }

    /// `accumulate` out of line, for any gyroscope step (it may call libm) and any schedule.
    @usableFromInline @inline(never)
    mutating func accumulateOutOfLine(time: Double, dt: Double, flags: DeviceMotion.Flags, acceleration: SIMD3<Double>,
                                      rotationRate: SIMD3<Double>, rate: SIMD4<Double>, rateSquared: Double,
                                      magneticField: SIMD3<Double>?, magnetometerFollows: Bool,
                                      handoff: UnsafeMutablePointer<LaneSample>?) {
        let features = coefficients.features
        accumulate(time: time, dt: dt, flags: flags, acceleration: acceleration, rotationRate: rotationRate,
                   rate: rate, rateSquared: rateSquared, magneticField: magneticField,
                   magnetometerFollows: magnetometerFollows, smallAngle: false, features: features,
                   correctionEverySample: features.contains(.correctionEverySample), handoff: handoff)
    }

    /// The update body, for every schedule: the gyroscope step, the rest test, the sums of the
    /// block means, and the correction step when this sample completes a block of
    /// `correctionInterval` counted samples. The rest test compares each sample with the rest
    /// low-pass outputs of the last completed block; with `correctionInterval` 1 (VQF's
    /// schedule, `correctionEverySample`, the `Features` bit of that name, a separate argument
    /// so that the inlined copies, which pass `false`, have no trace of it) the sample is its
    /// own block, so its rest low-passes run before its test, as in VQF. The rest timer and flag
    /// are kept in locals until the end (or the correction step).
    /// `dt` and `flags` come from `timeStep(to: time)`, `rate` is the bias-corrected rotation
    /// rate (rad/s, 4th lane 0) and `rateSquared` its squared norm; `smallAngle`: the caller has
    /// checked that the gyroscope step's squared half angle is at most 1/1024 (so the rate is
    /// finite); `handoff`: the 6D lane's update of a two-lane run (see `update(…handoff:)`).
    @inlinable @inline(__always)
    mutating func accumulate(time: Double, dt: Double, flags: DeviceMotion.Flags, acceleration: SIMD3<Double>,
                             rotationRate: SIMD3<Double>, rate: SIMD4<Double>, rateSquared: Double,
                             magneticField: SIMD3<Double>?, magnetometerFollows: Bool, smallAngle: Bool,
                             features: Features, correctionEverySample: Bool, handoff: UnsafeMutablePointer<LaneSample>?) {
        var flags = flags
        // (The 6D lane of a two-lane run leaves `lastSample` to the magnetometer lane.)
        if handoff == nil {
            lastSample.acceleration = acceleration
            lastSample.rotationRate = rotationRate
        }
        // 4th lane 1: it counts the samples in the block sums.
        let gyr = SIMD4(rotationRate, 1), acc = SIMD4(acceleration, 1)
        var restTime = state.restTime, restDetected = state.restDetected
        var counts = false
        let attitude: Quaternion<Double>
        if smallAngle || rateSquared < .infinity {
            counts = true
            if let handoff { handoff.pointee.integrated = true } else { lastSample.integratedRotationRate = rotationRate }
            if features.contains(.restDetection) {
                state.restGyroscopeSum += gyr
                if correctionEverySample { filterRestGyroscopeBlock() }
                if fusionSquaredNorm(gyr - state.restGyroscopeMean) >= coefficients.restGyroscopeThresholdSquared
                    || !state.restGyroscopeMeanWithinClip {
                    restTime = 0
                    restDetected = false
                }
            }
            attitude = integrateGyroscope(rate: rate, squaredNorm: rateSquared, dt: dt, smallAngle: smallAngle)
        } else {
            flags.insert(.invalidInput)
            attitude = state.gyroscopeAttitude
        }
        // The gyroscope earth frame after this step, for the accelerometer and magnetometer
        // (from the registers, not reloaded from the state).
        let earth = FusionRotation(attitude)
        let accelerationSquared = fusionSquaredNorm(acc)
        // Accepted for the inclination (two compares; the range excludes 0 and ∞), or else
        // usable (finite, not zero) but rejected.
        let accepted = accelerationSquared >= coefficients.accelerationAcceptedLowest
            && accelerationSquared <= coefficients.accelerationAcceptedHighest
        if !accepted && !(accelerationSquared < .infinity) {
            flags.insert(.invalidInput)
            if let handoff { handoff.pointee.accelerationDropped = true } else { lastSample.acceleration = .zero }
        } else if accepted || accelerationSquared != 0 {
            if features.contains(.restBiasEstimation) {
                state.restAccelerometerSum += acc
                if correctionEverySample { filterRestAccelerometerBlock() }
                if fusionSquaredNorm(acc - state.restAccelerometerMean) >= coefficients.restAccelerometerThresholdSquared {
                    restTime = 0
                    restDetected = false
                } else {
                    restTime += dt
                    if restTime >= coefficients.restMinimumTime { restDetected = true }
                }
            }
            if accepted {
                state.accelerometerEarthSum += earth.rotate(acc)
            } else {
                flags.insert(.accelerationRejected)
            }
            state.pendingAccelerometer = true
            counts = true
        }
        state.restTime = restTime
        state.restDetected = restDetected  // (the correction step does not change it)
        if features.contains(.magnetometer), let m = magneticField,
           let dtMag = admitMagnetometer(m, time: time, dt: dt, follows: magnetometerFollows,
                                         skipHeld: features.contains(.skipHeldMagnetometerSamples), flags: &flags) {
            if let handoff {
                handoff.pointee.magneticStep = dtMag
                handoff.pointee.magnetometerAdmitted = true
            } else {
                addMagnetometer(m, covering: dtMag, earth: earth)
            }
            counts = true
        }
        handoff?.pointee.attitude = attitude
        if counts {
            state.samplesToCorrection &-= 1
            if state.samplesToCorrection <= 0 {
                correct()
                handoff?.pointee.corrected = true
            }
        }
        if restDetected { flags.insert(.atRest) }
        if let handoff {
            handoff.pointee.flags = flags
        } else {
            if features.contains(.magnetometer) && state.magneticDisturbanceDetected { flags.insert(.magneticDisturbance) }
            lastSample.flags = flags
        }
    }

    /// The correction step, every `correctionInterval` counted samples: renormalising the
    /// gyroscope quaternion, the low-passes on the block means, inclination correction, bias
    /// Kalman filter and magnetometer (heading and disturbance) update, with coefficients
    /// designed for the correction period (`correctionInterval` × period).
    @usableFromInline @inline(never)
    mutating func correct() {
        state.samplesToCorrection = coefficients.correctionInterval
        renormalizeGyroscopeAttitude()
        filterBlockMeans()
        if state.pendingAccelerometer {
            state.pendingAccelerometer = false
            if let a = correctInclination(), coefficients.motionBiasEstimation || coefficients.restBiasEstimation {
                // The first correction aligns the initial inclination; with a correction
                // period of several samples it is not a rate measurement of the bias (VQF,
                // correcting every sample, treats it as one; kept for interval 1).
                let aligning = !state.inclinationAligned && coefficients.correctionInterval > 1
                // Nor is the correction that follows a clipped rate (`saturationBiasHoldOff`).
                let saturated = coefficients.saturationBiasHoldOff > 0
                    && (state.lastTime ?? 0) - state.lastSaturationTime < coefficients.saturationBiasHoldOff
                estimateBias(accelerationEarth: a, attitude6D: fusionProduct(state.inclinationCorrection, state.gyroscopeAttitude),
                             motionMeasurement: !aligning && !saturated)
                state.inclinationAligned = true
            }
        }
        correctMagnetometer()
    }

    /// The correction step's magnetometer part (heading, disturbance and offset), when
    /// magnetometer samples were summed since the last one. It reads of the rest of the state
    /// only `inclinationCorrection` and `restGyroscopeMean`, as the correction step has just
    /// set them.
    @inlinable @inline(__always)
    mutating func correctMagnetometer() {
        if state.magneticFieldSum.w > 0 {
            let sum = state.magneticFieldSum
            let count = sum.w
            let mean = count == 1 ? SIMD3(sum.x, sum.y, sum.z) : SIMD3(sum.x, sum.y, sum.z) / count
            let dt = state.magneticElapsed
            state.magneticFieldSum = .zero; state.magneticElapsed = 0
            updateMagnetometer(earthField: fusionRotate(state.inclinationCorrection, mean), dt: dt)
            if coefficients.magneticOffsetEstimation { estimateMagneticOffset() }
            if state.arbitraryHeadingOffset == nil { state.arbitraryHeadingOffset = state.headingCorrection }
        }
    }

    // MARK: Gyroscope: strapdown integration and rest detection

    /// The strapdown step for a bias-corrected rate `w` (rad/s, 4th lane 0) whose squared norm
    /// `n2` the caller has computed; `smallAngle`: n2·(dt/2)² ≤ 1/1024 is known. Returns the new
    /// gyroscope attitude (also stored).
    @inlinable @inline(__always)
    @discardableResult
    mutating func integrateGyroscope(rate w: SIMD4<Double>, squaredNorm n2: Double, dt: Double,
                                     smallAngle: Bool) -> Quaternion<Double> {
        // (On the small-angle path a zero rate or step gives the step (1, 0, 0, 0) exactly, so
        // the test is only needed before the libm fallback.)
        guard smallAngle || (n2 > Double.ulpOfOne * Double.ulpOfOne && dt > 0) else { return state.gyroscopeAttitude }
        // Exact quaternion exponential of ω·dt: (cos(|ω|dt/2), sin(|ω|dt/2)/|ω| · ω), with
        // sin(x)/|ω| = sinc(x)·dt/2, so no division.
        let halfDt = dt * 0.5
        let x2 = n2 * (halfDt * halfDt)
        let (cosine, sinc) = smallAngle ? fusionCosineAndSincShort(squared: x2) : fusionCosineAndSinc(squared: x2)
        let s = sinc * halfDt
        let step = Quaternion(w: cosine, x: s * w.x, y: s * w.y, z: s * w.z)
        // The product of two unit quaternions is unit to a few ulp; it is renormalised at each
        // correction step.
        let attitude = fusionProduct(state.gyroscopeAttitude, step)
        state.gyroscopeAttitude = attitude
        return attitude
    }

    @inlinable @inline(__always)
    mutating func renormalizeGyroscopeAttitude() {
        let q = state.gyroscopeAttitude
        state.gyroscopeAttitude = fusionNormalized(w: q.w, x: q.x, y: q.y, z: q.z)
    }

    // MARK: Accelerometer: inclination correction and bias estimation

    /// The mean of a block sum (its 4th lane is the count, > 0; the mean's is 0). A full block
    /// is scaled by `inverseCorrectionInterval` (exactly 1 for interval 1).
    @inlinable @inline(__always)
    func blockMean(_ sum: SIMD4<Double>) -> SIMD4<Double> {
        let count = sum.w
        var m = sum * (count == Double(coefficients.correctionInterval) ? coefficients.inverseCorrectionInterval : 1 / count)
        m.w = 0
        return m
    }

    /// Runs the rest gyroscope low-pass on its block's mean (if the block has a sample) and
    /// empties the block.
    @inlinable @inline(__always)
    mutating func filterRestGyroscopeBlock() {
        guard state.restGyroscopeSum.w > 0 else { return }
        let lp = state.restGyroscopeLowPass.step(blockMean(state.restGyroscopeSum), coefficients.restGyroscopeLowPass)
        state.restGyroscopeSum = .zero
        state.restGyroscopeMean = lp
        let clip = coefficients.biasClip
        state.restGyroscopeMeanWithinClip = !(lp.x.magnitude > clip || lp.y.magnitude > clip || lp.z.magnitude > clip)
    }

    /// Runs the rest accelerometer low-pass on its block's mean (if the block has a sample) and
    /// empties the block.
    @inlinable @inline(__always)
    mutating func filterRestAccelerometerBlock() {
        guard state.restAccelerometerSum.w > 0 else { return }
        state.restAccelerometerMean = state.restAccelerometerLowPass.step(blockMean(state.restAccelerometerSum),
                                                                          coefficients.restAccelerometerLowPass)
        state.restAccelerometerSum = .zero
    }

    /// The low-pass filters of a correction step: each runs once on the mean of its block
    /// (coefficients designed for the correction period). With `correctionInterval` 1 the rest
    /// blocks were already filtered by the sample's update (and are empty here).
    @inlinable @inline(__always)
    mutating func filterBlockMeans() {
        filterRestGyroscopeBlock()
        filterRestAccelerometerBlock()
        if state.accelerometerEarthSum.w > 0 {
            let lp = state.accelerometerLowPass.step(blockMean(state.accelerometerEarthSum), coefficients.accelerometerLowPass)
            state.accelerometerEarthSum = .zero
            state.accelerometerMean = SIMD3(lp.x, lp.y, lp.z)
        }
    }

    /// Inclination correction (at the correction rate): rotates the low-passed specific force
    /// onto +z. Returns it normalised in the 6D earth frame before the correction (the bias
    /// measurement), or nil before the low-pass has any output.
    @inlinable @inline(__always)
    mutating func correctInclination() -> SIMD3<Double>? {
        guard state.accelerometerMean != .zero else { return nil }
        // Bring it into the 6D earth frame and correct the inclination so it points up.
        let i = state.inclinationCorrection
        var a = fusionRotate(i, state.accelerometerMean)
        let an = (a * a).sum().squareRoot()
        if an > Double.ulpOfOne { a *= 1 / an }
        let qw = ((a.z + 1) * 0.5).squareRoot()
        if qw > 1e-6 {
            // correction = (qw, a.y/(2qw), −a.x/(2qw), 0), a unit quaternion; correction ⊗ i:
            let h = 0.5 / qw
            let cx = a.y * h, cy = -a.x * h
            state.inclinationCorrection = fusionNormalized(
                w: qw * i.w - cx * i.x - cy * i.y,
                x: qw * i.x + cx * i.w + cy * i.z,
                y: qw * i.y - cx * i.z + cy * i.w,
                z: qw * i.z + cx * i.y - cy * i.x)
        } else {
            // Pointing straight down: turn half a revolution about x.
            state.inclinationCorrection = fusionNormalized(w: -i.x, x: i.w, y: -i.z, z: i.y)
        }
        return a
    }

    /// The gyroscope-bias Kalman filter (VQF's 3-state filter, covariance in (0.01 °/s)²),
    /// written out in scalars for a symmetric covariance: with M = P Rᵀ and S = R M + W,
    /// K = M S⁻¹, b ← b + K e, P ← P − K Mᵀ (= P − K R P).
    @inlinable @inline(__always)
    mutating func estimateBias(accelerationEarth a: SIMD3<Double>, attitude6D q: Quaternion<Double>, motionMeasurement: Bool) {
        let (bx, by, bz) = (state.bias.x, state.bias.y, state.bias.z)
        // Rotation matrix R of the 6D attitude (rows r0, r1, r2), low-passed together with
        // R·b (x, y); the identity for the rest measurement.
        var (r00, r01, r02) = (1.0, 0.0, 0.0)
        var (r10, r11, r12) = (0.0, 1.0, 0.0)
        var (r20, r21, r22) = (0.0, 0.0, 1.0)
        var (lpx, lpy) = (0.0, 0.0)
        if coefficients.motionBiasEstimation {
            let m = FusionRotationMatrix(q)
            let rbx = fusionDot(m.r00, bx, m.r01, by, m.r02, bz), rby = fusionDot(m.r10, bx, m.r11, by, m.r12, bz)
            let packed = SIMD16<Double>(m.r00, m.r01, m.r02, m.r10, m.r11, m.r12, m.r20, m.r21, m.r22, rbx, rby, 0, 0, 0, 0, 0)
            let f = state.motionBiasLowPass.step(packed, coefficients.motionBiasLowPass)
            (r00, r01, r02) = (f[0], f[1], f[2]); (r10, r11, r12) = (f[3], f[4], f[5]); (r20, r21, r22) = (f[6], f[7], f[8])
            (lpx, lpy) = (f[9], f[10])
        }
        // P ← P + V (up to the initial variance).
        var p = state.biasP
        if p.r0.x < coefficients.biasP0 { p.r0.x += coefficients.biasV }
        if p.r1.y < coefficients.biasP0 { p.r1.y += coefficients.biasV }
        if p.r2.z < coefficients.biasP0 { p.r2.z += coefficients.biasV }
        let (p00, p01, p02, p11, p12, p22) = (p.r0.x, p.r0.y, p.r0.z, p.r1.y, p.r1.z, p.r2.z)
        let clip = coefficients.biasClip
        var (ex, ey, ez): (Double, Double, Double)
        var (w0, w1, w2): (Double, Double, Double)
        if state.restDetected && coefficients.restBiasEstimation {
            let lp = state.restGyroscopeMean
            (ex, ey, ez) = (lp.x - bx, lp.y - by, lp.z - bz)
            (r00, r01, r02) = (1, 0, 0); (r10, r11, r12) = (0, 1, 0); (r20, r21, r22) = (0, 0, 1)
            (w0, w1, w2) = (coefficients.biasRestW, coefficients.biasRestW, coefficients.biasRestW)
        } else if coefficients.motionBiasEstimation && motionMeasurement {
            ex = lpx.addingProductFast(-a.y, coefficients.inverseCorrectionPeriod) - fusionDot(r00, bx, r01, by, r02, bz)
            ey = lpy.addingProductFast(a.x, coefficients.inverseCorrectionPeriod) - fusionDot(r10, bx, r11, by, r12, bz)
            ez = -fusionDot(r20, bx, r21, by, r22, bz)
            (w0, w1, w2) = (coefficients.biasMotionW, coefficients.biasMotionW, coefficients.biasVerticalW)
        } else {
            state.biasP = p
            return
        }
        (ex, ey, ez) = (fusionClamp(ex, clip), fusionClamp(ey, clip), fusionClamp(ez, clip))
        // M = P Rᵀ: m_ij = p_i · r_j (P symmetric).
        let m00 = fusionDot(p00, r00, p01, r01, p02, r02), m01 = fusionDot(p00, r10, p01, r11, p02, r12)
        let m02 = fusionDot(p00, r20, p01, r21, p02, r22), m10 = fusionDot(p01, r00, p11, r01, p12, r02)
        let m11 = fusionDot(p01, r10, p11, r11, p12, r12), m12 = fusionDot(p01, r20, p11, r21, p12, r22)
        let m20 = fusionDot(p02, r00, p12, r01, p22, r02), m21 = fusionDot(p02, r10, p12, r11, p22, r12)
        let m22 = fusionDot(p02, r20, p12, r21, p22, r22)
        // S = R M + W (symmetric): s_ij = r_i · column j of M.
        let s00 = fusionDot(r00, m00, r01, m10, r02, m20) + w0
        let s01 = fusionDot(r00, m01, r01, m11, r02, m21)
        let s02 = fusionDot(r00, m02, r01, m12, r02, m22)
        let s11 = fusionDot(r10, m01, r11, m11, r12, m21) + w1
        let s12 = fusionDot(r10, m02, r11, m12, r12, m22)
        let s22 = fusionDot(r20, m02, r21, m12, r22, m22) + w2
        // S⁻¹ from the cofactors (no update when |det| ≤ ε, as VQF).
        let c00 = (s11 * s22).addingProductFast(-s12, s12), c01 = (s02 * s12).addingProductFast(-s01, s22)
        let c02 = (s01 * s12).addingProductFast(-s02, s11), c11 = (s00 * s22).addingProductFast(-s02, s02)
        let c12 = (s01 * s02).addingProductFast(-s00, s12), c22 = (s00 * s11).addingProductFast(-s01, s01)
        let det = fusionDot(s00, c00, s01, c01, s02, c02)
        guard det.magnitude > Double.ulpOfOne else {
            state.biasP = p
            return
        }
        let d = 1 / det
        let i00 = c00 * d, i01 = c01 * d, i02 = c02 * d, i11 = c11 * d, i12 = c12 * d, i22 = c22 * d
        // K = M S⁻¹.
        let k00 = fusionDot(m00, i00, m01, i01, m02, i02), k01 = fusionDot(m00, i01, m01, i11, m02, i12)
        let k02 = fusionDot(m00, i02, m01, i12, m02, i22), k10 = fusionDot(m10, i00, m11, i01, m12, i02)
        let k11 = fusionDot(m10, i01, m11, i11, m12, i12), k12 = fusionDot(m10, i02, m11, i12, m12, i22)
        let k20 = fusionDot(m20, i00, m21, i01, m22, i02), k21 = fusionDot(m20, i01, m21, i11, m22, i12)
        let k22 = fusionDot(m20, i02, m21, i12, m22, i22)
        state.bias = SIMD3(fusionClamp(bx + fusionDot(k00, ex, k01, ey, k02, ez), clip),
                           fusionClamp(by + fusionDot(k10, ex, k11, ey, k12, ez), clip),
                           fusionClamp(bz + fusionDot(k20, ex, k21, ey, k22, ez), clip))
        // P ← P − K Mᵀ: (K Mᵀ)_ij = k_i · m_j.
        let n00 = p00 - fusionDot(k00, m00, k01, m01, k02, m02)
        let n01 = p01 - fusionDot(k00, m10, k01, m11, k02, m12)
        let n02 = p02 - fusionDot(k00, m20, k01, m21, k02, m22)
        let n11 = p11 - fusionDot(k10, m10, k11, m11, k12, m12)
        let n12 = p12 - fusionDot(k10, m20, k11, m21, k12, m22)
        let n22 = p22 - fusionDot(k20, m20, k21, m21, k22, m22)
        state.biasP = Matrix3(SIMD3(n00, n01, n02), SIMD3(n01, n11, n12), SIMD3(n02, n12, n22))
    }

    // MARK: Magnetometer: heading correction and disturbance rejection

    @inlinable @inline(__always)
    mutating func updateMagnetometer(earthField m: SIMD3<Double>, dt: Double) {
        let nominal = (dt - coefficients.correctionPeriod).magnitude <= 1e-9 * coefficients.correctionPeriod
        if coefficients.magneticDisturbanceRejection {
            let norm = (m * m).sum().squareRoot()
            let dip = -fusionArcsine(Swift.max(-1, Swift.min(1, m.z / norm)))
            var nd = SIMD2(norm, dip)
            if coefficients.magneticCurrentLowPassEnabled {
                nd = state.magneticNormDipLowPass.step(nd, coefficients.magneticCurrentLowPass)
            }
            let kRef = nominal ? coefficients.magneticReferenceGain : Self.gain(dt: dt, inverseTau: coefficients.inverseMagneticReferenceTau)
            if (nd.x - state.magneticReferenceNorm).magnitude < coefficients.magneticNormThreshold * state.magneticReferenceNorm
                && (nd.y - state.magneticReferenceDip).magnitude < coefficients.magneticDipThreshold {
                state.magneticUndisturbedTime += dt
                if state.magneticUndisturbedTime >= coefficients.magneticMinimumUndisturbedTime {
                    state.magneticDisturbanceDetected = false
                    state.magneticReferenceNorm += kRef * (nd.x - state.magneticReferenceNorm)
                    state.magneticReferenceDip += kRef * (nd.y - state.magneticReferenceDip)
                }
            } else {
                state.magneticUndisturbedTime = 0
                state.magneticDisturbanceDetected = true
            }
            if (nd.x - state.magneticCandidateNorm).magnitude < coefficients.magneticNormThreshold * state.magneticCandidateNorm
                && (nd.y - state.magneticCandidateDip).magnitude < coefficients.magneticDipThreshold {
                if (state.restGyroscopeMean * state.restGyroscopeMean).sum() >= coefficients.magneticNewFieldMinimumRateSquared {
                    state.magneticCandidateTime += dt
                }
                state.magneticCandidateNorm += kRef * (nd.x - state.magneticCandidateNorm)
                state.magneticCandidateDip += kRef * (nd.y - state.magneticCandidateDip)
                if state.magneticDisturbanceDetected
                    && (state.magneticCandidateTime >= coefficients.magneticNewFieldTime
                        || (state.magneticReferenceNorm == 0 && state.magneticCandidateTime >= coefficients.magneticNewFirstFieldTime)) {
                    state.magneticReferenceNorm = state.magneticCandidateNorm
                    state.magneticReferenceDip = state.magneticCandidateDip
                    state.magneticDisturbanceDetected = false
                    state.magneticUndisturbedTime = coefficients.magneticMinimumUndisturbedTime
                }
            } else {
                state.magneticCandidateTime = 0
                state.magneticCandidateNorm = nd.x
                state.magneticCandidateDip = nd.y
            }
        }
        // Heading disagreement: the horizontal field should point along +y (north). It is
        // atan2(m.x, m.y) − headingCorrection wrapped to (−π, π], computed as the angle of the
        // horizontal field rotated by −headingCorrection (cos/sin of it are kept with the state
        // and recomputed whenever headingCorrection was changed from outside).
        let h = state.headingCorrection
        var (hc, hs) = (state.headingCosine, state.headingSine)
        if state.headingCacheAngle != h { hc = Double.cos(h); hs = Double.sin(h) }
        let along = m.y * hc + m.x * hs, across = m.x * hc - m.y * hs
        var disagreement: Double
        if along == 0 && across == 0 {
            disagreement = -h  // atan2(0, 0) − h
            if disagreement > .pi { disagreement -= 2 * .pi } else if disagreement < -.pi { disagreement += 2 * .pi }
        } else {
            disagreement = fusionArctangent2(y: across, x: along)
        }
        var k = nominal ? coefficients.magnetometerGain : Self.gain(dt: dt, inverseTau: coefficients.inverseMagnetometerTau)
        // (not during the initial convergence, whose disagreement starts anywhere)
        // (nor while paused after a clipped gyroscope sample: the jump is the gyroscope's heading
        // error, for the magnetometer to correct at its full gain)
        if coefficients.magneticDirectionTest && !directionConsistent(disagreement) && state.magneticInitialGain == 0
            && state.magneticDirectionPause <= 0 { k *= coefficients.magneticDirectionGainFactor }
        if state.magneticDirectionPause > 0 { state.magneticDirectionPause -= dt }
        if coefficients.magneticDisturbanceRejection {
            if state.magneticDisturbanceDetected {
                if state.magneticRejectionTime <= coefficients.magneticMaximumRejectionTime {
                    state.magneticRejectionTime += dt
                    k = 0
                } else {
                    k /= coefficients.magneticRejectionFactor
                }
            } else {
                state.magneticRejectionTime = Swift.max(state.magneticRejectionTime - coefficients.magneticRejectionFactor * dt, 0)
            }
        }
        // Fast initial convergence: gain at least 1/N for the N-th sample until t > τ.
        if state.magneticInitialGain != 0 {
            if k < state.magneticInitialGain { k = state.magneticInitialGain }
            state.magneticInitialGain = state.magneticInitialGain / (state.magneticInitialGain + 1)
            if state.magneticInitialGain * coefficients.magnetometerTau < coefficients.correctionPeriod { state.magneticInitialGain = 0 }
        }
        let step = k * disagreement
        guard step != 0 else {
            state.headingCosine = hc; state.headingSine = hs; state.headingCacheAngle = h
            return
        }
        var delta = h + step
        if delta > .pi { delta -= 2 * .pi } else if delta < -.pi { delta += 2 * .pi }
        state.headingCorrection = delta
        // Rotate the cached (cos, sin) by the step; renormalise with one Newton step.
        if step.magnitude <= 0.25 {
            let (cs, sinc) = fusionCosineAndSinc(squared: step * step)
            let ss = sinc * step
            let nc = hc * cs - hs * ss, ns = hs * cs + hc * ss
            let f = 1.5 - 0.5 * (nc * nc + ns * ns)
            state.headingCosine = nc * f; state.headingSine = ns * f
        } else {
            state.headingCosine = Double.cos(delta); state.headingSine = Double.sin(delta)
        }
        state.headingCacheAngle = delta
    }

    /// 1 − exp(−dt/τ) (the first-order filter gain for a step of dt). For dt/τ ≤ 0.01 (every
    /// sensor rate in practice) the cubic Taylor polynomial is used: error below 5e-10.
    @inlinable @inline(__always)
    static func gain(dt: Double, inverseTau: Double) -> Double {
        let x = dt * inverseTau
        if !(x <= 0.01) { return 1 - Double.exp(-x) }
        return x * (1 - x * (0.5 - x * (1.0 / 6)))
    }
}
