/// `lag(output:input:segments:sampleRate:maximumShift:)` one sample at a time, in memory bounded
/// by the largest shift.
///
/// Feed the samples of a moving segment in order with `add(output:input:)` and close it with
/// `endSegment()`; samples outside moving segments are not added. A segment is used when it holds
/// more than `maximumShift` samples, as in the batch function. Per shift and lane the sums over the
/// pairs `(x_i, y_{i+s})` are accumulated in the same order as the batch function (increasing i)
/// and added to the totals when the segment ends, lane after lane, so `result(sampleRate:)` is bit
/// for bit the batch result on the same segments.
///
/// Memory: the last `maximumShift + 1` inputs and five sums per shift and lane, about
/// `(5 × lanes + 6) × (maximumShift + 1)` doubles (200 KB for 2 s at 285.7 Hz with 3 lanes).
/// Cost: `5 × lanes × (maximumShift + 1)` additions per sample, as in the batch function.
public struct LagAccumulator<Value: SignalValue>: Sendable {
    /// Largest shift tried, samples (at least 1).
    public let maximumShift: Int
    let width: Int

    // Totals per shift over the used segments.
    var sumX: [Double]
    var sumY: [Double]
    var sumXX: [Double]
    var sumYY: [Double]
    var sumXY: [Double]
    var pairs: [Int]
    var evaluated = 0
    var used = 0

    // The current segment: sums per lane and shift (index lane × width + shift), and the inputs
    // of the last `width` samples per lane, stored twice (at p and p + width) so that the inputs
    // x_j, x_{j−1}, … x_{j−maximumShift} lie at consecutive, decreasing indices.
    var localX: [Double]
    var localY: [Double]
    var localXX: [Double]
    var localYY: [Double]
    var localXY: [Double]
    var history: [Double]
    var position = 0
    var count = 0

    /// - Parameter maximumShift: largest shift tried, samples (values below 1 count as 1).
    public init(maximumShift: Int) {
        self.maximumShift = max(1, maximumShift)
        width = self.maximumShift + 1
        sumX = Array(repeating: 0, count: width)
        sumY = sumX; sumXX = sumX; sumYY = sumX; sumXY = sumX
        pairs = Array(repeating: 0, count: width)
        localX = Array(repeating: 0, count: width * Value.laneCount)
        localY = localX; localXX = localX; localYY = localX; localXY = localX
        history = Array(repeating: 0, count: 2 * width * Value.laneCount)
    }

    /// Samples added to the current segment.
    public var segmentCount: Int { count }

    /// Adds the next sample of the current moving segment: the filter's output and the raw input.
    public mutating func add(output: Value, input: Value) {
        let width = self.width
        let reachable = min(count, width - 1)   // shifts 0 … reachable have a pair ending here
        let slot = position
        history.withUnsafeMutableBufferPointer { history in
            localX.withUnsafeMutableBufferPointer { sx in
            localY.withUnsafeMutableBufferPointer { sy in
            localXX.withUnsafeMutableBufferPointer { sxx in
            localYY.withUnsafeMutableBufferPointer { syy in
            localXY.withUnsafeMutableBufferPointer { sxy in
                for lane in 0 ..< Value.laneCount {
                    let ring = lane * 2 * width
                    let a0 = Double(input.lane(lane))
                    history[ring + slot] = a0
                    history[ring + slot + width] = a0
                    let b = Double(output.lane(lane))
                    let newest = ring + slot + width   // x_j; x_{j−s} at newest − s
                    let sums = lane * width
                    for s in 0 ... reachable {
                        let a = history[newest - s]
                        sx[sums + s] += a; sy[sums + s] += b; sxx[sums + s] += a * a
                        syy[sums + s] += b * b; sxy[sums + s] += a * b
                    }
                }
            }}}}}
        }
        position = slot + 1 == width ? 0 : slot + 1
        count += 1
    }

    /// Ends the current moving segment: it is used when it holds more than `maximumShift` samples.
    /// The next `add` starts a new segment.
    public mutating func endSegment() {
        if count > maximumShift {
            for lane in 0 ..< Value.laneCount {
                for s in 0 ..< width {
                    let index = lane * width + s
                    sumX[s] += localX[index]; sumY[s] += localY[index]; sumXX[s] += localXX[index]
                    sumYY[s] += localYY[index]; sumXY[s] += localXY[index]
                    pairs[s] += count - s
                }
            }
            evaluated += count
            used += 1
        }
        if count > 0 {
            for index in localX.indices {
                localX[index] = 0; localY[index] = 0; localXX[index] = 0; localYY[index] = 0; localXY[index] = 0
            }
        }
        count = 0
        position = 0
    }

    /// The lag over the used segments so far (`endSegment` the last one first); `nil` as for the
    /// batch function.
    public func result(sampleRate: Double) -> LagResult? {
        lagResult(sumX: sumX, sumY: sumY, sumXX: sumXX, sumYY: sumYY, sumXY: sumXY, pairs: pairs,
                  shifts: maximumShift, sampleRate: sampleRate, evaluated: evaluated, used: used)
    }
}
