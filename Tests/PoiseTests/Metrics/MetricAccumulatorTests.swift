import Testing
@testable import Poise

/// The metric accumulators on analytic cases, and their streaming properties: a discarded segment
/// leaves no trace, memory is bounded by the window, short segments are skipped.
@Suite struct MetricAccumulatorTests {
    /// A random walk plus noise at an irregular rate (some repeated timestamps), and random
    /// sorted, disjoint segments with gaps, some shorter than the window or the shift.
    static func signal(seed: UInt64, count: Int) -> (times: [Double], input: [SIMD3<Double>], output: [SIMD3<Double>]) {
        var random = SplitMix(seed: seed)
        var times: [Double] = [], input: [SIMD3<Double>] = [], output: [SIMD3<Double>] = []
        var t = 0.0, walk = SIMD3<Double>(0, 0, 1), smooth = walk
        for _ in 0 ..< count {
            if random.uniform() > 0.02 { t += 0.01 * (0.6 + 0.8 * random.uniform()) }   // 2 % repeat the time
            walk += SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.01
            let x = walk + SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.003
            smooth = smooth + 0.1 * (x - smooth)
            times.append(t); input.append(x); output.append(smooth)
        }
        return (times, input, output)
    }

    static func segments(seed: UInt64, count: Int, longest: Int) -> [Range<Int>] {
        var random = SplitMix(seed: seed)
        var result: [Range<Int>] = []
        var start = Int(random.uniform() * 20)
        while start < count {
            let length = 1 + Int(random.uniform() * Double(longest))
            result.append(start ..< min(count, start + length))
            start += length + Int(random.uniform() * 50)
        }
        return result
    }

    /// ±a alternating at 64 Hz (binary-exact times): the centred 1 s window holds 65 items, 33 of
    /// the centre's sign, so ȳ = ±a/65 and every residual is a·64/65. Items closer than 0.5 s
    /// (32 items) to an end are not evaluated.
    @Test(arguments: [65, 200, 1000])
    func alternatingSignalHasTheAnalyticJitter(count: Int) throws {
        let a = 0.01
        var accumulator = JitterAccumulator<SIMD3<Double>>()
        for i in 0 ..< count {
            let sign: Double = i % 2 == 0 ? 1 : -1
            accumulator.add(time: Double(i) / 64, output: SIMD3(sign * a, 0, 1), input: SIMD3(0, sign * 2 * a, 1))
        }
        accumulator.endSegment(keep: true)
        let result = accumulator.result
        #expect(result.evaluatedSamples == count - 64)
        #expect(result.segmentCount == 1)
        #expect(result.stillSeconds == Double(count - 1) / 64)
        #expect(abs(result.jitter - a * 64 / 65) < 1e-15)
        #expect(abs(result.rawJitter - 2 * a * 64 / 65) < 1e-15)
        #expect(abs(try #require(result.attenuation) - 2) < 1e-12)
    }

    @Test(arguments: [(UInt64(1), 0.5), (2, 1.0), (3, 1.0), (4, 0.3), (5, 2.5)])
    func discardedSegmentsLeaveNoTraceAndMemoryIsBoundedByTheWindow(seed: UInt64, window: Double) {
        let (times, input, output) = Self.signal(seed: seed, count: 4000)
        let all = Self.segments(seed: seed + 100, count: times.count, longest: 600)
        // Every other segment is fed and then discarded: the totals are those of the kept ones alone.
        let kept = all.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        var accumulator = JitterAccumulator<SIMD3<Double>>(window: window)
        var largestBuffer = 0
        for (number, segment) in all.enumerated() {
            for i in segment {
                accumulator.add(time: times[i], output: output[i], input: input[i])
                largestBuffer = max(largestBuffer, accumulator.bufferedCount)
            }
            accumulator.endSegment(keep: number % 2 == 0)
        }
        let keptOnly = jitter(output: output, input: input, times: times, segments: kept, window: window)
        #expect(keptOnly.evaluatedSamples > 100)
        #expect(accumulator.result == keptOnly)
        // Bounded by the window (≈ 100 samples per second here), not by the segment length.
        #expect(largestBuffer <= Int(window * 1.5 * 170) + 10)
    }

