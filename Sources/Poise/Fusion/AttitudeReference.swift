/// What the horizontal axes of the earth frame are tied to, like CoreMotion's
/// `CMAttitudeReferenceFrame`.
public enum AttitudeReference: String, Sendable, Codable, CaseIterable {
    /// 6D (accelerometer + gyroscope): z vertical, heading arbitrary (starts at 0 and drifts
    /// slowly with the residual gyro bias). The magnetometer is ignored.
    case arbitraryZVertical = "arbitrary"
    /// 9D: heading held drift-free by the magnetometer, but offset so the first output's yaw
    /// is 0 (CoreMotion's `xArbitraryCorrectedZVertical`).
    case arbitraryCorrectedZVertical = "arbitrary-corrected"
    /// 9D: the horizontal axes point to magnetic north (and east/west).
    case magneticNorthZVertical = "magnetic-north"
    /// 9D: as magnetic north, rotated by the configured declination to true north.
    case trueNorthZVertical = "true-north"

    /// True when the reference uses the magnetometer.
    public var usesMagnetometer: Bool { self != .arbitraryZVertical }
}
