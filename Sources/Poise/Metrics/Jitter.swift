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

/// Measures jitter of `output` against `input` over still `segments`.
///
/// For every sample whose centred window `[t − window/2, t + window/2]` lies inside its segment,
/// the residual is the Euclidean norm of `y − ȳ` (ȳ: mean of the samples of the segment in that
/// window, timestamps may be irregular). Jitter is the RMS of these residuals; samples closer
/// than `window/2` to a segment end are not evaluated (their window would not be centred), so a
/// segment needs at least `window` seconds.
///
/// - Parameters:
///   - output: filter outputs, one per input sample.
///   - input: raw inputs (same count).
///   - times: timestamps in seconds (same count, non-decreasing within a segment).
///   - segments: index ranges of still samples (for example from ``RestDetector``).
///   - window: moving-average length in seconds (default 1).
/// - Complexity: O(n), accumulating in the value type.
/// - Precondition: `output`, `input` and `times` have equal counts; segments lie inside them.
@_specialize(exported: true, where Value == SIMD3<Double>)
public func jitter<Value: SignalValue>(output: [Value], input: [Value], times: [Double], segments: [Range<Int>],
                                       window: Double = 1) -> JitterResult {
    precondition(output.count == input.count && input.count == times.count, "one output and one time per input")
    // A hair of slack so that a sample exactly window/2 away counts on both sides despite rounding.
    let half = window / 2
    let reach = half * (1 + 1e-9)
    var sumOutput = 0.0, sumInput = 0.0
    var evaluated = 0
    var stillSeconds = 0.0
    for segment in segments where !segment.isEmpty {
        precondition(segment.lowerBound >= 0 && segment.upperBound <= times.count, "segment out of range")
        let first = times[segment.lowerBound], last = times[segment.upperBound - 1]
        stillSeconds += last - first
        var low = segment.lowerBound, high = segment.lowerBound   // window is [low, high)
        var windowOutput = Value.zero, windowInput = Value.zero
        for i in segment {
            let t = times[i]
            guard t - first >= half, last - t >= half else { continue }
            while high <= i || (high < segment.upperBound && times[high] <= t + reach) {
                windowOutput = windowOutput + output[high]
                windowInput = windowInput + input[high]
                high += 1
            }
            while times[low] < t - reach {
                windowOutput = windowOutput - output[low]
                windowInput = windowInput - input[low]
                low += 1
            }
            let scale = 1 / Value.Scalar(high - low)
            sumOutput += Double((output[i] - scale * windowOutput).lengthSquared)
            sumInput += Double((input[i] - scale * windowInput).lengthSquared)
            evaluated += 1
        }
    }
    let jitter = evaluated > 0 ? (sumOutput / Double(evaluated)).squareRoot() : 0
    let raw = evaluated > 0 ? (sumInput / Double(evaluated)).squareRoot() : 0
    return JitterResult(jitter: jitter, rawJitter: raw, attenuation: jitter > 0 ? raw / jitter : nil,
                        stillSeconds: stillSeconds, evaluatedSamples: evaluated,
                        segmentCount: segments.filter { !$0.isEmpty }.count)
}