    /// Items added in runs (of lengths that straddle windows and segment ends) give the same
    /// totals, bit for bit, as the same items added one at a time.
    @Test(arguments: [(UInt64(21), 1.0), (22, 0.5), (23, 2.5)])
    func runsOfItemsEqualItemsOneAtATime(seed: UInt64, window: Double) {
        let (times, input, output) = Self.signal(seed: seed, count: 5000)
        let segments = Self.segments(seed: seed + 100, count: times.count, longest: 900)
        var single = JitterAccumulator<SIMD3<Double>>(window: window)
        var runs = JitterAccumulator<SIMD3<Double>>(window: window)
        var random = SplitMix(seed: seed)
        for (number, segment) in segments.enumerated() {
            for i in segment { single.add(time: times[i], output: output[i], input: input[i]) }
            var start = segment.lowerBound
            while start < segment.upperBound {
                let end = min(segment.upperBound, start + 1 + Int(random.uniform() * 300))
                times.withUnsafeBufferPointer { t in
                    output.withUnsafeBufferPointer { y in
                        input.withUnsafeBufferPointer { x in
                            runs.add(times: UnsafeBufferPointer(rebasing: t[start..<end]), outputs: UnsafeBufferPointer(rebasing: y[start..<end]),
                                     inputs: UnsafeBufferPointer(rebasing: x[start..<end]))
                        }
                    }
                }
                start = end
            }
            single.endSegment(keep: number % 3 != 1)
            runs.endSegment(keep: number % 3 != 1)
        }
        #expect(single.result.evaluatedSamples > 100)
        #expect(runs.result == single.result)
        #expect(runs.result.jitter.bitPattern == single.result.jitter.bitPattern)
    }

    /// The storage (items held plus those forgotten but not yet compacted away) of one long
    /// segment fed in runs of 256, as a sweep's setting feeds it, stays within two windows' items
    /// and a run: a sweep holds one accumulator per setting.
    @Test func storageOfALongSegmentFedInRunsStaysWithinTwoWindowsAndARun() {
        let rate = 285.7, run = 256
        let count = Int(60 * rate)
        let times = (0..<count).map { Double($0) / rate }
        let values = (0..<count).map { SIMD3<Double>(Double($0 % 7) * 0.01, 0, 1) }
        var accumulator = JitterAccumulator<SIMD3<Double>>(window: 1, measuresInput: false)
        var largestStorage = 0
        var start = 0
        while start < count {
            let end = min(count, start + run)
            times.withUnsafeBufferPointer { t in
                values.withUnsafeBufferPointer { y in
                    accumulator.add(times: UnsafeBufferPointer(rebasing: t[start..<end]), outputs: UnsafeBufferPointer(rebasing: y[start..<end]),
                                    inputs: UnsafeBufferPointer(rebasing: y[start..<end]))
                }
            }
            largestStorage = max(largestStorage, accumulator.times.count, accumulator.outputs.count)
            start = end
        }
        accumulator.endSegment(keep: true)
        // Every item but those within half a window of the segment's ends.
        #expect(abs(accumulator.result.evaluatedSamples - (count - Int(rate))) <= 2)
        #expect(largestStorage > run)
        #expect(largestStorage <= 2 * (Int(rate) + 2) + run)
    }

    @Test func jitterAccumulatorWithoutSegmentsIsEmpty() {
        var accumulator = JitterAccumulator<Double>()
        accumulator.endSegment(keep: true)
        #expect(accumulator.result == JitterResult(jitter: 0, rawJitter: 0, attenuation: nil, stillSeconds: 0,
                                                   evaluatedSamples: 0, segmentCount: 0))
    }

    /// A pure delay of d samples, over segments longer than a block (256 samples) and some not
    /// longer than the largest shift: the pairs at shift d are identical (correlation 1), so the
    /// peak lies at d; only segments longer than the shift count.
    @Test(arguments: [(UInt64(11), 1, 0), (12, 7, 3), (13, 40, 17), (14, 200, 123)])
    func aPureDelayIsMeasuredAndShortSegmentsAreSkipped(seed: UInt64, maximumShift: Int, delay: Int) throws {
        let (_, input, _) = Self.signal(seed: seed, count: 3000)
        let output = input.indices.map { input[max(0, $0 - delay)] }
        // A first segment of exactly `maximumShift` samples is too short to use.
        let offset = maximumShift + 5
        let segments = [0 ..< maximumShift] + Self.segments(seed: seed + 100, count: input.count - offset, longest: 500)
            .map { $0.lowerBound + offset ..< $0.upperBound + offset }
        var accumulator = LagAccumulator<SIMD3<Double>>(maximumShift: maximumShift)
        for segment in segments {
            for i in segment { accumulator.add(output: output[i], input: input[i]) }
            accumulator.endSegment()
        }
        let result = try #require(accumulator.result(sampleRate: 100))
        let used = segments.filter { $0.count > maximumShift }
        #expect(used.count < segments.count)
        #expect(result.segmentCount == used.count)
        #expect(result.evaluatedSamples == used.reduce(0) { $0 + $1.count })
        #expect(abs(result.samples - Double(delay)) < 0.25)
        #expect(abs(result.milliseconds - result.samples * 10) < 1e-9)
        // The array form skips the same segments and gives the same figures.
        #expect(lag(output: output, input: input, segments: segments, sampleRate: 100, maximumShift: maximumShift) == result)
    }

    @Test func lagAccumulatorWithOnlyShortSegmentsGivesNothing() {
        var accumulator = LagAccumulator<Double>(maximumShift: 10)
        for i in 0 ..< 10 { accumulator.add(output: Double(i), input: Double(i)) }
        accumulator.endSegment()
        #expect(accumulator.result(sampleRate: 100) == nil)
    }
}
