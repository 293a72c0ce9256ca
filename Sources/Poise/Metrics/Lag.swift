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
/// that maximises the cross-correlation between output and input over moving segments).
///
/// Within each segment both signals have their per-lane mean removed. For every shift
/// `s = 0 … maximumShift` the correlation is `c(s) = Σ (x_i − x̄)·(y_{i+s} − ȳ) / pairs(s)`,
/// summed over lanes and over the pairs `(i, i+s)` that lie inside one segment (the division by
/// the number of pairs keeps long shifts from being penalised). The shift with the largest
/// `c(s)` is refined by a parabola through it and its neighbours. Samples are taken as one
/// nominal period apart (`1 / sampleRate`).
///
/// - Parameters:
///   - output: filter outputs, one per input sample.
///   - input: raw inputs (same count).
///   - segments: index ranges of moving samples (for example ``movingSegments(complementing:count:minimumLength:)``).
///   - sampleRate: nominal rate in Hz, to convert samples to milliseconds.
///   - maximumShift: largest shift tried, samples (≥ 1).
/// - Returns: `nil` when no segment holds more than `maximumShift` samples or the signals do
///   not correlate positively at any shift (for example a constant input).
/// - Complexity: O(n · maximumShift) over the segment samples.
/// - Precondition: `output.count == input.count`; segments lie inside them.
public func lag<Value: SignalValue>(output: [Value], input: [Value], segments: [Range<Int>], sampleRate: Double,
                                    maximumShift: Int) -> LagResult? {
    precondition(output.count == input.count, "one output per input")
    let shifts = max(1, maximumShift)
    var sums = [Double](repeating: 0, count: shifts + 1)
    var pairs = [Int](repeating: 0, count: shifts + 1)
    var evaluated = 0, used = 0
    var x: [Double] = [], y: [Double] = []
    for segment in segments where segment.count > shifts {
        precondition(segment.lowerBound >= 0 && segment.upperBound <= input.count, "segment out of range")
        evaluated += segment.count
        used += 1
        for lane in 0..<Value.laneCount {
            x.removeAll(keepingCapacity: true)
            y.removeAll(keepingCapacity: true)
            var meanX = 0.0, meanY = 0.0
            for i in segment {
                let a = Double(input[i].lane(lane)), b = Double(output[i].lane(lane))
                x.append(a); y.append(b)
                meanX += a; meanY += b
            }
            meanX /= Double(segment.count)
            meanY /= Double(segment.count)
            for i in x.indices { x[i] -= meanX; y[i] -= meanY }
            let n = x.count
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    for s in 0...shifts {
                        var sum = 0.0
                        for i in 0..<(n - s) { sum += x[i] * y[i + s] }
                        sums[s] += sum
                    }
                }
            }
        }
        for s in 0...shifts { pairs[s] += segment.count - s }
    }
    guard used > 0 else { return nil }
    let correlation = (0...shifts).map { pairs[$0] > 0 ? sums[$0] / Double(pairs[$0]) : -Double.infinity }
    var best = 0
    for s in 1...shifts where correlation[s] > correlation[best] { best = s }
    guard correlation[best] > 0 else { return nil }
    var shift = Double(best)
    if best > 0, best < shifts {
        let left = correlation[best - 1], centre = correlation[best], right = correlation[best + 1]
        let curvature = left - 2 * centre + right
        if curvature < 0 { shift += 0.5 * (left - right) / curvature }
    }
    return LagResult(samples: shift, milliseconds: shift / sampleRate * 1000, evaluatedSamples: evaluated, segmentCount: used)
}

/// The runs of indices in `0 ..< count` outside `still` that hold at least `minimumLength`
/// samples, in order: the moving segments of a recording whose still segments are `still`.
///
/// - Parameter still: sorted, non-overlapping index ranges (as from ``RestDetector``).
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
