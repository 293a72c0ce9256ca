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

    /// Largest error of `output` against the one-step recurrence `y ← α·x + (1 − α)·y` run in
    /// Double with the filter's own coefficients, relative to the largest reference value.
    static func errorAgainstOneStep<S: PoiseReal>(_ output: [SIMD4<S>], input: [SIMD4<S>], alpha: S, oneMinusAlpha: S) -> Double {
        var y = SIMD4<Double>(input[0].x.double, input[0].y.double, input[0].z.double, input[0].w.double)
        var error = 0.0, scale = 0.0
        for (x, out) in zip(input, output).dropFirst() {
            let xd = SIMD4<Double>(x.x.double, x.y.double, x.z.double, x.w.double)
            y = alpha.double * xd + oneMinusAlpha.double * y
            let od = SIMD4<Double>(out.x.double, out.y.double, out.z.double, out.w.double)
            error = max(error, (od - y).maxMagnitude)
            scale = max(scale, y.maxMagnitude)
        }
        return error / scale
    }

    /// Every build's nominal steps follow the one-step recurrence to a few roundings per step,
    /// amplified at most by the recurrence's noise gain 1/α (the portable x86-64 build computes
    /// every second output two steps ahead), and the batch and chunked forms give the per-sample
    /// outputs bit for bit.
    @Test(arguments: [1e-4, 3e-3, 0.1, 0.5, 0.999])
    func nominalStepsFollowTheOneStepRecurrence(factor: Double) throws {
        var random = SplitMix(seed: 11)
        let count = 20_001
        let doubles = (0..<count).map { n in
            SIMD4<Double>(random.gaussian(), 3 + random.gaussian(), 100 * random.gaussian(), n % 500 < 250 ? 1 : -1)
        }
        func check<S: PoiseReal>(_ type: S.Type, roundings: Double) throws {
            let input = doubles.map { SIMD4<S>(S($0.x), S($0.y), S($0.z), S($0.w)) }
            let fresh = try OnePoleLowPass<SIMD4<S>>(factor: factor)
            var single = fresh, batch = fresh, chunked = fresh
            let expected = input.map { single.process($0) }
            #expect(batch.process(input) == expected, "\(S.self) α = \(factor): batch")
            var chunks: [SIMD4<S>] = []
            var start = 0
            for size in [1, 2, 3, 255, 256, 257, 511, 1, 7].cycled(until: count) {
                let end = min(start + size, count)
                chunks += chunked.process(Array(input[start..<end]))
                start = end
                if start == count { break }
            }
            #expect(chunks == expected, "\(S.self) α = \(factor): chunked")
            let error = Self.errorAgainstOneStep(expected, input: input, alpha: fresh.alpha, oneMinusAlpha: fresh.oneMinusAlpha)
            let bound = roundings * S.ulpOfOne.double * (1 / factor + 2)
            #expect(error <= bound, "\(S.self) α = \(factor): error \(error), bound \(bound)")
        }
        try check(Float.self, roundings: 4)
        try check(Double.self, roundings: 4)
    }

    /// NaN and ∞ inputs and overflowing ones at block edges, at both places of a two-step pair
    /// and across chunks: the batch form gives the per-sample outputs (the recovery policy of
    /// ``Filter``) bit for bit, and never a non-finite value.
    @Test(arguments: [0.1, Double(Float(0.40919915)), 0.999])
    func badInputAndOverflowInsideBlocksRecoverAsThePerSampleLoop(factor: Double) throws {
        var random = SplitMix(seed: 12)
        let huge = Float.greatestFiniteMagnitude
        var input = (0..<2000).map { _ in SIMD4<Float>(Float(random.gaussian()), 1, -1, 0) }
        for i in [1, 2, 254, 255, 256, 257, 258, 600, 601, 602, 603, 1023, 1024, 1999] { input[i].x = .nan }
        for i in [300, 301, 777, 1280] { input[i] = SIMD4(.infinity, 0, 0, 0) }
        for i in [400, 403] { input[i].y = -.infinity }
        for i in 1500..<1540 { input[i] = SIMD4(huge, -huge, i % 3 == 0 ? huge : 1, 0) }   // a two-step sum can overflow here
        let fresh = try OnePoleLowPass<SIMD4<Float>>(factor: factor)
        var single = fresh, batch = fresh, chunked = fresh
        let expected = input.map { single.process($0) }
        #expect(batch.process(input) == expected)
        var chunks: [SIMD4<Float>] = []
        var start = 0
        for size in [3, 254, 1, 2, 257, 100, 511].cycled(until: input.count) {
            let end = min(start + size, input.count)
            chunks += chunked.process(Array(input[start..<end]))
            start = end
            if start == input.count { break }
        }
        #expect(chunks == expected)
        #expect(expected.allSatisfy { $0.isFinite })
        // The policy itself: a rejected input returns the previous output again; the state goes on.
        #expect(expected[255] == expected[253] && expected[256] == expected[253])
        #expect(expected[300] == expected[299] && expected[301] == expected[299])
        #expect(batch.lastOutput == single.lastOutput && chunked.lastOutput == single.lastOutput)
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

private extension BinaryFloatingPoint {
    var double: Double { Double(self) }
}

private extension Array {
    /// The elements repeated in order until their sum reaches `total` (chunk sizes).
    func cycled(until total: Int) -> [Element] where Element == Int {
        var out: [Int] = []
        var sum = 0
        while sum < total { for e in self { out.append(e); sum += e } }
        return out
    }
}
