/// One sample of a motion recording, in Poise's core units.
///
/// - `time`: seconds, from the recording's own clock (need not start at zero; may be irregular).
/// - `acceleration`: **specific force in g** (1 g = 9.80665 m/s²), device frame; at rest the axis
///   pointing up reads +1 g (BROAD, x-io and Android convention; Apple's raw −1 g convention is
///   converted at the edge by an explicit reader option).
/// - `rotationRate`: angular rate in **rad/s**, device frame, right-hand rule.
/// - `magneticField`: magnetic flux density in **µT**, device frame; `nil` when the recording has
///   no magnetometer.
/// - `truth`: ground-truth attitude (device → earth, ENU unless the recording says otherwise),
///   `nil` when unknown or lost.
/// - `movement`: the scoring mask of benchmark recordings (`true` = scored), `nil` when absent.
///
/// Device axes follow the phone convention: +X right, +Y toward the top edge, +Z out of the screen.
public struct MotionSample: Sendable, Equatable {
    /// Timestamp in seconds.
    public var time: Double
    /// Specific force in g, device frame.
    public var acceleration: SIMD3<Double>
    /// Angular rate in rad/s, device frame.
    public var rotationRate: SIMD3<Double>
    /// Magnetic field in µT, device frame, if measured.
    public var magneticField: SIMD3<Double>?
    /// Ground-truth attitude (device → earth), if known.
    public var truth: Quaternion<Double>?
    /// Benchmark scoring mask, if present.
    public var movement: Bool?

    /// Creates a sample. Units: seconds, g (specific force), rad/s, µT.
    public init(time: Double,
                acceleration: SIMD3<Double> = .zero,
                rotationRate: SIMD3<Double> = .zero,
                magneticField: SIMD3<Double>? = nil,
                truth: Quaternion<Double>? = nil,
                movement: Bool? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.truth = truth
        self.movement = movement
    }
}

/// Physical constants and unit conversions used at the edges of the library.
public enum Units {
    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665
    /// Radians per degree.
    public static let radiansPerDegree = Double.pi / 180
}
