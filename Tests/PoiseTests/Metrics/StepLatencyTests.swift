import Testing
import Poise

@Suite struct StepLatencyTests {
    @Test func fixedFactorTakesTheTextbookNumberOfSamples() throws {
        for (k, rate) in [(0.1, 60.0), (0.2, 100.0), (0.05, 50.0)] {
            // y_k = 1 − (1 − k)^k' ≥ 0.9  ⇔  k' ≥ ln 0.1 / ln(1 − k)
            let expected = Int((Double.log(0.1) / Double.log(1 - k)).rounded(.up))
            var filter = try OnePoleLowPass<SIMD3<Double>>(factor: k)
            let result = latency90(&filter, step: .tilt, sampleRate: rate)
            #expect(result.samples == expected)
            #expect(result.milliseconds == Double(expected) / rate * 1000)
            #expect(result.progress.count == expected)
            #expect(result.progress.last! >= 0.9 && result.progress.dropLast().allSatisfy { $0 < 0.9 })
        }
        var filter = try OnePoleLowPass<SIMD3<Double>>(factor: 0.1)
        #expect(latency90(&filter, step: .tilt, sampleRate: 60).samples == 22)
    }

    @Test func accelerometerGraphAt60HzWith5HzCutoffTakes29To30Samples() throws {
        for adaptive in [false, true] {
            for start in FilterStart.allCases {
                var filter = try AccelerometerGraphFilter<SIMD3<Double>>(kind: .lowPass, cutoffFrequency: 5, sampleRate: 60,
                                                                         adaptive: adaptive, start: start)
                let samples = latency90(&filter, step: .tilt, sampleRate: 60).samples
                #expect(samples == 29 || samples == 30, "adaptive \(adaptive): \(String(describing: samples))")
            }
        }
    }

    @Test func theStepSampleItselfCountsAsOne() throws {
        var passThrough = try OnePoleLowPass<SIMD3<Double>>(factor: 1)
        #expect(latency90(&passThrough, step: .shake, sampleRate: 100).samples == 1)
        #expect(latency90(&passThrough, step: .shake, sampleRate: 100).milliseconds == 10)
    }

    @Test func reportsNotReachedWithinTheLimit() throws {
        // 1 − 0.99^50 ≈ 0.39 < 0.9
        var filter = try OnePoleLowPass<SIMD3<Double>>(factor: 0.01)
        let result = latency90(&filter, from: StandardStep.tilt.before, to: StandardStep.tilt.after, sampleRate: 100, limit: 50)
        #expect(result.samples == nil && result.milliseconds == nil)
        #expect(result.progress.count == 50)
        #expect(abs(result.progress.last! - (1 - Double.pow(0.99, 50))) < 1e-12)
    }

    @Test func noiseIsAddedAndCanDelayOrAdvanceButNotBreakTheMeasure() throws {
        var g = SplitMix(seed: 9)
        let noise = (0..<500).map { _ in SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * 0.005 }
        var clean = try OnePoleLowPass<SIMD3<Double>>(factor: 0.1)
        var noisy = try OnePoleLowPass<SIMD3<Double>>(factor: 0.1)
        let a = latency90(&clean, step: .tilt, sampleRate: 60)
        let b = latency90(&noisy, step: .tilt, sampleRate: 60, noise: noise)
        #expect(a.progress != b.progress)
        #expect(abs(b.samples! - a.samples!) <= 1)
    }
}
