import Testing
import Poise
@testable import PoiseRecording

/// The gap bookkeeping of `poise info` (`GapCandidates`, in one linear pass) gives exactly what a
/// direct computation over all intervals gives, for any threshold the median might set, and the
/// whole inspection agrees with that direct computation on a long jittery recording.
@Suite struct GapCandidatesTests {
    /// SplitMix64 in [0, 1).
    struct Random {
        var state: UInt64
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
        }
    }

    /// Intervals of several shapes: jitter, rising periods (the worst case for the kept list),
    /// exact multiples of a microsecond at the threshold, huge values (nanoseconds as seconds).
    func intervals(_ shape: Int, count: Int) -> [Double] {
        var random = Random(state: UInt64(shape + 1))
        return (0..<count).map { i in
            switch shape {
            case 0: return 0.01 * (1 + 0.3 * (random.unit() - 0.5)) + (i % 997 == 0 ? 0.2 : 0)
            case 1: return 0.001 + 1e-6 * Double(i)
            case 2: return [0.010, 0.015, 0.0150000001, 0.014999, 0.0155, 0.016][Int(random.unit() * 6)]
            default: return i % 50 == 0 ? 1e7 * (1 + random.unit()) : 0.01 + 1e-5 * random.unit()
            }
        }
    }

    @Test(arguments: 0..<4)
    func countAndFirstGapsEqualTheDirectComputation(shape: Int) {
        let values = intervals(shape, count: 20_000)
        var candidates = GapCandidates(limit: 100)
        for (i, v) in values.enumerated() { candidates.add(time: Double(i), interval: v) }
        // Every median the histogram could choose, and a few around the keys present.
        var medians = Set(candidates.counts.keys)
        for k in Array(medians) { medians.insert(k + 1); if k > 1 { medians.insert(k - 1) } }
        for m in medians.sorted().prefix(400) where m > 0 && m < GapCandidates.largestKey / 2 {
            let threshold = 1.5 * (Double(m) * 1e-6)
            let direct = values.enumerated().filter { $0.element > threshold }
            #expect(candidates.count(medianKey: m) == direct.count, "shape \(shape), median \(m) µs")
            let listed = candidates.first(medianKey: m)
            #expect(listed.map(\.time) == direct.prefix(100).map { Double($0.offset) }, "shape \(shape), median \(m) µs")
            #expect(listed.map(\.interval) == direct.prefix(100).map(\.element), "shape \(shape), median \(m) µs")
        }
    }

    /// Intervals beyond the clamped bins (1e300 s, nanoseconds read as seconds) with a median
    /// there: no gaps are judged, and the count and the list agree (found by the `timing` fuzz
    /// target: 3 gaps listed of 0).
    @Test func aMedianBeyondTheClampedBinsJudgesNoGaps() {
        var candidates = GapCandidates(limit: 100)
        for (i, v) in [1e300, 1e300, 1.7e18, 2e18, 5e-324].enumerated() { candidates.add(time: Double(i), interval: v) }
        let median = GapCandidates.key(1.7e18)
        #expect(median == GapCandidates.largestKey)
        #expect(candidates.count(medianKey: median) == 0)
        #expect(candidates.first(medianKey: median).isEmpty)
        #expect(candidates.count(medianKey: 1) == 4)
        #expect(candidates.first(medianKey: 1).count == 4)
    }

    /// `RecordingInspector` on 150 000 jittery samples (more long intervals than the old 100 000
    /// limit) finds the gaps a direct computation finds: every interval above 1.5 × the median.
    @Test func inspectionOfALongJitteryRecordingListsTheRightGaps() throws {
        let header = "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n"
        let file = TemporaryFile(header, name: "gap-schema.csv")
        defer { file.remove() }
        let path = file.path
        let schema = try RecordingReader(path: path).schema
        var inspector = RecordingInspector(schema: schema)
        var random = Random(state: 42)
        var time = 0.0
        var times: [Double] = []
        for i in 0..<150_000 {
            if i > 0 { time += 0.01 * (1 + 0.4 * (random.unit() - 0.5)) + (i % 1000 == 999 ? 0.05 : 0) }
            times.append(time)
            inspector.add(MotionSample(time: time, acceleration: SIMD3(0, 0, 1)))
        }
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        let info = inspector.finish(path: path, summary: ReadSummary(), issues: [])
        let keys = intervals.map { ($0 * 1e6).rounded() }.sorted()
        let median = keys[(keys.count + 1) / 2 - 1] * 1e-6
        #expect(abs(try #require(info.intervals).medianMs - median * 1000) < 1e-9)
        let gaps = intervals.enumerated().filter { $0.element > 1.5 * median }
        #expect(info.gapCount == gaps.count)
        #expect(info.gapCount >= 149, "the 0.05 s gaps every 1000 rows are found")
        #expect(info.gaps.count == min(100, gaps.count))
        #expect(info.gaps.map(\.intervalMs) == gaps.prefix(100).map { $0.element * 1000 })
    }
}
