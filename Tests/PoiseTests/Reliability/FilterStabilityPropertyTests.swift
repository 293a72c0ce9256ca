import Testing
@testable import Poise

/// DC gain, stability and start-up of every filter kind over random valid parameters, built
/// through `FilterSpec` (so the parser's range checks and the filters agree).
@Suite struct FilterStabilityPropertyTests {
    enum DC { case passes, blocks }

    /// A random valid spec of `kind` for `rate` Hz, with cutoffs between 1 % and 45 % of the rate
    /// (low enough to settle within `settleSamples`), and whether it passes DC.
    static func randomSpec(_ kind: Int, rate: Double, start: String, _ g: inout SplitMix) -> (String, DC) {
        func frequency(_ low: Double = 0.01, _ high: Double = 0.45) -> Double {
            rate * Double.exp(g.uniform(Double.log(low), Double.log(high)))
        }
        let s = start == "first" ? "" : ",start=\(start)"
        switch kind {
        case 0: return ("lowpass:cutoff=\(frequency())\(s)", .passes)
        case 1: return ("highpass:cutoff=\(frequency())\(s)", .blocks)
        case 2: return ("factor:k=\(g.uniform(0.02, 1))\(s)", .passes)
        case 3: return ("factor:k=\(g.uniform(0.02, 1)),highpass\(s)", .blocks)
        case 4: return ("butter:lowpass,order=\(1 + g.next() % 8),cutoff=\(frequency(0.02))\(s)", .passes)
        case 5: return ("butter:highpass,order=\(1 + g.next() % 8),cutoff=\(frequency(0.02))\(s)", .blocks)
        case 6:
            let low = frequency(0.02, 0.15)
            return ("butter:bandpass,order=\(1 + g.next() % 4),low=\(low),high=\(low * g.uniform(2, 2.9))\(s)", .blocks)
        // AccelerometerGraph: RC = 1/cutoff (2π slower than the others), a third as fast when adaptive.
        case 7: return ("accelgraph:cutoff=\(frequency(0.05))\(g.uniform() < 0.5 ? ",adaptive" : "")\(s)", .passes)
        case 8: return ("accelgraph:highpass,cutoff=\(frequency(0.05))\(g.uniform() < 0.5 ? ",adaptive" : "")\(s)", .blocks)
        case 9: return ("oneeuro:mincutoff=\(frequency()),beta=\(g.uniform(0, 5)),dcutoff=\(frequency())", .passes)
        default: return ("adaptive:cutoff=\(frequency()),threshold=\(g.uniform(0.001, 1))", .passes)
        }
    }
    static let kinds = Array(0...10)
    static let settleSamples = 3000

    @Test(arguments: kinds)
    func constantInputSettlesToTheDCGainFromZeroState(kind: Int) throws {
        var g = SplitMix(seed: 300 + UInt64(kind))
        for _ in 0..<15 {
            let rate = Double.exp(g.uniform(Double.log(10), Double.log(2000)))
            let start = kind >= 9 ? "first" : "zero"
            let (text, dc) = Self.randomSpec(kind, rate: rate, start: start, &g)
            let spec = try FilterSpec(parsing: text)
            #expect(try FilterSpec(parsing: spec.description) == spec, "\(text)")
            var filter = try spec.makeFilter(SIMD3<Double>.self, sampleRate: rate)
            let c = g.vector(scale: g.uniform(0.1, 100))
            var y = SIMD3<Double>.zero
            for n in 0..<Self.settleSamples {
                // Irregular steps where the filter uses them; the DC gain must not depend on dt.
                y = n % 2 == 0 ? filter.process(c) : filter.process(c, dt: g.uniform(0.5, 1.5) / rate)
            }
            let expected = dc == .passes ? c : .zero
            #expect((y - expected).maxMagnitude <= 1e-9 * c.maxMagnitude, "\(text) at \(rate) Hz: \(y) for \(c)")
        }
    }

    @Test(arguments: kinds)
    func firstInputStartHasNoTransient(kind: Int) throws {
        var g = SplitMix(seed: 400 + UInt64(kind))
        for _ in 0..<15 {
            let rate = Double.exp(g.uniform(Double.log(10), Double.log(2000)))
            let (text, dc) = Self.randomSpec(kind, rate: rate, start: "first", &g)
            var filter = try FilterSpec(parsing: text).makeFilter(SIMD3<Double>.self, sampleRate: rate)
            let c = g.vector(scale: g.uniform(0.1, 100))
            let expected = dc == .passes ? c : .zero
            for n in 0..<50 {
                let y = filter.process(c)
                #expect((y - expected).maxMagnitude <= 1e-12 * c.maxMagnitude, "\(text) sample \(n): \(y) for \(c)")
            }
        }
    }

    @Test(arguments: kinds)
    func boundedInputGivesBoundedOutput(kind: Int) throws {
        var g = SplitMix(seed: 500 + UInt64(kind))
        for _ in 0..<10 {
            let rate = Double.exp(g.uniform(Double.log(10), Double.log(2000)))
            let (text, _) = Self.randomSpec(kind, rate: rate, start: g.pick(["first", "zero"]), &g)
            var filter = try FilterSpec(parsing: text).makeFilter(SIMD3<Double>.self, sampleRate: rate)
            // Worst cases for BIBO: full-scale noise, alternating ±1 (Nyquist), and steps.
            var peak = 0.0
            for n in 0..<Self.settleSamples {
                let x: SIMD3<Double> = SIMD3(g.uniform(-1, 1), n % 2 == 0 ? 1 : -1, (n / 97) % 2 == 0 ? 1 : -1)
                peak = max(peak, filter.process(x).maxMagnitude)
            }
            // A stable filter's gain is bounded by the L1 norm of its impulse response (a few
            // for these designs, 2 for a one-pole high-pass); an unstable one grows without bound.
            #expect(peak.isFinite && peak <= 8, "\(text) at \(rate) Hz: peak \(peak)")
        }
    }

    @Test func floatButterworthFarBelowTheRateStartsAtTheFirstInput() throws {
        // Regression (found by the filterspec fuzz target): a Float Butterworth whose cutoff is
        // far below the rate computed its start-up DC gain in Float, 0/0, and emitted ±inf/NaN.
        for text in ["butter:lowpass,order=4,cutoff=5", "butter:highpass,order=8,cutoff=2", "butter:bandpass,order=2,low=1,high=3"] {
            var filter = try FilterSpec(parsing: text).makeFilter(SIMD4<Float>.self, sampleRate: 1e6)
            let x = SIMD4<Float>(-3, 1, 1e4, 0)
            let first = filter.process(x)
            let expected = text.contains("lowpass") ? x : .zero
            #expect(first.isFinite && (first - expected).maxMagnitude <= 1e-3 * 1e4, "\(text): \(first)")
            for _ in 0..<200 { #expect(filter.process(x).isFinite) }
        }
    }
}
