/// Gyro sensitivity in real-world terms: camera degrees per degree the device turns, with an
/// optional acceleration curve between a low and a high sensitivity over a speed range.
///
/// As JoyShockMapper's `MIN_GYRO_SENS`, `MAX_GYRO_SENS`, `MIN_GYRO_THRESHOLD` and
/// `MAX_GYRO_THRESHOLD` (GyroWiki, "Gyro aiming" basics): at a device turn speed v (°/s, the norm
/// of the (yaw, pitch) turn rate after the space mapping and smoothing)
/// ```
/// s(v) = low + (high − low) · clamp((v − lowSpeed) / (highSpeed − lowSpeed), 0, 1)
/// ```
/// A sensitivity of 1 turns the camera exactly as far as the device turned ("1:1", natural for
/// aiming in first person); 2 turns it twice as far. `low == high` (the default) is no
/// acceleration: the camera turn is then proportional to the device turn whatever the speed.
public struct GyroSensitivity: Sendable, Hashable, Codable {
    /// Camera degrees per device degree at or below `lowSpeed`. Default 1.
    public var low: Double
    /// Camera degrees per device degree at or above `highSpeed`. Default 1.
    public var high: Double
    /// Speed where the curve starts leaving `low`, °/s. Default 0.
    public var lowSpeed: Double
    /// Speed where the curve reaches `high`, °/s (> `lowSpeed` when `low ≠ high`). Default 0.
    public var highSpeed: Double

    /// A constant sensitivity (no acceleration).
    public init(_ sensitivity: Double = 1) {
        low = sensitivity; high = sensitivity; lowSpeed = 0; highSpeed = 0
    }

    /// An acceleration curve from `low` at `lowSpeed` °/s to `high` at `highSpeed` °/s.
    public init(low: Double, high: Double, lowSpeed: Double, highSpeed: Double) {
        self.low = low; self.high = high; self.lowSpeed = lowSpeed; self.highSpeed = highSpeed
    }

    /// The sensitivity that makes a full device turn (360°) turn the camera by `cameraDegrees`:
    /// the "real world calibration" of GyroWiki and JoyShockMapper (`cameraDegrees / 360`).
    public static func realWorld(cameraDegreesPer360 cameraDegrees: Double) -> GyroSensitivity {
        GyroSensitivity(cameraDegrees / 360)
    }

    /// The sensitivity at device speed `speed` (°/s).
    @inlinable
    public func value(speed: Double) -> Double {
        guard high != low, highSpeed > lowSpeed else { return low }
        let t = Swift.min(Swift.max((speed - lowSpeed) / (highSpeed - lowSpeed), 0), 1)
        return low + (high - low) * t
    }

    /// A message naming the first bad field, or nil.
    public var problem: String? {
        if !(low.isFinite && high.isFinite) { return "sensitivity must be finite, got low \(low), high \(high)" }
        if !(lowSpeed >= 0 && lowSpeed.isFinite && highSpeed.isFinite) {
            return "sensitivity speeds must be finite and ≥ 0 °/s, got \(lowSpeed) and \(highSpeed)"
        }
        if low != high && !(highSpeed > lowSpeed) {
            return "an acceleration curve needs highSpeed > lowSpeed, got \(lowSpeed) and \(highSpeed) °/s"
        }
        return nil
    }
}
