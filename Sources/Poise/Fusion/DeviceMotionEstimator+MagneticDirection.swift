extension DeviceMotionEstimator {
    /// The field-direction consistency test (`magneticDirectionThreshold`), at a magnetometer
    /// update: whether the heading disagreement `d` (rad, (−π, π]) is within the threshold of
    /// its low-pass. The low-pass follows `d` (wrapped difference) either way, so a field that
    /// settles in a new direction passes again after a few time constants.
    @inlinable @inline(__always)
    mutating func directionConsistent(_ d: Double) -> Bool {
        var difference = d - state.magneticDirectionMean
        if difference > .pi { difference -= 2 * .pi } else if difference < -.pi { difference += 2 * .pi }
        var mean = state.magneticDirectionMean + coefficients.magneticDirectionGain * difference
        if mean > .pi { mean -= 2 * .pi } else if mean < -.pi { mean += 2 * .pi }
        state.magneticDirectionMean = mean
        return difference.magnitude <= coefficients.magneticDirectionThreshold
    }
}
