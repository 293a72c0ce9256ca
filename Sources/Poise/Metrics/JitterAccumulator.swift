/// Jitter (conventions.md) one item at a time, in memory bounded by one moving-average window:
/// the one implementation of the metric (``jitter(output:input:times:segments:window:)`` runs it
/// over arrays).
///
/// Feed the items of a still segment in order with `add(time:output:input:)` and close the segment
/// with `endSegment(keep:)`; items outside segments are simply not added. `keep: false` discards
/// the segment (its contributions are taken back exactly), so a caller can add the items of a
/// quiet run before it knows whether the run is long enough to be a still segment.
///
/// For every item whose centred window `[t − window/2, t + window/2]` lies inside its segment, the
/// residual is the Euclidean norm of `y − ȳ` (ȳ: mean of the segment's items in that window, kept
/// as running window sums); `result` is the RMS of these residuals over the kept segments. Items
/// closer than `window/2` to a segment end are not evaluated, so a segment needs at least `window`
/// seconds.
///
/// A residual is computed as soon as its centred window is complete (an item later than
/// `t + window/2` has arrived) or when its segment ends, so the accumulator holds only the items of
/// the current segment from the oldest one still in a window: about `window × rate` items (plus,
/// at a segment's start, the first `window / 2`).
///
/// Units: time in seconds (non-decreasing within a segment), output and input in the signal's unit
/// (g for acceleration); `window` in seconds (default 1, conventions.md).
public struct JitterAccumulator<Value: SignalValue>: Sendable {
    /// Moving-average length, s.
    public let window: Double
    /// Whether the input's residuals are computed (`false`: `result(inputOf:)` takes them from
    /// an accumulator fed the same input).
    public let measuresInput: Bool
    let half: Double
    let reach: Double

    // Totals over the kept segments.
    var sumOutput = 0.0
    var sumInput = 0.0
    var evaluated = 0
    var stillSeconds = 0.0
    var segmentCount = 0
    // Totals when the current segment began (restored when it is discarded).
    var savedOutput = 0.0
    var savedInput = 0.0
    var savedEvaluated = 0

    // The current segment: items [low, count) are `times[head...]`, `outputs[head...]` and (when
    // the input is measured) `inputs[head...]`.
    var times: [Double] = []
    var outputs: [Value] = []
    var inputs: [Value] = []
    var head = 0
    var low = 0
    var count = 0
    var high = 0
    var next = 0
    var first = 0.0
    var last = 0.0
    var windowOutput = Value.zero
    var windowInput = Value.zero

    /// - Parameters:
    ///   - window: moving-average length in seconds (default 1).
    ///   - measuresInput: `false` skips the input's residuals, for many accumulators fed the same
    ///     input and items (the filters of a sweep): `result(inputOf:)` then takes them from one
    ///   that measures them.
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public init(window: Double = 1, measuresInput: Bool = true) {
        self.window = window
        self.measuresInput = measuresInput
        half = window / 2
        // A hair of slack so that an item exactly window/2 away counts on both sides despite rounding.
        reach = half * (1 + 1e-9)
    }

    /// Adds the next item of the current segment (starting one if none is open).
    ///
    /// - Parameters: time in s, the filter's output and the raw input at that time.
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public mutating func add(time: Double, output: Value, input: Value) {
        if count == 0 {
            first = time
            savedOutput = sumOutput; savedInput = sumInput; savedEvaluated = evaluated
        }
        times.append(time)
        outputs.append(output)
        if measuresInput { inputs.append(input) }
        count += 1
        last = time
        evaluate(closing: false)
    }

    /// Adds the next items of the current segment (starting one if none is open): the same sums,
    /// bit for bit, as `add(time:output:input:)` called for each in order, with the residuals
    /// whose window is complete computed once at the end (a run of items costs one pass instead
    /// of one call per item).
    ///
    /// - Parameters: `times` in s, the filter's `outputs` and the raw `inputs` at those times
    ///   (equal counts).
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public mutating func add(times: UnsafeBufferPointer<Double>, outputs: UnsafeBufferPointer<Value>, inputs: UnsafeBufferPointer<Value>) {
        precondition(outputs.count == times.count && inputs.count == times.count, "times, outputs and inputs differ in count")
        guard let newest = times.last else { return }
        if count == 0 {
            first = times[0]
            savedOutput = sumOutput; savedInput = sumInput; savedEvaluated = evaluated
        }
        self.times.append(contentsOf: times)
        self.outputs.append(contentsOf: outputs)
        if measuresInput { self.inputs.append(contentsOf: inputs) }
        count += times.count
        last = newest
        evaluate(closing: false)
    }

