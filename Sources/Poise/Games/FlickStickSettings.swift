/// Settings of `FlickStick` (stick deflection 0…1, degrees, seconds).
///
/// Defaults after JoyShockMapper (`FLICK_TIME` 0.1 s; a flick starts near the stick's edge and
/// a gap between the start and release deflections so the stick does not chatter at the edge).
public struct FlickStickSettings: Sendable, Hashable, Codable {
    /// Deflection (0…1) at which a flick starts. Default 0.9.
    public var threshold: Double = 0.9
    /// Deflection below which the stick counts as released (≤ `threshold`). Default 0.8.
    public var releaseThreshold: Double = 0.8
    /// Time the camera takes to face the flicked direction, s (0: at once). Default 0.1.
    public var flickTime: Double = 0.1
    /// Tiered smoothing of stick rotation: rotations slower than this (°/s of stick angle) are
    /// smoothed, those faster than twice it are not, so the stick's coarse angle resolution does
    /// not make small turns jerky. 0 disables. Default 360.
    public var rotationSmoothingThreshold: Double = 360
    /// Time constant of that smoothing, s. Default 0.03.
    public var rotationSmoothingTimeConstant: Double = 0.03

    /// The defaults listed on each property.
    public init() {}

    /// A message naming the first bad field, or nil.
    public var problem: String? {
        if !(threshold > 0 && threshold <= 1) { return "flick threshold must be in (0, 1], got \(threshold)" }
        if !(releaseThreshold > 0 && releaseThreshold <= threshold) {
            return "flick release threshold must be in (0, threshold \(threshold)], got \(releaseThreshold)"
        }
        if !(flickTime >= 0 && flickTime.isFinite) { return "flick time must be ≥ 0 s, got \(flickTime)" }
        if !(rotationSmoothingThreshold >= 0 && rotationSmoothingThreshold.isFinite) {
            return "rotation smoothing threshold must be ≥ 0 °/s, got \(rotationSmoothingThreshold)"
        }
        if !(rotationSmoothingTimeConstant >= 0 && rotationSmoothingTimeConstant.isFinite) {
            return "rotation smoothing time constant must be ≥ 0 s, got \(rotationSmoothingTimeConstant)"
        }
        return nil
    }
}
