import Testing
@testable import Poise

/// The streaming metric accumulators equal the batch functions bit for bit.
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

    @Test(arguments: [(UInt64(1), 0.5), (2, 1.0), (3, 1.0), (4, 0.3), (5, 2.5)])
    func jitterAccumulatorEqualsBatch(seed: UInt64, window: Double) {
        let (times, input, output) = Self.signal(seed: seed, count: 4000)
        let all = Self.segments(seed: seed + 100, count: times.count, longest: 600)
        // Every other segment is fed and then discarded: it must leave no trace.
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
        let batch = jitter(output: output, input: input, times: times, segments: kept, window: window)
        #expect(batch.evaluatedSamples > 100)
        #expect(accumulator.result == batch)
        // Bounded by the window (≈ 100 samples per second here), not by the segment length.
        #expect(largestBuffer <= Int(window * 1.5 * 170) + 10)
    }

    @Test func jitterAccumulatorWithoutSegmentsIsEmpty() {
        var accumulator = JitterAccumulator<Double>()
        accumulator.endSegment(keep: true)
        #expect(accumulator.result == jitter(output: [Double](), input: [], times: [], segments: []))
        #expect(accumulator.result.segmentCount == 0)
    }

    @Test(arguments: [(UInt64(11), 1), (12, 7), (13, 40), (14, 200)])
    func lagAccumulatorEqualsBatch(seed: UInt64, maximumShift: Int) throws {
        let (_, input, output) = Self.signal(seed: seed, count: 3000)
        // A first segment of exactly `maximumShift` samples is too short to use.
        let offset = maximumShift + 5
        let segments = [0 ..< maximumShift] + Self.segments(seed: seed + 100, count: input.count - offset, longest: 500)
            .map { $0.lowerBound + offset ..< $0.upperBound + offset }
        var accumulator = LagAccumulator<SIMD3<Double>>(maximumShift: maximumShift)
        for segment in segments {
            for i in segment { accumulator.add(output: output[i], input: input[i]) }
            accumulator.endSegment()
        }
        let batch = try #require(lag(output: output, input: input, segments: segments, sampleRate: 100,
                                     maximumShift: maximumShift))
        #expect(batch.segmentCount < segments.count)   // some segments are too short and skipped
        #expect(accumulator.result(sampleRate: 100) == batch)
        // The one-pole smoother lags its input: a positive shift.
        #expect(batch.samples > 0)
    }

    @Test func lagAccumulatorWithOnlyShortSegmentsGivesNothing() {
        var accumulator = LagAccumulator<Double>(maximumShift: 10)
        for i in 0 ..< 10 { accumulator.add(output: Double(i), input: Double(i)) }
        accumulator.endSegment()
        #expect(accumulator.result(sampleRate: 100) == nil)
        #expect(lag(output: Array(0 ..< 10).map(Double.init), input: Array(0 ..< 10).map(Double.init),
                    segments: [0 ..< 10], sampleRate: 100, maximumShift: 10) == nil)
    }
}
