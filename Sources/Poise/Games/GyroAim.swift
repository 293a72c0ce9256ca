/// Gyro aiming: the device's rotation rate turns a game camera, as the best gyro-aiming tools
/// do it (GyroWiki; JoyShockMapper; GamepadMotionHelpers).
///
/// Per sample, in order:
/// 1. **Calibration** (`GyroCalibration`): the bias is learned while the device is still and
///    subtracted.
/// 2. **Space** (`GyroSpace`): the calibrated rate becomes a camera turn rate (yaw, pitch) in
///    °/s. Player and world space need the up direction: the `gravity` passed in (for example
///    from a `fusion:6d` stage), else Poise's own 6D device-motion fusion
///    (`DeviceMotionEstimator`, reference `arbitraryZVertical`) run on the raw samples here.
/// 3. **Speed bound**: a turn faster than `maximumSpeed` is scaled down to it (`limited`).
/// 4. **Tiered smoothing** (`TieredSmoothing`) of the turn rate, on the sample's own period.
/// 5. **Sensitivity** (`GyroSensitivity`) at the smoothed speed, pitch ratio and inversion.
/// 6. **Integration**: the camera turns by rate × dt, dt = this sample's time − the previous
///    sample's, so irregular timing is exact (a constant-rate turn of 360° at sensitivity 1 gives
///    a 360° camera turn whatever the spacing of the samples). The first sample only starts the
///    clock. A step longer than `maximumTimeStep` is integrated over that long (`gap`); a time that
///    does not increase turns nothing (`timeNotIncreasing`); a non-finite time or rate turns
///    nothing (`invalid`) and is not used by any state, so NaN never reaches the camera.
///
/// Game loop: call `process` for every sample as it arrives and `takeFrame()` once per rendered
/// frame, which returns the sum since the previous frame (with whole mouse counts, the remainder
/// carried). For a recording on a frame clock use `GyroAimFrames`.
///
/// Units and frames: time s; rotation rate rad/s and acceleration g, device frame (+X right, +Y
/// top edge, +Z out of the screen; remap a phone held in landscape first); camera angles in
/// degrees, yaw positive = turn right, pitch positive = look up. Nothing allocates per sample.
public struct GyroAim: Sendable {
    /// The settings (validated at init).
    public let settings: GyroAimSettings
    /// Bias calibration (manual calibration, save and restore go through it).
    public var calibration: GyroCalibration
    var smoothing: TieredSmoothing<SIMD2<Double>>
    var gravityEstimator: DeviceMotionEstimator
    var up: SIMD3<Double>?
    var lastTime: Double?
    var pending = GyroAimFrame(yaw: 0, pitch: 0, counts: .zero, sampleCount: 0, flags: [])
    var countRemainder = SIMD2<Double>.zero
    let initial: (TieredSmoothing<SIMD2<Double>>, DeviceMotionEstimator, GyroCalibration)
    let saturationRate: Double
    let maximumSpeed: Double

