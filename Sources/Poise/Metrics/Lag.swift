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
/// For every shift `s = 0 … maximumShift` the correlation `c(s)` is the Pearson coefficient of
/// the pairs `(x_i, y_{i+s})` that lie inside one segment, all lanes pooled (means and variances
/// over exactly those pairs, so neither the overlap length nor a trend biases the peak). The shift
/// with the largest
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
    // Per shift: sums over the pairs (x_i, y_{i+s}) inside one segment, all lanes pooled.
    var sumX = [Double](repeating: 0, count: shifts + 1), sumY = sumX
    var sumXX = sumX, sumYY = sumX, sumXY = sumX
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
            for i in segment {
                x.append(Double(input[i].lane(lane)))
                y.append(Double(output[i].lane(lane)))
            }
            let n = x.count
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    for s in 0...shifts {
                        var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                        for i in 0..<(n - s) {
                            let a = x[i], b = y[i + s]
                            sx += a; sy += b; sxx += a * a; syy += b * b; sxy += a * b
                        }
                        sumX[s] += sx; sumY[s] += sy; sumXX[s] += sxx; sumYY[s] += syy; sumXY[s] += sxy
                        pairs[s] += n - s
                    }
                }
            }
        }
    }
    return lagResult(sumX: sumX, sumY: sumY, sumXX: sumXX, sumYY: sumYY, sumXY: sumXY, pairs: pairs,
                     shifts: shifts, sampleRate: sampleRate, evaluated: evaluated, used: used)
}

/// The lag from the per-shift sums of `lag(output:input:segments:sampleRate:maximumShift:)` (shared
/// with `LagAccumulator`): the Pearson coefficient per shift, the best shift, the parabola.
func lagResult(sumX: [Double], sumY: [Double], sumXX: [Double], sumYY: [Double], sumXY: [Double], pairs: [Int],
               shifts: Int, sampleRate: Double, evaluated: Int, used: Int) -> LagResult? {
    guard used > 0 else { return nil }
    // Pearson correlation coefficient of the pairs at each shift.
    let correlation: [Double] = (0...shifts).map { s in
        let n = Double(pairs[s])
        guard n > 1 else { return -Double.infinity }
        let covariance = sumXY[s] - sumX[s] * sumY[s] / n
        let varianceX = sumXX[s] - sumX[s] * sumX[s] / n
        let varianceY = sumYY[s] - sumY[s] * sumY[s] / n
        guard varianceX > 0, varianceY > 0 else { return -Double.infinity }
        return covariance / (varianceX * varianceY).squareRoot()
    }
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
