/// Roll, pitch and yaw in radians. Which rotation each angle is about, their order and their
/// ranges depend on the convention that produced them (see `DeviceMotion.coreMotionAngles`
/// and `DeviceMotion.aerospaceAngles`).
public struct EulerAngles: Sendable, Equatable, Codable {
    /// Roll, rad.
    public var roll: Double
    /// Pitch, rad.
    public var pitch: Double
    /// Yaw, rad.
    public var yaw: Double

    public init(roll: Double, pitch: Double, yaw: Double) { self.roll = roll; self.pitch = pitch; self.yaw = yaw }
}
