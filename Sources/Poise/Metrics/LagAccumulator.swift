/// Lag (conventions.md) one sample at a time, in memory bounded by the largest shift: the one
/// implementation of the metric (``lag(output:input:segments:sampleRate:maximumShift:)`` runs it
/// over arrays).
///
/// Feed the samples of a moving segment in order with `add(output:input:)` and close it with
/// `endSegment()`; samples outside moving segments are not added. A segment is used when it holds
/// more than `maximumShift` samples. Per shift `s` and lane the sums over the pairs
/// `(x_i, y_{i+s})` of the segment are accumulated in increasing i and added to the totals when the
/// segment ends, lane after lane. `result(sampleRate:)` takes the Pearson coefficient of the pooled
/// pairs per shift, the shift with the largest one, refined by a parabola through it and its
/// neighbours.
///
/// Samples are buffered in blocks of 256. Per block and lane only the cross products depend on
/// the shift: Σ x_{k−s}·y_k is summed for every shift (four products at a time in SIMD lanes, two
/// vector accumulators), while Σx, Σx² come from prefix sums over the block and its history and
/// Σy, Σy² from suffix sums over the block (one pass each), so a shift costs one multiply-add per
/// pair instead of five operations.
///
/// Memory: five sums per shift and lane, and per lane the last `maximumShift` inputs and one
/// block, plus the block's prefix and suffix sums: about `(6 × lanes + 8) × (maximumShift + 1) +
/// 1024 × lanes` doubles (about 240 KB for 2 s at 285.7 Hz with 3 lanes). Cost per sample:
/// `lanes × (maximumShift + 1)` multiply-adds, vectorised.
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

    // The current segment: sums per lane and shift (index lane × width + shift). Samples are
    // buffered in blocks and added per shift over a whole block (the same additions in the same
    // order as one sample at a time, but with the five sums in registers): per lane, `inputs`
    // holds the `maximumShift` inputs before the block and then the block's inputs, `outputs` the
    // block's outputs.
    var localX: [Double]
    var localY: [Double]
    var localXX: [Double]
    var localYY: [Double]
    var localXY: [Double]
    var inputs: [Double]
    var outputs: [Double]
    // Scratch for one lane of one block: prefix sums of x and x² over the history and the block
    // (index i: the sum of the first i values), suffix sums of y and y² over the block.
    var prefixX: [Double]
    var prefixXX: [Double]
    var suffixY: [Double]
    var suffixYY: [Double]
    /// Samples of the current segment before the block, and in the block.
    var flushed = 0
    var blockCount = 0
    static var blockLength: Int { 256 }

    /// - Parameter maximumShift: largest shift tried, samples (values below 1 count as 1).
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public init(maximumShift: Int) {
        self.maximumShift = max(1, maximumShift)
        width = self.maximumShift + 1
        sumX = Array(repeating: 0, count: width)
        sumY = sumX; sumXX = sumX; sumYY = sumX; sumXY = sumX
        pairs = Array(repeating: 0, count: width)
        localX = Array(repeating: 0, count: width * Value.laneCount)
        localY = localX; localXX = localX; localYY = localX; localXY = localX
        inputs = Array(repeating: 0, count: (self.maximumShift + Self.blockLength) * Value.laneCount)
        outputs = Array(repeating: 0, count: Self.blockLength * Value.laneCount)
        prefixX = Array(repeating: 0, count: self.maximumShift + Self.blockLength + 1)
        prefixXX = prefixX
        suffixY = Array(repeating: 0, count: Self.blockLength + 1)
        suffixYY = suffixY
    }

    /// Samples added to the current segment.
    public var segmentCount: Int { flushed + blockCount }

    /// Adds the next sample of the current moving segment: the filter's output and the raw input
    /// (both in the signal's unit, g for acceleration), one nominal period after the previous one.
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public mutating func add(output: Value, input: Value) {
        let stride = maximumShift + Self.blockLength
        for lane in 0 ..< Value.laneCount {
            inputs[lane * stride + maximumShift + blockCount] = Double(input.lane(lane))
            outputs[lane * Self.blockLength + blockCount] = Double(output.lane(lane))
        }
        blockCount += 1
        if blockCount == Self.blockLength { flush() }
    }

    /// Adds the block's pairs to the segment's sums and keeps its last inputs as history.
    mutating func flush() {
        guard blockCount > 0 else { return }
        let shift = maximumShift, width = self.width, count = blockCount, before = flushed
        let laneStride = shift + Self.blockLength
        inputs.withUnsafeMutableBufferPointer { inputs in
            outputs.withUnsafeBufferPointer { outputs in
            prefixX.withUnsafeMutableBufferPointer { px in
            prefixXX.withUnsafeMutableBufferPointer { pxx in
            suffixY.withUnsafeMutableBufferPointer { sy in
            suffixYY.withUnsafeMutableBufferPointer { syy in
            localX.withUnsafeMutableBufferPointer { lx in
            localY.withUnsafeMutableBufferPointer { ly in
            localXX.withUnsafeMutableBufferPointer { lxx in
            localYY.withUnsafeMutableBufferPointer { lyy in
            localXY.withUnsafeMutableBufferPointer { lxy in
                for lane in 0 ..< Value.laneCount {
                    let history = inputs.baseAddress! + lane * laneStride   // x[k − s] is history[shift + k − s]
                    let y = outputs.baseAddress! + lane * Self.blockLength
                    // Prefix sums over the segment's part of history + block (what came before
                    // the segment never enters a sum), suffix sums over the block.
                    let start = Swift.max(0, shift - before)
                    px[start] = 0; pxx[start] = 0
                    for i in start ..< shift + count {
                        let v = history[i]
                        px[i + 1] = px[i] + v; pxx[i + 1] = pxx[i] + v * v
                    }
                    sy[count] = 0; syy[count] = 0
                    for k in stride(from: count - 1, through: 0, by: -1) {
                        let v = y[k]
                        sy[k] = sy[k + 1] + v; syy[k] = syy[k + 1] + v * v
                    }
                    for s in 0 ... shift {
                        // Pairs (x_{k−s}, y_k) with k − s at or after the segment's start.
                        let first = Swift.max(0, s - before)
                        guard first < count else { continue }
                        let index = lane * width + s
                        let lower = shift + first - s, upper = shift + count - s
                        lx[index] += px[upper] - px[lower]
                        lxx[index] += pxx[upper] - pxx[lower]
                        ly[index] += sy[first]
                        lyy[index] += syy[first]
                        lxy[index] += Self.crossSum(history + (shift - s), y, from: first, to: count)
                    }
                    // The last `shift` inputs become the history before the next block.
                    history.update(from: history + count, count: shift)
                }
            }}}}}}}}}}
        }
        flushed += count
        blockCount = 0
    }

    /// Σ x[k]·y[k] for k in `from ..< to`, eight products per step in two SIMD4 accumulators.
    @inline(__always)
    static func crossSum(_ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>, from: Int, to: Int) -> Double {
        var a0 = SIMD4<Double>.zero, a1 = SIMD4<Double>.zero
        var k = from
        let rawX = UnsafeRawPointer(x), rawY = UnsafeRawPointer(y)
        let size = MemoryLayout<Double>.stride
        while k + 8 <= to {
            let x0 = rawX.loadUnaligned(fromByteOffset: k * size, as: SIMD4<Double>.self)
            let y0 = rawY.loadUnaligned(fromByteOffset: k * size, as: SIMD4<Double>.self)
            let x1 = rawX.loadUnaligned(fromByteOffset: (k + 4) * size, as: SIMD4<Double>.self)
            let y1 = rawY.loadUnaligned(fromByteOffset: (k + 4) * size, as: SIMD4<Double>.self)
            a0 = a0.addingProductFast(x0, y0); a1 = a1.addingProductFast(x1, y1)
            k += 8
        }
        var sum = (a0 + a1).sum()
        while k < to { sum += x[k] * y[k]; k += 1 }
        return sum
    }

    /// Ends the current moving segment: it is used when it holds more than `maximumShift` samples.
    /// The next `add` starts a new segment.
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public mutating func endSegment() {
        flush()
        let count = flushed
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
        flushed = 0
    }

    /// The lag over the used segments so far (`endSegment` the last one first): the shift of the
    /// output behind the input in samples and milliseconds (`samples / sampleRate × 1000`, with
    /// `sampleRate` the nominal rate in Hz).
    /// `nil` when no segment was used or the signals do not correlate positively at any shift
    /// (for example a constant input).
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public func result(sampleRate: Double) -> LagResult? {
        guard used > 0 else { return nil }
        let shifts = maximumShift
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
        return LagResult(samples: shift, milliseconds: shift / sampleRate * 1000, evaluatedSamples: evaluated,
                         segmentCount: used)
    }
}