    /// Closes the current segment: `keep` adds it to the result, otherwise everything it
    /// contributed is taken back. Does nothing when no item was added since the last call.
    @_specialize(exported: true, where Value == SIMD3<Double>)
    public mutating func endSegment(keep: Bool) {
        guard count > 0 else { return }
        evaluate(closing: true)
        if keep {
            stillSeconds += last - first
            segmentCount += 1
        } else {
            sumOutput = savedOutput; sumInput = savedInput; evaluated = savedEvaluated
        }
        times.removeAll(keepingCapacity: true)
        outputs.removeAll(keepingCapacity: true)
        inputs.removeAll(keepingCapacity: true)
        head = 0; low = 0; count = 0; high = 0; next = 0
        windowOutput = .zero; windowInput = .zero
    }

    /// True while a segment is open (items added since the last `endSegment`).
    public var inSegment: Bool { count > 0 }

    /// Items held (the current segment from the oldest one still inside a window).
    public var bufferedCount: Int { times.count - head }

    /// The jitter over the kept segments so far (`endSegment` the last one first).
    public var result: JitterResult {
        let jitter = evaluated > 0 ? (sumOutput / Double(evaluated)).squareRoot() : 0
        let raw = evaluated > 0 ? (sumInput / Double(evaluated)).squareRoot() : 0
        return JitterResult(jitter: jitter, rawJitter: raw, attenuation: jitter > 0 ? raw / jitter : nil,
                            stillSeconds: stillSeconds, evaluatedSamples: evaluated, segmentCount: segmentCount)
    }

    /// The jitter over the kept segments with the raw (input) figures of `reference`, an
    /// accumulator fed the same times, inputs and segments that measures its input: the same
    /// values as `result` of an accumulator measuring its own input.
    public func result(inputOf reference: JitterAccumulator) -> JitterResult {
        var own = self
        own.sumInput = reference.sumInput
        return own.result
    }

    /// Computes the residuals whose window is complete (all remaining ones when `closing`).
    ///
    /// Runs on local copies of the window state and a pointer to the items (the loop is the
    /// accumulator's whole cost: through `self` every field would be reloaded after each store).
    mutating func evaluate(closing: Bool) {
        guard next < count else { return }
        let count = self.count, first = self.first, last = self.last, half = self.half, reach = self.reach
        let measuresInput = self.measuresInput
        var next = self.next, high = self.high, low = self.low
        var windowOutput = self.windowOutput, windowInput = self.windowInput
        var sumOutput = self.sumOutput, sumInput = self.sumInput, evaluated = self.evaluated
        // Item i of the segment is times[i + offset] (head and low advance together); the
        // pointers are moved by `offset` once.
        let offset = head - low
        times.withUnsafeBufferPointer { timeBuffer in
            outputs.withUnsafeBufferPointer { outputBuffer in
                inputs.withUnsafeBufferPointer { inputBuffer in
                    let time = timeBuffer.baseAddress! + offset, output = outputBuffer.baseAddress! + offset
                    let input = measuresInput ? inputBuffer.baseAddress! + offset : nil
                    let newest = time[count - 1]
                    while next < count {
                        let t = time[next]
                        if !closing, !(newest > t + reach) { break }
                        guard t - first >= half, last - t >= half else { next += 1; continue }
                        while high <= next || (high < count && time[high] <= t + reach) {
                            windowOutput = windowOutput + output[high]
                            if let input { windowInput = windowInput + input[high] }
                            high += 1
                        }
                        while time[low] < t - reach {
                            windowOutput = windowOutput - output[low]
                            if let input { windowInput = windowInput - input[low] }
                            low += 1
                        }
                        let scale = 1 / Value.Scalar(high - low)
                        sumOutput += Double((output[next] - scale * windowOutput).lengthSquared)
                        if let input { sumInput += Double((input[next] - scale * windowInput).lengthSquared) }
                        evaluated += 1
                        next += 1
                    }
                }
            }
        }
        self.next = next; self.high = high
        self.windowOutput = windowOutput; self.windowInput = windowInput
        self.sumOutput = sumOutput; self.sumInput = sumInput; self.evaluated = evaluated
        dropOldest(low - self.low)
    }

    /// Forgets the `dropped` oldest items (they left every window), compacting the storage once
    /// the forgotten items are at least ``compactionThreshold`` and as many as those held (each
    /// item is moved about once; the storage stays within a few windows' items, which matters to
    /// a sweep holding one accumulator per setting).
    mutating func dropOldest(_ dropped: Int) {
        head += dropped
        low += dropped
        if head >= Self.compactionThreshold && 2 * head >= times.count {
            times.removeFirst(head)
            outputs.removeFirst(head)
            if measuresInput { inputs.removeFirst(head) }
            head = 0
        }
    }

    /// Forgotten items that trigger a compaction of the storage (with as many held).
    static var compactionThreshold: Int { 256 }
}
