/// Finds still segments (device at rest) from gyroscope and/or accelerometer data.
///
/// A sample is *quiet* when
/// - gyroscope (if used): `|ω| < gyroscopeThreshold` (rad/s), and
/// - accelerometer (if used): the RMS of `|a − ā|` over a centred window of `window` seconds is
///   below `accelerationThreshold` (g), ā being the window's mean vector.
/// A still segment is a maximal run of quiet samples lasting at least `minimumDuration` seconds
/// (last minus first timestamp).
///
/// Defaults, chosen on the x-io example (rest: |ω| ≤ 0.012 rad/s, accelerometer RMS
/// 0.003–0.005 g; slow handling: |ω| ≈ 0.04–0.3 rad/s, RMS ≥ 0.01 g): 0.035 rad/s (2°/s),
/// 0.01 g, 0.5 s window, 1 s minimum.
public struct RestDetector: Sendable, Equatable, Codable {
    /// Largest angular-rate norm at rest, rad/s.
    public var gyroscopeThreshold: Double = 0.035
    /// Largest RMS deviation of the acceleration vector from its window mean at rest, g.
    public var accelerationThreshold: Double = 0.01
    /// Window of the accelerometer test, seconds.
    public var window: Double = 0.5
    /// Shortest still segment, seconds.
    public var minimumDuration: Double = 1
    /// Use the gyroscope test (turn off when the recording has no gyroscope).
    public var useGyroscope = true
    /// Use the accelerometer test.
    public var useAccelerometer = true

    /// Default thresholds (see the type's documentation).
    public init() {}

    /// Index ranges of still segments, in order.
    ///
    /// - Parameter samples: a recording's samples (time in seconds, non-decreasing).
    /// - Complexity: O(n); built on `StillSegmentTracker`, which does the same one sample at a time.
    public func stillSegments(in samples: [MotionSample]) -> [Range<Int>] {
        var tracker = StillSegmentTracker(detector: self)
        var segments: [Range<Int>] = []
        for sample in samples { segments += tracker.add(sample).map(\.indices) }
        return segments + tracker.finish().map(\.indices)
    }
}
