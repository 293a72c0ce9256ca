import Testing
import Poise
@testable import PoiseRun

/// `AimRateSpool` and `PairEnvelope`: `poise gyro`'s per-sample values on disk and its plot lines
/// reduced as they stream.
@Suite struct AimRateSpoolTests {
    /// Lag and jitter over the spool equal the array functions', bit for bit.
    @Test func lagAndJitterEqualTheArrayFunctions() throws {
        let n = 9_000
        var times: [Double] = [], raw: [SIMD2<Double>] = [], smoothed: [SIMD2<Double>] = []
        var y = SIMD2<Double>.zero
        for i in 0..<n {
            let t = Double(i) / 200
            let x = SIMD2(30 * Double.sin(t * 3) + 0.3 * Double.sin(Double(i) * 2.1), 10 * Double.cos(t * 1.3) + 0.2 * Double.cos(Double(i) * 1.9))
            y += 0.2 * (x - y)
            times.append(t); raw.append(x); smoothed.append(y)
        }
        let spool = try AimRateSpool()
        for i in 0..<n { try spool.append(time: times[i], raw: raw[i], smoothed: smoothed[i]) }
        let still = [300..<1_100, 2_500..<2_600, 4_000..<5_900]
        let moving = movingSegments(complementing: still, count: n, minimumLength: 200)
        #expect(try spool.lag(segments: moving, sampleRate: 200, maximumShift: 50)
                == lag(output: smoothed, input: raw, segments: moving, sampleRate: 200, maximumShift: 50))
        #expect(try spool.jitter(segments: still) == jitter(output: smoothed, input: raw, times: times, segments: still))
        #expect(try spool.sample(4_321).raw == raw[4_321])
    }

    /// The smoothing comparison read back from the spool in chunks equals the one over arrays,
    /// bit for bit (samples over several blocks and chunks, irregular and repeated times).
    @Test func comparisonFromTheSpoolEqualsTheArrays() throws {
        let n = 12_500
        var times: [Double] = [], raw: [SIMD2<Double>] = []
        for i in 0..<n {
            let t = Double(i) / 200 + (i % 7 == 3 ? 0.002 : 0) - (i == 9_000 ? 0.01 : 0)
            let moving = (i / 2_500) % 2 == 1
            let x = moving ? SIMD2(40 * Double.sin(Double(i) * 0.01), 15 * Double.cos(Double(i) * 0.013)) : .zero
            times.append(t); raw.append(x + SIMD2(0.3 * Double.sin(Double(i) * 2.1), 0.2 * Double.cos(Double(i) * 1.9)))
        }
        let spool = try AimRateSpool()
        for i in 0..<n { try spool.append(time: times[i], raw: raw[i], smoothed: .zero) }
        let still = [0..<2_500, 5_000..<7_500, 10_000..<12_500]
        let fromSpool = try AimSmoothingComparison(spool: spool, still: still, sampleRate: 200)
        let fromArrays = try AimSmoothingComparison(times: times, rates: raw, still: still, sampleRate: 200)
        #expect(fromSpool.rows == fromArrays.rows)
        #expect(fromSpool.rawJitter == fromArrays.rawJitter && fromSpool.stillSeconds == fromArrays.stillSeconds)
        #expect(fromSpool.movingSegments == fromArrays.movingSegments && fromArrays.movingSegments == 2)
        #expect(fromArrays.rows.count == 1 + 4 * 4 + 7 + 4 * 3 && fromArrays.rows.contains { $0.onFront })
        #expect(fromArrays.rows.allSatisfy { $0.jitter.isFinite && $0.lagMilliseconds != nil })
        // The whole-array formulation: each filter over all rates with the periods, then the
        // array metrics.
        var dts = [Double](repeating: 1.0 / 200, count: n)
        for i in 1..<n where times[i] > times[i - 1] { dts[i] = times[i] - times[i - 1] }
        let moving = movingSegments(complementing: still, count: n, minimumLength: 200)
        func expectRow<F: Filter>(_ filter: F, _ settings: String) throws where F.Value == SIMD2<Double> {
            var f = filter
            let output = f.process(raw, dt: dts)
            let row = try #require(fromSpool.rows.first { $0.settings == settings })
            #expect(row.lagMilliseconds == lag(output: output, input: raw, segments: moving, sampleRate: 200, maximumShift: 50)?.milliseconds)
            #expect(row.jitter == jitter(output: output, input: raw, times: times, segments: still).jitter)
        }
        try expectRow(try TieredSmoothing<SIMD2<Double>>(threshold: 5, timeConstant: 0.0625, sampleRate: 200), "threshold=5.0,tau=0.0625")
        try expectRow(try OnePoleLowPass<SIMD2<Double>>(cutoffFrequency: 1 / (2 * Double.pi * 0.02), sampleRate: 200), "tau=0.02")
        try expectRow(try OneEuroFilter<SIMD2<Double>>(minimumCutoff: 1, beta: 0.002, sampleRate: 200), "mincutoff=1.0,beta=0.002")
        #expect(fromSpool.rawJitter == jitter(output: raw, input: raw, times: times, segments: still).rawJitter)
        #expect(fromSpool.stillSeconds == still.reduce(0) { $0 + (times[$1.upperBound - 1] - times[$1.lowerBound]) })
    }

    /// A short stream is kept whole; a long one keeps, per bucket, each line's smallest and largest
    /// value (so its envelope), the first and last points, and no more than 4 points per bucket.
    @Test func envelopeKeepsEachLinesExtremes() {
        var short = PairEnvelope(range: 0...1, buckets: 100)
        for i in 0..<150 { short.add(x: Double(i) / 150, y: SIMD2(Double(i), -Double(i))) }
        #expect(short.values().x.count == 150)

        let n = 100_000, buckets = 50
        var long = PairEnvelope(range: 0...Double(n - 1), buckets: buckets)
        var ys: [SIMD2<Double>] = []
        for i in 0..<n {
            let y = SIMD2(Double.sin(Double(i) * 0.37) * Double(i % 977), Double.cos(Double(i) * 0.11) * Double(i % 613))
            ys.append(y)
            long.add(x: Double(i), y: y)
        }
        let (x, y) = long.values()
        #expect(x.count <= 4 * buckets + 2)
        #expect(x.first == 0 && x.last == Double(n - 1))
        #expect(x == x.sorted())
        func bucket(_ x: Double) -> Int { min(buckets - 1, Int(x / Double(n - 1) * Double(buckets))) }
        for b in 0..<buckets {
            let inBucket = (0..<n).filter { bucket(Double($0)) == b }
            let kept = x.indices.filter { bucket(x[$0]) == b }
            #expect(kept.map { y[$0].x }.max() == inBucket.map { ys[$0].x }.max())
            #expect(kept.map { y[$0].x }.min() == inBucket.map { ys[$0].x }.min())
            #expect(kept.map { y[$0].y }.max() == inBucket.map { ys[$0].y }.max())
            #expect(kept.map { y[$0].y }.min() == inBucket.map { ys[$0].y }.min())
        }
    }
}
