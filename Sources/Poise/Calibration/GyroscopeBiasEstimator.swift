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

    /// Estimates the bias from `samples` (time s, acceleration g, rotation rate rad/s); the same as
    /// feeding them to a ``GyroscopeBiasAccumulator``.
    ///
    /// - Throws: ``CalibrationError`` when the recording is shorter than the detector's minimum
    ///   still duration, has non-finite readings in every still segment, or has no still segment
    ///   (with what to do: leave the device still for a few seconds).
    public static func estimate(_ samples: [MotionSample], detector: RestDetector = calibrationDetector) throws(CalibrationError) -> GyroscopeBiasEstimate {
        var accumulator = GyroscopeBiasAccumulator(detector: detector)
        accumulator.add(contentsOf: samples)
        return try accumulator.finish()
    }
}
