/// What `GyroAim` made of one sensor sample.
///
/// Camera angles in degrees: **yaw positive = turn right, pitch positive = look up**. Rates in °/s
/// of device turn in the aiming space (before sensitivity).
@frozen
public struct GyroAimOutput: Sendable, Hashable {
    /// Sample time, s.
    public var time: Double
    /// Camera yaw turn caused by this sample, degrees.
    public var yaw: Double
    /// Camera pitch turn caused by this sample, degrees.
    public var pitch: Double
    /// The device turn rate (yaw, pitch) in the aiming space after calibration, °/s (before
    /// smoothing; zero for a flagged-invalid sample).
    public var turnRate: SIMD2<Double>
    /// The same after tiered smoothing, °/s.
    public var smoothedRate: SIMD2<Double>
    /// What was unusual about the sample.
    public var flags: GyroAimFlags

    public init(time: Double, yaw: Double, pitch: Double, turnRate: SIMD2<Double>, smoothedRate: SIMD2<Double>, flags: GyroAimFlags) {
        self.time = time; self.yaw = yaw; self.pitch = pitch
        self.turnRate = turnRate; self.smoothedRate = smoothedRate; self.flags = flags
    }
}

/// Per-sample (and per-frame: the union) diagnostics of gyro aiming.
public struct GyroAimFlags: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The time or rotation rate was not finite: the sample turned nothing.
    public static let invalid = GyroAimFlags(rawValue: 1 << 0)
    /// The time did not increase (repeated or backwards): the sample turned nothing.
    public static let timeNotIncreasing = GyroAimFlags(rawValue: 1 << 1)
    /// The time step exceeded `maximumTimeStep` (dropped samples): integrated over that long only.
    public static let gap = GyroAimFlags(rawValue: 1 << 2)
    /// An axis read at or above 99.5 % of `gyroscopeRange`: the true rate may be larger.
    public static let saturated = GyroAimFlags(rawValue: 1 << 3)
    /// The turn speed exceeded `maximumSpeed` and was scaled down to it.
    public static let limited = GyroAimFlags(rawValue: 1 << 4)
    /// Player or world space without a usable gravity (no accelerometer): local space was used.
    public static let noGravity = GyroAimFlags(rawValue: 1 << 5)
    /// The sample lies in an accepted still period: the bias was updated from it.
    public static let calibrating = GyroAimFlags(rawValue: 1 << 6)

    /// Names of the set flags, in bit order (`invalid`, `time-not-increasing`, `gap`, `saturated`,
    /// `limited`, `no-gravity`, `calibrating`).
    public var names: [String] {
        let all: [(GyroAimFlags, String)] = [(.invalid, "invalid"), (.timeNotIncreasing, "time-not-increasing"), (.gap, "gap"),
                                             (.saturated, "saturated"), (.limited, "limited"), (.noGravity, "no-gravity"),
                                             (.calibrating, "calibrating")]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
