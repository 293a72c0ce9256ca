import Testing
import Poise

@Suite struct LagTests {
    @Test func findsAPureDelay() {
        var g = SplitMix(seed: 21)
        let input = (0..<600).map { _ in SIMD3<Double>(g.gaussian(), g.gaussian(), g.gaussian()) }
        for delay in [0, 3, 17] {
            let output = (0..<600).map { $0 >= delay ? input[$0 - delay] : .zero }
            let result = lag(output: output, input: input, segments: [50..<600], sampleRate: 100, maximumShift: 40)
            #expect(result?.samples == delay)
            #expect(result?.milliseconds == Double(delay) * 10)
            #expect(abs((result?.correlation ?? 0) - 1) < 1e-9)
        }
    }

    @Test func aLowPassLagsASlowSine() throws {
        // A one-pole with time constant RC delays a sine of frequency f by atan(2πf·RC)/(2πf).
        let rate = 200.0, f = 0.5, cutoff = 1.0
        var filter = try OnePoleLowPass<Double>(cutoffFrequency: cutoff, sampleRate: rate)
        let input = (0..<4000).map { Double.sin(2 * Double.pi * f * Double($0) / rate) }
        let output = filter.process(input)
        let result = try #require(lag(output: output, input: input, segments: [1000..<4000], sampleRate: rate, maximumShift: 200))
        let expected = Double.atan(f / cutoff) / (2 * Double.pi * f) * 1000
        #expect(abs(result.milliseconds - expected) <= 1000 / rate, "\(result.milliseconds) ms vs \(expected) ms")
    }

    @Test func movingSegmentsAreTheGapsBetweenStillOnes() {
        #expect(movingSegments(count: 100, still: [10..<20, 50..<60]) == [0..<10, 20..<50, 60..<100])
        #expect(movingSegments(count: 100, still: [0..<100]) == [])
        #expect(movingSegments(count: 100, still: [0..<40, 41..<100], minimumCount: 2) == [])
    }
}
