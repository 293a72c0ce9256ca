import Testing
@testable import Poise

@Suite struct OnePoleTests {
    @Test func lowPassAndHighPassMatchScipyLfilter() throws {
        let goldens = FilterGoldens.shared
        for c in goldens.one_pole {
            var zero = try OnePoleLowPass<Double>(cutoffFrequency: c.cutoff, sampleRate: goldens.rate, start: .zero)
            var first = try OnePoleLowPass<Double>(cutoffFrequency: c.cutoff, sampleRate: goldens.rate)
            var high = try OnePoleHighPass<Double>(cutoffFrequency: c.cutoff, sampleRate: goldens.rate, start: .zero)
            #expect(maximumRelativeError(zero.process(goldens.input), c.lowpass_zero) < 1e-9)
            #expect(maximumRelativeError(first.process(goldens.input), c.lowpass_first) < 1e-9)
            #expect(maximumRelativeError(high.process(goldens.input), c.highpass_zero) < 1e-9)
        }
    }

    /// Steady-state amplitude of a sine at `frequency` through the filter.
    static func gain(_ filter: inout some Filter<Double>, frequency: Double, sampleRate: Double) -> Double {
        let period = Int(sampleRate / frequency)
        var peak = 0.0
        for n in 0..<(40 * period) {
            let y = filter.process(Double.sin(2 * Double.pi * frequency * Double(n) / sampleRate))
            if n >= 30 * period { peak = max(peak, y.magnitude) }
        }
        return peak
    }

    @Test func lowPassIsHalfPowerAtCutoffWhenCutoffIsFarBelowTheRate() throws {
        var filter = try OnePoleLowPass<Double>(cutoffFrequency: 1, sampleRate: 500)
        let decibels = 20 * Double.log(Self.gain(&filter, frequency: 1, sampleRate: 500)) / Double.log(10)
        #expect(abs(decibels + 3.04) < 0.03, "gain at cutoff \(decibels) dB")
        var high = try OnePoleHighPass<Double>(cutoffFrequency: 1, sampleRate: 500)
        let highDecibels = 20 * Double.log(Self.gain(&high, frequency: 1, sampleRate: 500)) / Double.log(10)
        #expect(abs(highDecibels + 3.0) < 0.1, "high-pass gain at cutoff \(highDecibels) dB")
    }

    @Test func lowPassHasUnityDCGainAndHighPassRemovesDC() throws {
        var low = try OnePoleLowPass<SIMD4<Float>>(cutoffFrequency: 2, sampleRate: 100, start: .zero)
        var high = try OnePoleHighPass<SIMD4<Float>>(cutoffFrequency: 2, sampleRate: 100, start: .zero)
        let x = SIMD4<Float>(1, -2, 0.5, 0)
        var y = SIMD4<Float>.zero, z = SIMD4<Float>.zero
        for _ in 0..<2000 { y = low.process(x); z = high.process(x) }
        #expect(((y - x) / x).maxMagnitude < 1e-6)  // Float converges to within a few ulps
        #expect(z.maxMagnitude < 1e-6)
    }

    @Test func factorFormIsTheClassicRecurrence() throws {
        let input = FilterGoldens.shared.input
        var low = try OnePoleLowPass<Double>(factor: 0.1, start: .zero)
        var high = try OnePoleHighPass<Double>(factor: 0.1, start: .zero)
        var y = 0.0
        for x in input {
            y = x * 0.1 + y * (1 - 0.1)
            let l = low.process(x, dt: 0.5)          // dt must not matter
            let h = high.process(x)
            #expect(abs(l - y) <= 1e-14 * max(1, abs(y)))
            #expect(abs(h - (x - y)) <= 1e-14 * max(1, abs(x)))
        }
    }

    @Test func irregularPeriodsChangeTheCoefficient() throws {
        // One step of 2 periods with α(2dt) equals what the RC formula gives.
        var filter = try OnePoleLowPass<Double>(cutoffFrequency: 3, sampleRate: 100)
        _ = filter.process(0)
        let y = filter.process(1, dt: 0.02)
        let rc = 1 / (2 * Double.pi * 3)
        #expect(abs(y - 0.02 / (0.02 + rc)) < 1e-15)
    }

    @Test func rowsInAnyLayoutGiveThePerSampleOutputsIncludingTheRecovery() throws {
        // Interleaved x, y, z doubles read as SIMD4 rows, with non-finite inputs in two blocks
        // (the per-sample recovery policy must still apply).
        var random = SplitMix(seed: 5)
        var values = (0..<3 * 700).map { _ in 2 * random.uniform() - 1 }
        values[3 * 300 + 1] = .nan
        values[3 * 520] = .infinity
        var rows = try OnePoleLowPass<SIMD4<Double>>(cutoffFrequency: 5, sampleRate: 100)
        var single = rows
        var output = [SIMD4<Double>](repeating: .zero, count: 700)
        var reads = 0
        rows.process(count: 700, row: { i in
            reads += 1
            return SIMD4(values[3 * i], values[3 * i + 1], values[3 * i + 2], 0)
        }, into: { output[$0] = $1 })
        let expected = (0..<700).map { i in single.process(SIMD4(values[3 * i], values[3 * i + 1], values[3 * i + 2], 0)) }
        #expect(output == expected)
        #expect(reads > 700)   // the failing blocks were read again
        #expect(rows.lastOutput == single.lastOutput)
    }

    @Test func anyFilterGivesItsWrappedFilterByTypeInPlace() throws {
        var filter = AnyFilter(try OnePoleLowPass<Double>(cutoffFrequency: 5, sampleRate: 100))
        var reference = try OnePoleLowPass<Double>(cutoffFrequency: 5, sampleRate: 100)
        #expect(filter.withWrapped(OnePoleHighPass<Double>.self) { _ in 1 } == nil)
        let copy = filter   // a copy shares the box until one of them changes
        let y = filter.withWrapped(OnePoleLowPass<Double>.self) { $0.process(2.0) }
        #expect(y == reference.process(2.0))
        #expect(filter.process(1.0) == reference.process(1.0))   // the change stayed in the filter
        var untouched = copy
        var fresh = try OnePoleLowPass<Double>(cutoffFrequency: 5, sampleRate: 100)
        #expect(untouched.process(1.0) == fresh.process(1.0))   // and not in its copy
    }

    @Test func rejectsBadParameters() {
        #expect(throws: FilterParameterError.self) { try OnePoleLowPass<Float>(factor: 0) }
        #expect(throws: FilterParameterError.self) { try OnePoleLowPass<Float>(factor: 1.5) }
        #expect(throws: FilterParameterError.self) { try OnePoleLowPass<Float>(cutoffFrequency: .nan, sampleRate: 100) }
        #expect(throws: FilterParameterError.self) { try OnePoleHighPass<Float>(cutoffFrequency: 1, sampleRate: 0) }
    }
}
