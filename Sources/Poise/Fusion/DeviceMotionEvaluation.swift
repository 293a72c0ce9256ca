extension DeviceMotionConfiguration {
    /// The median rate of positive timestamp steps, Hz, or `nil` when fewer than two samples
    /// have increasing timestamps. Use it to set `sampleRate` for a recording.
    ///
    /// - Complexity: O(n log n).
    public static func estimatedSampleRate(of samples: [MotionSample]) -> Double? {
        var steps: [Double] = []
        steps.reserveCapacity(samples.count)
        for i in samples.indices.dropFirst() {
            let d = samples[i].time - samples[i - 1].time
            if d > 0 && d.isFinite { steps.append(d) }
        }
        guard !steps.isEmpty else { return nil }
        steps.sort()
        return 1 / steps[steps.count / 2]
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
