import Testing
@testable import PoiseRecording

/// `ArrivalPredictor`: the period of a steady stream from its arrivals, and the sleep and spin
/// plan around the next one.
@Suite struct ArrivalPredictorTests {
    /// Arrivals every `period` ns from `start`, each late by the next of `jitter` (cycled).
    static func arrivals(_ count: Int, period: Int64, start: Int64 = 1_000_000_000, jitter: [Int64] = [0]) -> [Int64] {
        (0 ..< count).map { start + Int64($0) * period + jitter[$0 % jitter.count] }
    }

    @Test func noPredictionBeforeEnoughIntervals() {
        var predictor = ArrivalPredictor()
        for time in Self.arrivals(ArrivalPredictor.minimumIntervals, period: 10_000_000) {
            #expect(predictor.wait(at: time + 1) == .sleep(until: nil))
            predictor.noteArrival(time)
        }
        // minimumIntervals arrivals make minimumIntervals − 1 intervals: still none.
        #expect(predictor.period == nil)
        predictor.noteArrival(1_000_000_000 + Int64(ArrivalPredictor.minimumIntervals) * 10_000_000)
        #expect(predictor.period == 10_000_000)
    }

    @Test func sleepsUntilTheWindowThenSpinsThroughItThenSleepsAgain() throws {
        var predictor = ArrivalPredictor()
        let times = Self.arrivals(20, period: 10_000_000)   // 100 Hz
        for time in times { predictor.noteArrival(time) }
        let next = try #require(predictor.predictedArrival)
        #expect(next == times.last! + 10_000_000)
        #expect(predictor.lead == 500_000)   // the cap: 10 % of 10 ms is 1 ms
        #expect(predictor.wait(at: times.last! + 100_000) == .sleep(until: next - 500_000))
        #expect(predictor.wait(at: next - 500_000) == .spin(until: next + 500_000))
        #expect(predictor.wait(at: next + 499_999) == .spin(until: next + 500_000))
        // A datagram that does not come by the end of the window: no more spinning for it.
        #expect(predictor.wait(at: next + 500_000) == .sleep(until: nil))
        #expect(predictor.wait(at: next + 5_000_000_000) == .sleep(until: nil))
    }

    @Test func theLeadIsAShareOfShortPeriodsAndNoneBelowTheMinimum() {
        var predictor = ArrivalPredictor()
        for time in Self.arrivals(20, period: 4_000_000) { predictor.noteArrival(time) }   // 250 Hz
        #expect(predictor.lead == 400_000)
        var fast = ArrivalPredictor()
        for time in Self.arrivals(20, period: 1_000_000) { fast.noteArrival(time) }   // 1 kHz
        #expect(fast.period == 1_000_000 && fast.lead == 0)
        #expect(fast.wait(at: 1_000_000_000 + 19 * 1_000_000 + 950_000) == .sleep(until: nil))
        var custom = ArrivalPredictor(maximumLead: 50_000, maximumShare: 0.5, minimumPeriod: 500_000)
        for time in Self.arrivals(20, period: 1_000_000) { custom.noteArrival(time) }
        #expect(custom.lead == 50_000)
    }

    /// The median ignores a few outliers: a late datagram (and the short interval after it), a
    /// pause, a burst of two.
    @Test func thePeriodIsTheMedianOfRecentIntervals() {
        var predictor = ArrivalPredictor()
        var times = Self.arrivals(30, period: 5_000_000, jitter: [0, 40_000, -30_000, 10_000])
        times[20] += 3_000_000
        times.insert(times[25] + 1_000, at: 26)
        for time in times { predictor.noteArrival(time) }
        let period = predictor.period ?? 0
        #expect(abs(period - 5_000_000) <= 50_000, "\(period)")
        // Only the last `history` intervals count: a stream that changes rate is followed.
        for time in Self.arrivals(20, period: 2_000_000, start: times.last! + 2_000_000) { predictor.noteArrival(time) }
        #expect(predictor.period == 2_000_000)
    }
}
