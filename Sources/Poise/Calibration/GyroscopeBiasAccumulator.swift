/// ``GyroscopeBiasEstimator`` one sample at a time: the still segments are found as the samples
/// come (`StillSegmentCollector`), and each segment's rotation rates are kept only until the
/// segment ends (24 bytes a sample of the longest still segment).
///
/// Units: time s, acceleration g, rotation rate rad/s, device frame.
public struct GyroscopeBiasAccumulator: SampleAccumulator {
    /// Each sample's rotation rate, NaN when its acceleration is not finite (the segment is then
    /// left out, as one with a rotation rate that is not finite).
    var collector: StillSegmentCollector<SIMD3<Double>>
    var count = 0
    var firstTime = 0.0, lastTime = 0.0
    var allSegments = 0
    var sum = SIMD3<Double>.zero, n = 0
    var firstMean: SIMD3<Double>?, lastMean = SIMD3<Double>.zero
    var deviations = SIMD3<Double>.zero
    var segments: [StillSegment] = []
    var duration = 0.0

    /// An empty estimate with `detector` (default ``GyroscopeBiasEstimator/calibrationDetector``).
    public init(detector: RestDetector = GyroscopeBiasEstimator.calibrationDetector) {
        collector = StillSegmentCollector(detector: detector)
    }

    /// Adds the next sample (in time order).
    public mutating func add(_ sample: MotionSample) {
        if count == 0 { firstTime = sample.time }
        lastTime = sample.time
        count += 1
        let a = sample.acceleration
        let finite = a.x.isFinite && a.y.isFinite && a.z.isFinite
        for segment in collector.add(sample, finite ? sample.rotationRate : SIMD3(repeating: .nan)) { take(segment) }
    }

    mutating func take(_ segment: StillSegment) {
        allSegments += 1
        let rates = collector.values(of: segment)
        guard rates.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return }
        var segmentSum = SIMD3<Double>.zero
        for r in rates { segmentSum += r }
        let mean = segmentSum / Double(rates.count)
        for r in rates { let d = r - mean; deviations += d * d }
        if firstMean == nil { firstMean = mean }
        lastMean = mean
        sum += segmentSum; n += rates.count
        segments.append(segment)
        duration += segment.duration
    }

    /// The estimate from the samples added.
    ///
    /// - Throws: ``CalibrationError`` as ``GyroscopeBiasEstimator/estimate(_:detector:)``.
    public mutating func finish() throws(CalibrationError) -> GyroscopeBiasEstimate {
        let detector = collector.detector
        guard count >= 2, lastTime - firstTime >= detector.minimumDuration else {
            throw CalibrationError("the recording is too short (\(count) samples); gyroscope bias needs the device still for at least \(detector.minimumDuration) s")
        }
        for segment in collector.finish() { take(segment) }
        guard let firstMean else {
            if allSegments > 0 {
                throw CalibrationError("every one of the \(allSegments) still segments holds a reading that is not finite (NaN or infinity); gyroscope bias needs a still segment of finite readings")
            }
            throw CalibrationError("no still segment of at least \(detector.minimumDuration) s (accelerometer steady, rotation rate below \(detector.gyroscopeThreshold) rad/s) in \(count) samples over \(Int((lastTime - firstTime).rounded())) s; put the device down and leave it still for a few seconds")
        }
        let noise = (deviations / Double(max(1, n - segments.count))).squareRoot()
        let middle = { (s: StillSegment) in (s.startTime + s.endTime) / 2 }
        return GyroscopeBiasEstimate(
            bias: sum / Double(n), standardError: noise / Double(n).squareRoot(), noise: noise,
            segments: segments, stillSamples: n, nonFiniteSegments: allSegments - segments.count, stillDuration: duration,
            drift: segments.count > 1 ? lastMean - firstMean : nil,
            driftInterval: segments.count > 1 ? middle(segments[segments.count - 1]) - middle(segments[0]) : 0)
    }
}
