/// Settings of `HomeCalibration`, in user units (degrees, degrees per second, seconds).
public struct HomeCalibrationSettings: Sendable, Hashable, Codable {
    /// Re-home automatically when the device rests far from home (the player changed
    /// posture). Default false: home changes only at the first sample and on request.
    public var dynamicRecalibration: Bool
    /// The device must be more than this angle from home (total rotation angle of the relative
    /// attitude), degrees. Default 30.
    public var recalibrationAngle: Double
    /// "Still" means a rotation-rate norm at or below this, degrees per second (ignored when
    /// no rotation rate is given). Default 10.
    public var stillnessRate: Double
    /// … and an attitude within this angle of the attitude at the start of the still period,
    /// degrees (a slow drift restarts the period). Default 5.
    public var stillnessAngle: Double
    /// Far and still for at least this long, seconds, measured on sample timestamps from the
    /// first far-and-still sample: the first sample with `t − t_start ≥ holdTime` becomes
    /// home. Default 2.
    public var holdTime: Double

    public init(dynamicRecalibration: Bool = false, recalibrationAngle: Double = 30,
                stillnessRate: Double = 10, stillnessAngle: Double = 5, holdTime: Double = 2) {
        self.dynamicRecalibration = dynamicRecalibration
        self.recalibrationAngle = recalibrationAngle
        self.stillnessRate = stillnessRate
        self.stillnessAngle = stillnessAngle
        self.holdTime = holdTime
    }

    /// Checks the ranges; returns a message naming the first bad field, or nil.
    public var problem: String? {
        if !(recalibrationAngle > 0 && recalibrationAngle <= 180) { return "recalibrationAngle must be in (0, 180] degrees, got \(recalibrationAngle)" }
        if !(stillnessRate >= 0 && stillnessRate.isFinite) { return "stillnessRate must be ≥ 0 degrees/s, got \(stillnessRate)" }
        if !(stillnessAngle >= 0 && stillnessAngle <= 180) { return "stillnessAngle must be in [0, 180] degrees, got \(stillnessAngle)" }
        if !(holdTime >= 0 && holdTime.isFinite) { return "holdTime must be ≥ 0 s, got \(holdTime)" }
        return nil
    }
}

/// Why the home attitude changed at a sample.
public enum HomeEvent: String, Sendable, Hashable, Codable {
    /// The first sample after creation or `reset()`.
    case initial
    /// `requestRecalibration()` was called.
    case requested
    /// Dynamic recalibration: far from home and still for `holdTime`.
    case dynamic
}

/// Keeps a home attitude and reports attitudes relative to it — CoreMotion's
/// `attitude.multiply(byInverseOf: reference)`.
///
/// With attitudes `q` and home `h` both device → earth, the relative attitude is
/// `q_rel = h⁻¹ ⊗ q`: it takes current device coordinates to *home* device coordinates, is the
/// identity at home, and its roll and pitch are the tilts away from home in the device's own
/// axes. The first processed sample becomes home; `requestRecalibration()` makes the next one
/// home. With `dynamicRecalibration`, the first sample at which the device has been more than
/// `recalibrationAngle` from home *and* still (see the settings) for `holdTime` seconds becomes
/// home. Everything depends only on the inputs, so replays are deterministic. Nothing allocates.
public struct HomeCalibration: Sendable {
    /// The settings (validated at init).
    public let settings: HomeCalibrationSettings
    /// The home attitude (device → earth); nil before the first sample.
    public private(set) var home: Quaternion<Double>?
    /// The time (s) of the last change of home, nil before the first sample.
    public private(set) var homeTime: Double?

    @usableFromInline var recalibrationRequested = false
    @usableFromInline var stillStart: Double?
    @usableFromInline var stillAttitude = Quaternion<Double>.identity
    // Derived once.
    // Angles are compared through the quaternion's real part: for a unit quaternion the rotation
    // angle exceeds θ exactly when |w| < cos(θ/2), which avoids an atan2 per sample.
    @usableFromInline let farCosine: Double       // cos(recalibrationAngle / 2)
    @usableFromInline let stillRateSquared: Double
    @usableFromInline let stillCosine: Double     // cos(stillnessAngle / 2)

    /// - Throws: `OrientationSettingsError` when a setting is out of range.
    public init(settings: HomeCalibrationSettings = HomeCalibrationSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        farCosine = Double.cos(settings.recalibrationAngle * Units.radiansPerDegree / 2)
        let rate = settings.stillnessRate * Units.radiansPerDegree
        stillRateSquared = rate * rate
        stillCosine = Double.cos(settings.stillnessAngle * Units.radiansPerDegree / 2)
    }

    /// Forgets home: the next sample becomes home (event `.initial`), as a fresh calibration.
    public mutating func reset() {
        home = nil; homeTime = nil; recalibrationRequested = false; stillStart = nil
    }

    /// Makes the next processed sample home (event `.requested`), e.g. after a pause.
    public mutating func requestRecalibration() { recalibrationRequested = true }

    /// Sets home explicitly (device → earth; normalised) from `time` on.
    public mutating func calibrate(to attitude: Quaternion<Double>, time: Double) {
        home = attitude.normalized; homeTime = time; recalibrationRequested = false; stillStart = nil
    }

    /// Processes one attitude.
    ///
    /// - Parameters:
    ///   - attitude: device → earth (normalised here).
    ///   - rotationRate: rad/s in device axes for the stillness test, or nil when unknown (then
    ///     stillness is judged by the attitude alone).
    ///   - time: seconds, non-decreasing.
    /// - Returns: the relative attitude `h⁻¹ ⊗ q` (the identity when home was just set) and the
    ///   event if home changed at this sample.
    ///
    /// A non-finite or zero attitude is replaced by the home attitude (relative identity, no
    /// event) rather than spreading NaN; callers validate their inputs upstream.
    public mutating func process(attitude: Quaternion<Double>, rotationRate: SIMD3<Double>?, time: Double)
        -> (relative: Quaternion<Double>, event: HomeEvent?) {
        guard attitude.isFinite, attitude.lengthSquared > 0 else { return (.identity, nil) }
        let q = attitude.normalized
        guard let h = home else {
            calibrate(to: q, time: time)
            return (.identity, .initial)
        }
        if recalibrationRequested {
            calibrate(to: q, time: time)
            return (.identity, .requested)
        }
        let relative = h.conjugate * q
        guard settings.dynamicRecalibration else { return (relative, nil) }
        let far = relative.w.magnitude < farCosine
        let rateStill = rotationRate.map { $0.lengthSquared <= stillRateSquared } ?? true
        guard far, rateStill else { stillStart = nil; return (relative, nil) }
        if let start = stillStart, (stillAttitude.conjugate * q).w.magnitude >= stillCosine {
            if time - start >= settings.holdTime {
                calibrate(to: q, time: time)
                return (.identity, .dynamic)
            }
        } else {
            // First far-and-still sample, or the attitude wandered: the still period starts here.
            stillStart = time
            stillAttitude = q
            if settings.holdTime == 0 {
                calibrate(to: q, time: time)
                return (.identity, .dynamic)
            }
        }
        return (relative, nil)
    }
}
