import Foundation
import Testing
@testable import PoiseRun

/// Deterministic values spread over many decades: 0, negatives, and 10^u for u uniform in 0…12.
private func spreadValues(_ count: Int) -> [Int64] {
    var state: UInt64 = 0x9E3779B97F4A7C15
    var values: [Int64] = [0, -5, 1, 2, 3, 4, 5, 7, 8, (1 << 50) + 12345]  // all exact as Double
    for _ in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let u = Double(state >> 11) / Double(1 << 53)
        values.append(Int64(pow(10, 12 * u)))
    }
    return values
}

@Suite struct TimingHistogramTests {
    /// Every bin's count equals a brute-force count of the values inside its edges; the bins are
    /// sorted, disjoint and cover every value; above 4 ns a bin is at most 25 % wider than its
    /// lower edge.
    @Test func binsCountExactlyTheValuesInsideTheirEdges() {
        let values = spreadValues(5000)
        var histogram = TimingHistogram()
        for v in values { histogram.add(v) }
        let bins = histogram.bins()
        #expect(histogram.count == values.count)
        #expect(bins.reduce(0) { $0 + $1.count } == values.count)
        for (a, b) in zip(bins, bins.dropFirst()) { #expect(a.to <= b.from, "bins overlap: \(a) \(b)") }
        for bin in bins {
            let inside = values.filter { Double($0) >= bin.from && Double($0) < bin.to }.count
            #expect(inside == bin.count, "bin \(bin)")
            if bin.from >= 4 { #expect((bin.to - bin.from) / bin.from <= 0.25 + 1e-12) }
        }
        // The values ≤ 0 share the first bin, whose lower edge is the smallest value.
        #expect(bins[0].from == -5 && bins[0].to == 1 && bins[0].count == 2)
    }

    /// A single value lands in a bin that contains it, at any scale; scaling multiplies the edges.
    @Test(arguments: [1 as Int64, 3, 4, 5, 1023, 1024, 1279, 1280, 999_999_999, 123_456_789_012])
    func oneValueLandsInsideItsBin(value: Int64) throws {
        var histogram = TimingHistogram()
        histogram.add(value)
        let bin = try #require(histogram.bins().first)
        #expect(bin.from <= Double(value) && Double(value) < bin.to && bin.count == 1)
        let micro = try #require(histogram.bins(scale: 1e-3).first)
        #expect(abs(micro.from - bin.from * 1e-3) <= 1e-12 * bin.from && abs(micro.to - bin.to * 1e-3) <= 1e-12 * bin.to)
    }

    /// The accumulator fills the histograms from the same values as the percentiles: the lateness
    /// bins hold every scheduled sample (µs), the cost bins every sample (ns); `--speed max` has
    /// no lateness histogram. Old JSON without the keys still decodes.
    @Test func accumulatorHistogramsAndJSON() throws {
        var paced = TimingAccumulator(lateThreshold: 10_000_000, scheduled: true, expected: 100)
        for i in 0..<100 {
            let s = Int64(i) * 10_000_000
            paced.record(scheduled: s, delivered: s + Int64(1000 + 37 * i), cost: Int64(500 + i))
        }
        let timing = paced.timing(wall: 1_000_000_000, cpu: 10_000_000)
        let lateness = try #require(timing.latenessHistogram)
        #expect(lateness.reduce(0) { $0 + $1.count } == 100)
        #expect(lateness.first!.from <= 1.0 && lateness.last!.to > 1.0 + 0.037 * 99)   // 1 µs … 4.66 µs
        let cost = try #require(timing.processingHistogram)
        #expect(cost.reduce(0) { $0 + $1.count } == 100 && cost.first!.from <= 500 && cost.last!.to > 599)

        var unpaced = TimingAccumulator(lateThreshold: 10_000_000, scheduled: false)
        unpaced.record(scheduled: 0, delivered: 0, cost: 42)
        let maximum = unpaced.timing(wall: 1, cpu: 1)
        #expect(maximum.latenessHistogram == nil && maximum.processingHistogram?.first?.count == 1)

        let encoded = try JSONEncoder().encode(timing)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"lateness_histogram_us\"") && text.contains("\"processing_histogram_ns\""))
        #expect(try JSONDecoder().decode(ReplayTiming.self, from: encoded) == timing)
        var old = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        old["lateness_histogram_us"] = nil
        old["processing_histogram_ns"] = nil
        let decoded = try JSONDecoder().decode(ReplayTiming.self, from: JSONSerialization.data(withJSONObject: old))
        #expect(decoded.latenessHistogram == nil && decoded.samples == 100)
    }
}
