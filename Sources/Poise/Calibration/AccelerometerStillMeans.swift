/// The mean acceleration of each still segment of a recording, found one sample at a time: what
/// ``AccelerometerCalibrator`` fits. Each segment's accelerations are kept only until the segment
/// ends (24 bytes a sample of the longest still segment).
///
/// Units: time s, acceleration g, rotation rate rad/s (used by the detector's gyroscope test
/// unless it is switched off).
public struct AccelerometerStillMeans: SampleAccumulator {
    var collector: StillSegmentCollector<SIMD3<Double>>
    /// Mean acceleration of each still segment of finite readings, in order, g.
    public private(set) var means: [SIMD3<Double>] = []
    /// Still segments left out for a reading that is not finite.
    public private(set) var nonFiniteSegments = 0
    var finished = false

    /// Finds the still segments with `detector` (default ``GyroscopeBiasEstimator/calibrationDetector``).
    public init(detector: RestDetector = GyroscopeBiasEstimator.calibrationDetector) {
        collector = StillSegmentCollector(detector: detector)
    }

    /// The detector that finds the still segments.
    public var detector: RestDetector { collector.detector }

    /// Adds the next sample (in time order).
    public mutating func add(_ sample: MotionSample) {
        for segment in collector.add(sample, sample.acceleration) { take(segment) }
    }

    /// Ends the recording: the last still segment is measured. Later samples are not added.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        for segment in collector.finish() { take(segment) }
    }

    mutating func take(_ segment: StillSegment) {
        var sum = SIMD3<Double>.zero
        let values = collector.values(of: segment)
        for a in values {
            guard a.x.isFinite && a.y.isFinite && a.z.isFinite else { nonFiniteSegments += 1; return }
            sum += a
        }
        means.append(sum / Double(values.count))
    }
}
