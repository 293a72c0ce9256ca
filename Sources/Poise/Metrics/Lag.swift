/// Lag of a filter on moving segments (conventions.md, optional metric): the shift that
/// maximises the cross-correlation between output and input.
public struct LagResult: Sendable, Equatable, Codable {
    /// The best shift in samples (output delayed by this many samples matches the input best).
    public var samples: Int
    /// `samples / sampleRate × 1000`, milliseconds.
    public var milliseconds: Double
    /// The normalised correlation at that shift (1 = identical shape).
    public var correlation: Double
    /// Samples used (inside the segments, for every shift).
    public var evaluatedSamples: Int
}

/// Finds the delay `d` in `0...maximumShift` samples maximising
/// `Σ (x_i − x̄)·(y_{i+d} − ȳ)` (vector dot product, means over each segment) over the moving
/// `segments`, normalised by the two signals' norms. Positive `d`: the output lags the input.
///
/// - Parameters:
///   - output: filter outputs, one per input.
///   - input: raw inputs.
///   - segments: index ranges to use (for example the complement of the still segments).
///   - sampleRate: nominal rate in Hz, to convert samples to milliseconds.
///   - maximumShift: largest shift tried, samples.
/// - Returns: `nil` when no segment is longer than `maximumShift` or the signals are constant.
/// - Complexity: O(n · maximumShift).
public func lag<Value: SignalValue>(output: [Value], input: [Value], segments: [Range<Int>], sampleRate: Double,
                                    maximumShift: Int) -> LagResult? {
    precondition(output.count == input.count, "one output per input")
    let usable = segments.filter { $0.count > maximumShift + 1 && $0.lowerBound >= 0 && $0.upperBound <= input.count }
    guard !usable.isEmpty, maximumShift >= 0 else { return nil }
    func dot(_ a: Value, _ b: Value) -> Double {
        var sum = 0.0
        for i in 0..<Value.laneCount { sum += Double(a.lane(i)) * Double(b.lane(i)) }
        return sum
    }
    func mean(_ values: [Value], _ range: Range<Int>) -> Value {
        var sum = Value.zero
        for i in range { sum = sum + values[i] }
        return (1 / Value.Scalar(range.count)) * sum
    }
    var best: (shift: Int, correlation: Double)? = nil
    var evaluated = 0
    for shift in 0...maximumShift {
        var cross = 0.0, inputEnergy = 0.0, outputEnergy = 0.0
        var count = 0
        for segment in usable {
            let inputRange = segment.lowerBound..<(segment.upperBound - shift)
            let outputRange = (segment.lowerBound + shift)..<segment.upperBound
            let inputMean = mean(input, inputRange), outputMean = mean(output, outputRange)
            for i in inputRange {
                let x = input[i] - inputMean, y = output[i + shift] - outputMean
                cross += dot(x, y)
                inputEnergy += dot(x, x)
                outputEnergy += dot(y, y)
            }
            count += inputRange.count
        }
        guard inputEnergy > 0, outputEnergy > 0 else { continue }
        let correlation = cross / (inputEnergy * outputEnergy).squareRoot()
        if best == nil || correlation > best!.correlation {
            best = (shift, correlation)
            evaluated = count
        }
    }
    guard let best else { return nil }
    return LagResult(samples: best.shift, milliseconds: Double(best.shift) / sampleRate * 1000,
                     correlation: best.correlation, evaluatedSamples: evaluated)
}

/// The index ranges between still segments (the moving parts of a recording of `count`
/// samples), keeping those of at least `minimumCount` samples.
public func movingSegments(count: Int, still: [Range<Int>], minimumCount: Int = 2) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = 0
    for segment in still.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if segment.lowerBound - start >= minimumCount { result.append(start..<segment.lowerBound) }
        start = max(start, segment.upperBound)
    }
    if count - start >= minimumCount { result.append(start..<count) }
    return result
}
