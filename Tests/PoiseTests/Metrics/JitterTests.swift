import Testing
import Poise

@Suite struct JitterTests {
    @Test func aLinearDriftHasNoJitter() {
        let times = (0..<300).map { Double($0) / 100 }
        let drift = times.map { SIMD3<Double>(0.01 * $0, 0, 1) }
        let result = jitter(output: drift, input: drift, times: times, segments: [0..<300])
        #expect(result.jitter < 1e-12 && result.rawJitter < 1e-12)
        let still = [SIMD3<Double>](repeating: .zero, count: 300)
        #expect(jitter(output: still, input: drift, times: times, segments: [0..<300]).attenuation == nil)
        #expect(abs(result.stillSeconds - 2.99) < 1e-12)
        // Evaluated: samples at least 0.5 s from both ends, 0.5 ... 2.49 s.
        #expect(result.evaluatedSamples == 200)
    }

    @Test func whiteNoiseGivesItsStandardDeviation() {
        var g = SplitMix(seed: 11)
        let count = 20_000
        let times = (0..<count).map { Double($0) / 100 }
        let noise = (0..<count).map { _ in SIMD3<Double>(g.gaussian(), g.gaussian(), g.gaussian()) * 0.01 }
        let half = noise.map { $0 * 0.5 }
        let result = jitter(output: half, input: noise, times: times, segments: [0..<count])
        // |n − mean of 101 samples| has variance 3σ²(1 − 1/101).
        let expected = (3 * 0.0001 * (1 - 1.0 / 101)).squareRoot()
        #expect(abs(result.rawJitter - expected) / expected < 0.02)
        #expect(abs(result.attenuation! - 2) < 1e-9)
    }

    @Test func segmentsShorterThanTheWindowAreNotEvaluatedAndSegmentsDoNotMix() {
        let times = (0..<400).map { Double($0) / 100 }
        // Two levels: a step between segments must not count.
        let values = times.map { SIMD3<Double>($0 < 2 ? 0 : 5, 0, 0) }
        let result = jitter(output: values, input: values, times: times, segments: [0..<200, 200..<400, 10..<60])
        #expect(result.jitter == 0)
        #expect(result.segmentCount == 3)
        #expect(result.evaluatedSamples == 2 * 100)
    }
}
