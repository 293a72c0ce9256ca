import Testing
@testable import Poise

/// The one rule for a recording's rate: 1 / the upper median of the positive, finite intervals
/// among the first `NominalRate.rowCount` rows.
@Suite struct NominalSampleRateTests {
    static func samples(_ times: [Double]) -> [MotionSample] {
        times.map { MotionSample(time: $0, acceleration: SIMD3(0, 0, 1)) }
    }

    @Test func medianOfTheFirstRowsOnly() {
        // 2048 rows 1/128 s apart, then many more 1/64 s apart (exact binary steps): only the
        // first rows count.
        var times: [Double] = []
        var t = 0.0
        for i in 0 ..< 10_000 {
            times.append(t)
            t += i < NominalRate.rowCount - 1 ? 1.0 / 128 : 1.0 / 64
        }
        #expect(NominalRate.rowCount == 2048)
        #expect(nominalSampleRate(of: Self.samples(times)) == 128)
        #expect(NominalRate.estimate(times: times) == 128)
        var estimator = NominalRate.Estimator()
        var stillMatters = true
        for (i, time) in times.enumerated() {
            let answer = estimator.add(time: time)
            #expect(answer == (i < NominalRate.rowCount - 1))
            stillMatters = answer
        }
        #expect(!stillMatters && estimator.rows == times.count && estimator.rowsUsed == NominalRate.rowCount)
        #expect(estimator.rate == 128)
    }

    @Test func upperMedianOfPositiveFiniteIntervals() {
        // Intervals 0.25, 0 (repeated), −0.125 (back), 0.5, NaN, NaN (after the NaN): only 0.25
        // and 0.5 are kept, and the upper median is 0.5.
        let times = [0, 0.25, 0.25, 0.125, 0.625, .nan, 1.0]
        #expect(NominalRate.estimate(times: times) == 2)
        #expect(NominalRate.estimate(times: [0, 0.25, 0.75, 1.5]) == 2)  // 0.25, 0.5, 0.75
        #expect(NominalRate.estimate(times: [0, 0.25, 0.75]) == 2)       // upper of 0.25, 0.5
        #expect(NominalRate.estimate(times: [0, 0.5, 0.75]) == 2)        // upper of 0.5, 0.25
        #expect(NominalRate.estimate(times: [1, 1, 0.5]) == nil)
        #expect(NominalRate.estimate(times: [Double]()) == nil)
        #expect(nominalSampleRate(of: Self.samples([3])) == nil)
    }

    @Test func shortRecordingsUseEveryRow() {
        let times = (0 ..< 300).map { Double($0) / 50 }
        let expected = 1 / (times[1...].indices.map { times[$0] - times[$0 - 1] }.sorted()[299 / 2])
        #expect(nominalSampleRate(of: Self.samples(times)) == expected)
        #expect(DeviceMotionConfiguration.estimatedSampleRate(of: Self.samples(times)) == expected)
    }

    @Test func decisionSaysHowTheRateWasFound() {
        #expect(NominalRate.decide(given: 40, estimated: 100, rows: 9000) == (40, .given))
        #expect(NominalRate.decide(given: nil, estimated: 100, rows: 9000) == (100, .timestamps(rows: 2048)))
        #expect(NominalRate.decide(given: nil, estimated: 100, rows: 30) == (100, .timestamps(rows: 30)))
        #expect(NominalRate.decide(given: nil, estimated: nil, rows: 30, fallback: 60) == (60, .assumed))
        #expect(NominalRate.Basis.timestamps(rows: 2048).text == "median interval of the first 2048 rows")
    }
}
