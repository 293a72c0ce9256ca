/// Flick stick: the right stick's direction turns the camera to face that way, then rotating
/// the stick turns the camera (J. Smart, "Flick Stick", GyroWiki; JoyShockMapper's
/// `FLICK_STICK` mode). Combined with gyro aiming, the stick handles big turns and the gyro the
/// fine aim.
///
/// Stick: x right, y forward (up), each in −1…1. Its angle is θ = atan2(x, y) in degrees
/// (0 = forward, +90 = right), the same sign as camera yaw (positive = turn right).
/// - When the deflection reaches `threshold` the camera turns by θ over `flickTime`, eased out:
///   after a time s of the flick it has turned θ·e(s/flickTime), e(u) = 1 − (1 − u)²
///   (fast start, gentle stop), exactly θ at the end.
/// - While the stick stays out (deflection ≥ `releaseThreshold`), each frame turns the camera by
///   the change of θ since the previous frame (wrapped to ±180°), through `TieredSmoothing` of
///   the rotation speed so that the stick's coarse resolution does not make slow turns jerky.
/// - Releasing the stick ends rotation (a flick in progress still completes, and the smoothed
///   share of the rotation drains, so the camera turns by exactly the stick's rotation).
///
/// Call `update` once per game frame with the frame's duration.
public struct FlickStick: Sendable {
    /// The settings (validated at init).
    public let settings: FlickStickSettings
    var smoothing: TieredSmoothing<Double>
    let initialSmoothing: TieredSmoothing<Double>
    /// Whether the stick is out (a flick started and the stick not yet released).
    public private(set) var isActive = false
    var lastAngle = 0.0
    var flickSize = 0.0
    var flickElapsed: Double?

    /// - Throws: `OrientationSettingsError` naming the bad setting.
    public init(settings: FlickStickSettings = FlickStickSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        smoothing = try TieredSmoothing(threshold: settings.rotationSmoothingThreshold,
                                        timeConstant: settings.rotationSmoothingTimeConstant, sampleRate: 60)
        initialSmoothing = smoothing
    }

    /// Whether a flick is turning the camera.
    public var isFlicking: Bool { flickElapsed != nil }

    /// The camera yaw turn of this frame, degrees (positive = right).
    ///
    /// - Parameters:
    ///   - stick: x right, y forward, −1…1 (larger deflections count as 1).
    ///   - dt: the frame's duration, s. A non-finite stick or dt, or a negative dt, turns nothing
    ///     and changes no state.
    public mutating func update(stick: SIMD2<Double>, dt: Double) -> Double {
        guard stick.x.isFinite, stick.y.isFinite, dt.isFinite, dt >= 0 else { return 0 }
        let deflection = (stick.x * stick.x + stick.y * stick.y).squareRoot()
        let angle = Double.atan2(y: stick.x, x: stick.y) / Units.radiansPerDegree
        var turn = 0.0
        if !isActive {
            // The smoothed share of the last rotation still drains, so that a rotation turns
            // the camera by exactly the stick's rotation in the end.
            if dt > 0, smoothing.lastOutput != 0 { turn += smoothing.process(0, dt: dt) * dt }
            if deflection >= settings.threshold {
                isActive = true
                lastAngle = angle
                flickSize = angle
                flickElapsed = 0
                smoothing = initialSmoothing
            }
        } else if deflection < settings.releaseThreshold {
            isActive = false
            if dt > 0 { turn += smoothing.process(0, dt: dt) * dt }
        } else {
            var change = angle - lastAngle
            if change > 180 { change -= 360 } else if change <= -180 { change += 360 }
            lastAngle = angle
            turn += dt > 0 ? smoothing.process(change / dt, dt: dt) * dt : change
        }
        if let elapsed = flickElapsed {
            let now = elapsed + dt
            // The flick ends exactly at flickTime (within rounding of the summed frame times).
            let ends = now >= settings.flickTime * (1 - 1e-9)
            let before = settings.flickTime > 0 ? Self.ease(elapsed / settings.flickTime) : 0
            let after = ends ? 1 : Self.ease(now / settings.flickTime)
            turn += flickSize * (after - before)
            flickElapsed = ends ? nil : now
        }
        return turn
    }

    /// The ease-out of a flick: 1 − (1 − u)² for u clamped to [0, 1].
    @inlinable
    public static func ease(_ u: Double) -> Double {
        let t = Swift.min(Swift.max(u, 0), 1)
        return 1 - (1 - t) * (1 - t)
    }

    /// Back to a fresh flick stick (stick centred, no flick).
    public mutating func reset() {
        isActive = false; lastAngle = 0; flickSize = 0; flickElapsed = nil; smoothing = initialSmoothing
    }
}
