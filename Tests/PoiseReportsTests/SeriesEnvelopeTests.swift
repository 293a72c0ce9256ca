import Foundation
import Testing
@testable import PoiseReports

/// `SeriesEnvelope` keeps, while the series streams, the points `minMaxDownsample` keeps from the
/// whole series, plus the first and last points, with a break wherever non-finite values lay.
@Suite struct SeriesEnvelopeTests {
    /// A random walk of `count` points over 0…`count − 1` with NaN runs where `gaps` says.
    func series(count: Int, seed: UInt64, gaps: (Int) -> Bool) -> (x: [Double], y: [Double]) {
        var state = seed
        var y = 0.0
        var ys: [Double] = []
        for i in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            y += Double(Int64(bitPattern: state >> 1) % 1000) / 1000 - 0.5
            ys.append(gaps(i) ? .nan : y)
        }
        return ((0..<count).map(Double.init), ys)
    }

    @Test(arguments: [50, 700, 1500, 20_000])
    func keepsTheDownsampledPointsOfTheWholeSeries(count: Int) {
        let buckets = 300
        let (x, y) = series(count: count, seed: UInt64(count)) { _ in false }
        var envelope = SeriesEnvelope(range: 0...Double(count - 1), buckets: buckets)
        for i in x.indices { envelope.add(x: x[i], y: y[i]) }
        let reduced = envelope.values()
        var expected = minMaxDownsample(x: x, y: y, buckets: buckets)
        if count > 2 * buckets {
            if expected.first != 0 { expected.insert(0, at: 0) }
            if expected.last != count - 1 { expected.append(count - 1) }
        }
        #expect(reduced.x == expected.map { x[$0] })
        #expect(reduced.y == expected.map { y[$0] })
    }

    @Test func nonFiniteRunsBecomeOneBreakEach() {
        let (x, y) = series(count: 10_000, seed: 7) { (3000..<3400).contains($0) || (8000..<8010).contains($0) }
        var envelope = SeriesEnvelope(range: 0...9999, buckets: 200)
        for i in x.indices { envelope.add(x: x[i], y: y[i]) }
        let reduced = envelope.values()
        let breaks = reduced.y.indices.filter { reduced.y[$0].isNaN }
        #expect(breaks.count == 2)
        // Each break lies between the last point before its run and the first after it.
        for (b, run) in zip(breaks, [3000..<3400, 8000..<8010]) {
            #expect(reduced.x[b - 1] < Double(run.lowerBound) && reduced.x[b + 1] >= Double(run.upperBound))
        }
        #expect(reduced.y.filter(\.isFinite).count <= 2 * 200 + 2)
        // The extremes survive.
        let finite = y.filter(\.isFinite)
        #expect(reduced.y.filter(\.isFinite).max() == finite.max() && reduced.y.filter(\.isFinite).min() == finite.min())
    }
}
