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