    /// - Throws: `OrientationSettingsError` naming the bad setting.
    public init(settings: GyroAimSettings = GyroAimSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        calibration = try GyroCalibration(settings: settings.calibration)
        smoothing = try TieredSmoothing(threshold: settings.smoothingThreshold, timeConstant: settings.smoothingTimeConstant,
                                        sampleRate: settings.sampleRate)
        gravityEstimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: settings.sampleRate,
                                                                                          reference: .arbitraryZVertical))
        initial = (smoothing, gravityEstimator, calibration)
        saturationRate = 0.995 * settings.gyroscopeRange * Units.radiansPerDegree
        maximumSpeed = settings.maximumSpeed
    }

    /// The up direction in use (unit, device frame), nil before one is known.
    public var upDirection: SIMD3<Double>? { up }

    /// Processes one sample and adds its camera turn to the pending frame.
    ///
    /// - Parameters:
    ///   - time: seconds (increasing).
    ///   - rotationRate: raw rad/s, device frame.
    ///   - acceleration: g, device frame, or nil (no accelerometer: no gravity estimate, and
    ///     calibration tests the gyroscope alone).
    ///   - gravity: the up direction from elsewhere (any length, device frame), or nil to use
    ///     the internal estimate.
    @discardableResult
    public mutating func process(time: Double, rotationRate: SIMD3<Double>, acceleration: SIMD3<Double>?,
                                 gravity: SIMD3<Double>? = nil) -> GyroAimOutput {
        var flags: GyroAimFlags = []
        guard time.isFinite, rotationRate.isFinite else {
            flags.insert(.invalid)
            return finish(GyroAimOutput(time: time.isFinite ? time : lastTime ?? 0, yaw: 0, pitch: 0, turnRate: .zero,
                                        smoothedRate: smoothing.lastOutput, flags: flags))
        }
        var dt = 0.0
        if let last = lastTime {
            dt = time - last
            if !(dt > 0) {
                flags.insert(.timeNotIncreasing)
                dt = 0
            } else if dt > settings.maximumTimeStep {
                flags.insert(.gap)
                dt = settings.maximumTimeStep
            }
        }
        if lastTime == nil || time > lastTime! { lastTime = time }
        if (rotationRate.x.magnitude >= saturationRate) || (rotationRate.y.magnitude >= saturationRate)
            || (rotationRate.z.magnitude >= saturationRate) { flags.insert(.saturated) }

        let before = calibration.state
        // Finite readings beyond any gyroscope (10⁶ rad/s) are clamped there first, so that the
        // speed below cannot overflow (the speed bound then scales the turn down).
        let rate = (calibration.process(time: time, rotationRate: rotationRate, acceleration: acceleration) ?? .zero)
            .clamped(lowerBound: SIMD3(repeating: -1e6), upperBound: SIMD3(repeating: 1e6))
        if calibration.state != before { flags.insert(.calibrating) }

        var space = settings.space
        if space != .local {
            updateUp(time: time, rotationRate: rotationRate, acceleration: acceleration, gravity: gravity)
            if up == nil { space = .local; flags.insert(.noGravity) }
        }
        let degrees = 1 / Units.radiansPerDegree
        var turn = degrees * space.turnRate(rate, up: up ?? SIMD3(0, 0, 1), hold: settings.hold)
        let speed = turn.lengthSquared.squareRoot()
        if speed > maximumSpeed {
            turn = (maximumSpeed / speed) * turn
            flags.insert(.limited)
        }
        guard dt > 0 else {
            return finish(GyroAimOutput(time: time, yaw: 0, pitch: 0, turnRate: turn, smoothedRate: smoothing.lastOutput, flags: flags))
        }
        let smoothed = smoothing.process(turn, dt: dt)
        let gain = settings.sensitivity.value(speed: smoothed.lengthSquared.squareRoot()) * dt
        let pitchSign = settings.invertPitch ? -settings.pitchRatio : settings.pitchRatio
        return finish(GyroAimOutput(time: time, yaw: gain * smoothed.x, pitch: gain * pitchSign * smoothed.y,
                                    turnRate: turn, smoothedRate: smoothed, flags: flags))
    }

    /// Processes a `MotionSample` (its acceleration is used when finite).
    @discardableResult
    public mutating func process(_ sample: MotionSample, gravity: SIMD3<Double>? = nil) -> GyroAimOutput {
        process(time: sample.time, rotationRate: sample.rotationRate, acceleration: sample.acceleration, gravity: gravity)
    }

    mutating func updateUp(time: Double, rotationRate: SIMD3<Double>, acceleration: SIMD3<Double>?, gravity: SIMD3<Double>?) {
        if let gravity, gravity.isFinite {
            let length = gravity.lengthSquared.squareRoot()
            if length > 0 { up = gravity / length; return }
        }
        guard let acceleration, acceleration.isFinite else { return }
        // Only the inclination is needed: update the fusion and read up from its 6D attitude (the
        // third row of the device → earth matrix) without building a whole `DeviceMotion`.
        gravityEstimator.update(time: time, acceleration: acceleration, rotationRate: rotationRate)
        let q = gravityEstimator.attitude6D
        let fused = SIMD3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
        if fused.isFinite { up = fused }
    }

    mutating func finish(_ output: GyroAimOutput) -> GyroAimOutput {
        pending.yaw += output.yaw
        pending.pitch += output.pitch
        pending.sampleCount += 1
        pending.flags.formUnion(output.flags)
        return output
    }

    /// The camera turn since the previous call (the game's per-frame input), and clears it.
    /// `counts` are whole mouse counts (x right, y down) at `countsPerDegree`, the fractions
    /// carried to the next frame so that no movement is lost to rounding.
    public mutating func takeFrame() -> GyroAimFrame {
        var frame = pending
        let exact = settings.countsPerDegree * SIMD2(frame.yaw, -frame.pitch) + countRemainder
        // Bounded so that any finite setting converts to Int (a frame of 10¹⁵ counts is no aim).
        let whole = exact.rounded(.towardZero).clamped(lowerBound: SIMD2(repeating: -1e15), upperBound: SIMD2(repeating: 1e15))
        countRemainder = exact - whole
        if !(countRemainder.x.magnitude < 1 && countRemainder.y.magnitude < 1) { countRemainder = .zero }
        frame.counts = SIMD2(Int(whole.x), Int(whole.y))
        pending = GyroAimFrame(yaw: 0, pitch: 0, counts: .zero, sampleCount: 0, flags: [])
        return frame
    }

    /// Forgets everything (calibration included), as a fresh instance.
    public mutating func reset() {
        (smoothing, gravityEstimator, calibration) = initial
        up = nil; lastTime = nil; countRemainder = .zero
        pending = GyroAimFrame(yaw: 0, pitch: 0, counts: .zero, sampleCount: 0, flags: [])
    }
}

/// The camera turn of one game frame (`GyroAim.takeFrame()`, `GyroAimFrames`).
@frozen
public struct GyroAimFrame: Sendable, Hashable {
    /// Camera yaw turn, degrees (positive = right).
    public var yaw: Double
    /// Camera pitch turn, degrees (positive = up).
    public var pitch: Double
    /// Whole mouse counts (x right, y down) at `countsPerDegree`; zero from `GyroAimFrames`.
    public var counts: SIMD2<Int>
    /// Sensor samples in the frame.
    public var sampleCount: Int
    /// Union of the samples' flags.
    public var flags: GyroAimFlags

    public init(yaw: Double, pitch: Double, counts: SIMD2<Int>, sampleCount: Int, flags: GyroAimFlags) {
        self.yaw = yaw; self.pitch = pitch; self.counts = counts; self.sampleCount = sampleCount; self.flags = flags
    }
}
