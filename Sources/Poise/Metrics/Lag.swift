/// Lag of a filter on moving segments (conventions.md, optional metric).
public struct LagResult: Sendable, Equatable, Codable {
    /// The shift of the output behind the input that maximises their cross-correlation, in
    /// samples (fractional: refined by a parabola through the peak and its neighbours). Positive
    /// means the output is late.
    public var samples: Double
    /// `samples / sampleRate × 1000`, milliseconds.
    public var milliseconds: Double
    /// Number of moving samples used.
    public var evaluatedSamples: Int
    /// Number of segments used.
    public var segmentCount: Int
}

/// Measures the lag of `output` behind `input` over `segments` (conventions.md: the time shift
/// that maximises the cross-correlation between output and input over moving segments): runs a
/// ``LagAccumulator`` over the segments' samples, one segment after the other.
///
/// For every shift `s = 0 … maximumShift` the correlation `c(s)` is the Pearson coefficient of
/// the pairs `(x_i, y_{i+s})` that lie inside one segment, all lanes pooled (means and variances
/// over exactly those pairs, so neither the overlap length nor a trend biases the peak). The shift
/// with the largest `c(s)` is refined by a parabola through it and its neighbours. Samples are
/// taken as one nominal period apart (`1 / sampleRate`).
///
/// - Parameters:
///   - output: filter outputs, one per input sample (signal unit).
///   - input: raw inputs (same count, same unit).
///   - segments: index ranges of moving samples (for example ``movingSegments(complementing:count:minimumLength:)``);
///     those of at most `maximumShift` samples are skipped.
///   - sampleRate: nominal rate in Hz, to convert samples to milliseconds.
///   - maximumShift: largest shift tried, samples (values below 1 count as 1).
/// - Returns: `nil` when no segment holds more than `maximumShift` samples or the signals do
///   not correlate positively at any shift (for example a constant input).
/// - Complexity: O(n · maximumShift) over the segment samples; memory of the accumulator
///   (O(maximumShift)) besides the arrays.
/// - Precondition: `output.count == input.count`; segments lie inside them.
@_specialize(exported: true, where Value == SIMD3<Double>)
public func lag<Value: SignalValue>(output: [Value], input: [Value], segments: [Range<Int>], sampleRate: Double,
                                    maximumShift: Int) -> LagResult? {
    precondition(output.count == input.count, "one output per input")
    var accumulator = LagAccumulator<Value>(maximumShift: maximumShift)
    for segment in segments where segment.count > accumulator.maximumShift {
        precondition(segment.lowerBound >= 0 && segment.upperBound <= input.count, "segment out of range")
        for i in segment { accumulator.add(output: output[i], input: input[i]) }
        accumulator.endSegment()
    }
    return accumulator.result(sampleRate: sampleRate)
}

/// The runs of indices in `0 ..< count` outside `still` that hold at least `minimumLength`
/// samples, in order: the moving segments of a recording whose still segments are `still`.
///
/// - Parameters:
///   - still: sorted, non-overlapping index ranges (as from ``RestDetector``).
///   - count: number of samples of the recording.
///   - minimumLength: shortest moving segment kept, samples.
/// - Complexity: O(segments).
public func movingSegments(complementing still: [Range<Int>], count: Int, minimumLength: Int) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = 0
    for segment in still {
        if segment.lowerBound - start >= max(1, minimumLength) { result.append(start..<segment.lowerBound) }
        start = max(start, segment.upperBound)
    }
    if count - start >= max(1, minimumLength) { result.append(start..<count) }
    return result
}
