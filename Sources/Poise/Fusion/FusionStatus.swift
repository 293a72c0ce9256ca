/// What device-motion fusion knows about a sample besides the attitude, gravity and user
/// acceleration that `ProcessedSample` carries: the gyroscope bias it removed, the heading and
/// the estimator's flags. Written by the fusion stage into `ProcessedSample.fusion`.
public struct FusionStatus: Sendable, Equatable {
    /// Estimated gyroscope bias, rad/s, device frame (already subtracted from the record's
    /// `rotationRate`).
    public var bias: SIMD3<Double>
    /// Heading in degrees clockwise from magnetic (or true) north, in [0, 360); `nil` in 6D.
    public var heading: Double?
    /// Rest, magnetic disturbance, rejected acceleration, time gap, invalid input.
    public var flags: DeviceMotion.Flags

    /// Creates a status; bias in rad/s, heading in degrees.
    @inlinable
    public init(bias: SIMD3<Double>, heading: Double?, flags: DeviceMotion.Flags) {
        self.bias = bias; self.heading = heading; self.flags = flags
    }

    /// The status part of a device-motion estimate.
    @inlinable
    public init(_ motion: DeviceMotion) {
        self.init(bias: motion.bias, heading: motion.heading, flags: motion.flags)
    }
}
