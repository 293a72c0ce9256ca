/// Finds still segments (device at rest) from gyroscope and/or accelerometer data.
///
/// A sample is *quiet* when
/// - gyroscope (if used): `|ω| < gyroscopeThreshold` (rad/s), and
/// - accelerometer (if used): the RMS of `|a − ā|` over a centred window of `window` seconds is
///   below the larger of `accelerationThreshold` (g) and `noiseFloorMultiple` × the accelerometer's
///   noise floor (when that is at most `maximumNoiseFloor`), ā being the window's mean vector.
///
/// The noise floor is the smallest white-noise level of any window so far (this sample's
/// included): per window, `√(Σ |aᵢ − aᵢ₋₁|² / (2 (n − 1)))` over its n samples' consecutive
/// pairs. Sample-to-sample differences see the sensor's white noise but hardly any slow motion, so
/// the floor follows the sensor, not the movement: a noisy accelerometer at rest (BROAD's IMU:
/// 0.0095–0.0101 g RMS in every still period) is still, although its noise alone is at
/// `accelerationThreshold`; a quiet one (x-io example, floor ≈ 0.004 g) keeps the fixed threshold.
/// A still segment is a maximal run of quiet samples lasting at least `minimumDuration` seconds
/// (last minus first timestamp) with no time step longer than `window` inside it (nothing is
/// known about the device in a gap).
///
/// Defaults, chosen on the x-io example (rest: |ω| ≤ 0.012 rad/s, accelerometer RMS
/// 0.003–0.005 g; slow handling: |ω| ≈ 0.04–0.3 rad/s, RMS ≥ 0.01 g): 0.035 rad/s (2°/s),
/// 0.01 g, 0.5 s window, 1 s minimum. The noise-floor multiple 1.5 comes from the 15 shared
/// BROAD trials: at rest a window's RMS is 1.00 × its own difference estimate (median; 95th
/// percentile 1.06) and ≤ 1.2 × the floor (95th percentile), while moving windows lie far above.
public struct RestDetector: Sendable, Equatable, Codable {
    /// Largest angular-rate norm at rest, rad/s.
    public var gyroscopeThreshold: Double = 0.035
    /// Largest RMS deviation of the acceleration vector from its window mean at rest, g.
    public var accelerationThreshold: Double = 0.01
    /// Window of the accelerometer test, seconds.
    public var window: Double = 0.5
    /// Multiple of the accelerometer's noise floor (see the type's documentation) below which a
    /// window's RMS deviation still counts as quiet; 0 keeps the fixed `accelerationThreshold`.
    public var noiseFloorMultiple: Double = 1.5
    /// Largest noise floor taken for sensor noise, g. A floor above it (an accelerometer that
    /// never rests: vibration, saturation spikes in every window) is ignored and the fixed
    /// `accelerationThreshold` applies. 0.02 g is twice the noisiest consumer IMU in the shared data.
    public var maximumNoiseFloor: Double = 0.02
    /// Shortest still segment, seconds.
    public var minimumDuration: Double = 1
    /// Use the gyroscope test (turn off when the recording has no gyroscope).
    public var useGyroscope = true
    /// Use the accelerometer test.
    public var useAccelerometer = true

    /// Default thresholds (see the type's documentation).
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case gyroscopeThreshold, accelerationThreshold, window, noiseFloorMultiple, maximumNoiseFloor, minimumDuration, useGyroscope, useAccelerometer
    }

    /// Decodes a detector; a missing `noiseFloorMultiple` or `maximumNoiseFloor` takes its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        gyroscopeThreshold = try c.decode(Double.self, forKey: .gyroscopeThreshold)
        accelerationThreshold = try c.decode(Double.self, forKey: .accelerationThreshold)
        window = try c.decode(Double.self, forKey: .window)
        noiseFloorMultiple = try c.decodeIfPresent(Double.self, forKey: .noiseFloorMultiple) ?? 1.5
        maximumNoiseFloor = try c.decodeIfPresent(Double.self, forKey: .maximumNoiseFloor) ?? 0.02
        minimumDuration = try c.decode(Double.self, forKey: .minimumDuration)
        useGyroscope = try c.decode(Bool.self, forKey: .useGyroscope)
        useAccelerometer = try c.decode(Bool.self, forKey: .useAccelerometer)
    }

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
