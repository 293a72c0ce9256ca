/// Jitter of a filter on still segments (conventions.md).
public struct JitterResult: Sendable, Equatable, Codable {
    /// RMS over the evaluated samples of `|y − ȳ|`, where ȳ is the centred moving average of the
    /// output over `window` seconds. Input unit (g for acceleration).
    public var jitter: Double
    /// The same for the raw input on the same samples.
    public var rawJitter: Double
    /// `rawJitter / jitter`: how many times the filter reduces jitter (> 1 is smoother);
    /// `nil` when `jitter` is 0.
    public var attenuation: Double?
    /// Total duration of the still segments, seconds (last minus first timestamp, summed).
    public var stillSeconds: Double
    /// Number of samples whose full centred window lies inside a segment (the evaluated ones).
    public var evaluatedSamples: Int
    /// Number of segments used.
    public var segmentCount: Int
}

/// Measures jitter of `output` against `input` over still `segments`: runs a
/// ``JitterAccumulator`` over the segments' items, one segment after the other.
///
/// For every sample whose centred window `[t − window/2, t + window/2]` lies inside its segment,
/// the residual is the Euclidean norm of `y − ȳ` (ȳ: mean of the samples of the segment in that
/// window, timestamps may be irregular). Jitter is the RMS of these residuals; samples closer
/// than `window/2` to a segment end are not evaluated (their window would not be centred), so a
/// segment needs at least `window` seconds.
///
/// - Parameters:
///   - output: filter outputs, one per input sample (signal unit, g for acceleration).
///   - input: raw inputs (same count, same unit).
///   - times: timestamps in seconds (same count, non-decreasing within a segment).
///   - segments: index ranges of still samples (for example from ``RestDetector``); empty ones
///     are skipped, overlapping ones are measured each on its own.
///   - window: moving-average length in seconds (default 1).
/// - Complexity: O(n), accumulating in the value type; memory of one window besides the arrays.
/// - Precondition: `output`, `input` and `times` have equal counts; segments lie inside them.
@_specialize(exported: true, where Value == SIMD3<Double>)
public func jitter<Value: SignalValue>(output: [Value], input: [Value], times: [Double], segments: [Range<Int>],
                                       window: Double = 1) -> JitterResult {
    precondition(output.count == input.count && input.count == times.count, "one output and one time per input")
    var accumulator = JitterAccumulator<Value>(window: window)
    for segment in segments where !segment.isEmpty {
        precondition(segment.lowerBound >= 0 && segment.upperBound <= times.count, "segment out of range")
        for i in segment { accumulator.add(time: times[i], output: output[i], input: input[i]) }
        accumulator.endSegment(keep: true)
    }
    return accumulator.result
}
