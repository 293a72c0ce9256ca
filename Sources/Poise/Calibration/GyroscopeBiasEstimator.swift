/// Gyroscope bias from the still segments of a recording: the mean rotation rate over every
/// sample at rest, and its drift between the first and the last segment (no temperature model).
///
/// The segments come from ``RestDetector`` with its accelerometer test and a gyroscope
/// threshold of 0.1 rad/s (5.7°/s) instead of 0.035 rad/s, so a bias of a few degrees per second
/// does not hide the rest it is measured in (``calibrationDetector``).
public enum GyroscopeBiasEstimator {
    /// The rest detector used: the default, with the gyroscope threshold raised to 0.1 rad/s.
    public static var calibrationDetector: RestDetector {
        var detector = RestDetector()
        detector.gyroscopeThreshold = 0.1
        return detector
    }

    /// Estimates the bias from `samples` (time s, acceleration g, rotation rate rad/s).
    ///
    /// - Throws: ``CalibrationError`` when the recording is shorter than the detector's minimum
    ///   still duration, has non-finite readings in every still segment, or has no still segment
    ///   (with what to do: leave the device still for a few seconds).
    public static func estimate(_ samples: [MotionSample], detector: RestDetector = calibrationDetector) throws(CalibrationError) -> GyroscopeBiasEstimate {
        guard samples.count >= 2, let first = samples.first, let last = samples.last, last.time - first.time >= detector.minimumDuration else {
            throw CalibrationError("the recording is too short (\(samples.count) samples); gyroscope bias needs the device still for at least \(detector.minimumDuration) s")
        }
        let allSegments = detector.stillSegments(in: samples)
        let finiteSegments = allSegments.filter { segment in
            samples[segment].allSatisfy { s in
                let r = s.rotationRate, a = s.acceleration
                return r.x.isFinite && r.y.isFinite && r.z.isFinite && a.x.isFinite && a.y.isFinite && a.z.isFinite
            }
        }
        guard !finiteSegments.isEmpty else {
            if !allSegments.isEmpty {
                throw CalibrationError("every one of the \(allSegments.count) still segments holds a reading that is not finite (NaN or infinity); gyroscope bias needs a still segment of finite readings")
            }
            throw CalibrationError("no still segment of at least \(detector.minimumDuration) s (accelerometer steady, rotation rate below \(detector.gyroscopeThreshold) rad/s) in \(samples.count) samples over \(Int((last.time - first.time).rounded())) s; put the device down and leave it still for a few seconds")
        }
        var sum = SIMD3<Double>.zero, n = 0
        var means: [SIMD3<Double>] = []
        var deviations = SIMD3<Double>.zero
        var segments: [StillSegment] = []
        var duration = 0.0
        for range in finiteSegments {
            var segmentSum = SIMD3<Double>.zero
            for s in samples[range] { segmentSum += s.rotationRate }
            let mean = segmentSum / Double(range.count)
            for s in samples[range] { let d = s.rotationRate - mean; deviations += d * d }
            means.append(mean)
            sum += segmentSum; n += range.count
            let segment = StillSegment(indices: range, startTime: samples[range.lowerBound].time, endTime: samples[range.upperBound - 1].time)
            segments.append(segment)
            duration += segment.duration
        }
        let noise = (deviations / Double(max(1, n - segments.count))).squareRoot()
        let middle = { (s: StillSegment) in (s.startTime + s.endTime) / 2 }
        return GyroscopeBiasEstimate(
            bias: sum / Double(n), standardError: noise / Double(n).squareRoot(), noise: noise,
            segments: segments, stillSamples: n, nonFiniteSegments: allSegments.count - finiteSegments.count, stillDuration: duration,
            drift: means.count > 1 ? means[means.count - 1] - means[0] : nil,
            driftInterval: segments.count > 1 ? middle(segments[segments.count - 1]) - middle(segments[0]) : 0)
    }
}
