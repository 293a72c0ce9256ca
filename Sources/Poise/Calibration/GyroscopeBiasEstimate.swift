/// The result of ``GyroscopeBiasEstimator/estimate(_:detector:)``: the gyroscope's bias from the
/// still segments of a recording, its drift, and how well they are known. rad/s, device frame.
public struct GyroscopeBiasEstimate: Sendable, Equatable {
    /// Mean rotation rate over all still samples, rad/s: what the gyroscope reads at rest.
    public var bias: SIMD3<Double>
    /// Standard error of the bias per axis (noise standard deviation / √samples), rad/s. Only the
    /// white-noise part: slow drift makes the real uncertainty larger (see `drift`).
    public var standardError: SIMD3<Double>
    /// Standard deviation of the rotation rate about each segment's mean (the noise), rad/s.
    public var noise: SIMD3<Double>
    /// The still segments used.
    public var segments: [StillSegment]
    /// Still samples used.
    public var stillSamples: Int
    /// Still segments left out because a reading in them is not finite.
    public var nonFiniteSegments: Int
    /// Total duration of the segments, s.
    public var stillDuration: Double
    /// Mean of the last segment minus mean of the first, rad/s; `nil` with one segment.
    public var drift: SIMD3<Double>?
    /// Seconds between the middles of the first and last segment (0 with one segment).
    public var driftInterval: Double

    /// The estimate as a ``SensorCalibration`` with only the gyroscope (offset = bias).
    public func sensorCalibration() -> SensorCalibration {
        var facts = ["still_seconds": stillDuration, "segments": Double(segments.count),
                     "noise_radps_x": noise.x, "noise_radps_y": noise.y, "noise_radps_z": noise.z]
        if let drift { facts["drift_radps"] = (drift * drift).sum().squareRoot(); facts["drift_interval_s"] = driftInterval }
        return SensorCalibration(gyroscope: SensorCorrection(offset: bias), facts: ["gyroscope": facts])
    }
}
