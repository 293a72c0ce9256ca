import Poise
import Testing

@Suite struct TieredSmoothingTests {
    static func signal(_ magnitude: Double, count: Int = 400) -> [SIMD2<Double>] {
        var random = SplitMix(seed: 7)
        // Varying direction and size in [0.5, 1] × magnitude.
        return (0..<count).map { _ in
            let a = 2 * Double.pi * random.uniform(), m = magnitude * (0.5 + 0.5 * random.uniform())
            return SIMD2(m * Double.cos(a), m * Double.sin(a))
        }
    }

    /// Above twice the threshold the output is the input, exactly.
    @Test func noSmoothingAboveTwiceTheThreshold() throws {
        var filter = try TieredSmoothing<SIMD2<Double>>(threshold: 5, timeConstant: 0.05, sampleRate: 100)
        let input = Self.signal(40).map { v -> SIMD2<Double> in v * (10.0 / v.lengthSquared.squareRoot() + 1) }  // |v| ≥ 10 + …
        for x in input { #expect(filter.process(x, dt: 0.01) == x) }
    }

    /// Below the threshold it is the one-pole RC low-pass (`OnePoleLowPass` with τ = RC, started
    /// at zero), on the real periods.
    @Test func lowPassBelowTheThreshold() throws {
        let tau = 0.05
        var tiered = try TieredSmoothing<SIMD2<Double>>(threshold: 5, timeConstant: tau, sampleRate: 100)
        var reference = try OnePoleLowPass<SIMD2<Double>>(cutoffFrequency: 1 / (2 * Double.pi * tau), sampleRate: 100, start: .zero)
        var random = SplitMix(seed: 3)
        for x in Self.signal(5) {
            let dt = 0.005 + 0.01 * random.uniform()
            let a = tiered.process(x, dt: dt), b = reference.process(x, dt: dt)
            #expect((a - b).lengthSquared.squareRoot() < 1e-12)
        }
    }

    /// Between T and 2T the direct share grows linearly; the blend stays between the two.
    @Test func blendBetween() throws {
        let filter = try TieredSmoothing<Double>(threshold: 4, timeConstant: 0.1, sampleRate: 100)
        let weights = [4.0, 6, 8, -6].map { filter.directWeight($0) }
        #expect(weights == [0, 0.5, 1, 0.5])
        var f = filter
        var previous = 0.0
        for _ in 0..<50 {
            let y = f.process(6, dt: 0.01)
            #expect(y >= 3 && y <= 6 && y >= previous)   // w·x = 3 direct, the rest rising to 3
            previous = y
        }
        #expect(abs(previous - 6) < 0.05)
    }

    /// Non-finite input: the previous output again, state untouched (the Filter policy).
    @Test func nonFiniteInput() throws {
        var f = try TieredSmoothing<Double>(threshold: 4, timeConstant: 0.1, sampleRate: 100)
        let y = f.process(2, dt: 0.01)
        #expect(f.process(.nan, dt: 0.01) == y)
        #expect(throws: FilterParameterError.self) { try TieredSmoothing<Double>(threshold: -1, timeConstant: 0.1, sampleRate: 100) }
    }
}
