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
    /// - Complexity: O(n).
    public func stillSegments(in samples: [MotionSample]) -> [Range<Int>] {
        let count = samples.count
        guard count > 0 else { return [] }
        var quiet = [Bool](repeating: true, count: count)
        if useGyroscope {
            let limit = gyroscopeThreshold * gyroscopeThreshold
            for i in 0..<count where samples[i].rotationRate.lengthSquared >= limit { quiet[i] = false }
        }
        if useAccelerometer {
            let half = window / 2
            let limit = accelerationThreshold * accelerationThreshold
            var low = 0, high = 0
            var sum = SIMD3<Double>.zero
            var sumSquares = 0.0
            for i in 0..<count {
                let t = samples[i].time
                while high <= i || (high < count && samples[high].time <= t + half) {
                    sum += samples[high].acceleration
                    sumSquares += samples[high].acceleration.lengthSquared
                    high += 1
                }
                while samples[low].time < t - half {
                    sum -= samples[low].acceleration
                    sumSquares -= samples[low].acceleration.lengthSquared
                    low += 1
                }
                let n = Double(high - low)
                let mean = sum / n
                let variance = sumSquares / n - mean.lengthSquared
                if variance >= limit { quiet[i] = false }
            }
        }
        var segments: [Range<Int>] = []
        var start: Int? = nil
        for i in 0...count {
            let isQuiet = i < count && quiet[i]
            if isQuiet, start == nil { start = i }
            if !isQuiet, let s = start {
                if samples[i - 1].time - samples[s].time >= minimumDuration { segments.append(s..<i) }
                start = nil
            }
        }
        return segments
    }
}
