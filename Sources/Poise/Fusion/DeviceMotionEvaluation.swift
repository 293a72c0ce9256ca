extension DeviceMotionConfiguration {
    /// The rate to set `sampleRate` to for a recording, Hz: `nominalSampleRate(of:)` (the median
    /// positive interval of the first `NominalRate.rowCount` samples), or `nil` when those have
    /// no increasing timestamps.
    ///
    /// - Complexity: O(k log k), k = min(n, `NominalRate.rowCount`).
    public static func estimatedSampleRate(of samples: [MotionSample]) -> Double? {
        nominalSampleRate(of: samples)
    }
}

extension DeviceMotionEstimator {
    /// Runs the estimator over `samples` and scores its attitude against their `truth` with the
    /// BROAD metric (`OrientationErrorAccumulator`): samples with `movement == true` (or all
    /// samples when the recording has no movement mask) and a finite truth are scored. The
    /// estimate is compared in ENU (the truth's frame); 6D estimates get the constant heading
    /// alignment, 9D estimates none.
    ///
    /// - Complexity: O(n).
    public mutating func evaluate(_ samples: [MotionSample]) -> OrientationError {
        var accumulator = OrientationErrorAccumulator()
        for s in samples {
            update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
            guard s.movement ?? true, let truth = s.truth else { continue }
            accumulator.add(estimate: attitudeEastNorthUp, truth: truth)
        }
        return accumulator.result(alignHeading: !configuration.reference.usesMagnetometer)
    }
}
