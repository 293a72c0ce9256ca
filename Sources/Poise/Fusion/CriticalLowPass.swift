// The second-order low-pass VQF uses for its internal signals (Laidig & Seel 2023, §III):
// a Butterworth filter whose cutoff is chosen from a time constant τ
// (f_c = √2 / (2π τ)), started from the mean of the first τ seconds of input so a single
// first sample cannot bias it. Internal to the fusion code.

/// Coefficients of a second-order Butterworth low-pass (a0 = 1), derived from a time
/// constant and a sample period.
@usableFromInline
struct CriticalLowPassCoefficients: Sendable, Equatable {
    @usableFromInline var b0: Double
    @usableFromInline var b1: Double
    @usableFromInline var b2: Double
    @usableFromInline var a1: Double
    @usableFromInline var a2: Double
    /// Number of samples averaged before the recursive filter starts (covers τ seconds).
    @usableFromInline var initialSamples: Int

    /// - Parameters:
    ///   - timeConstant: τ in seconds (≥ 0). For τ < period/2 the filter passes input through.
    ///   - period: sample period in seconds (> 0).
    @usableFromInline
    init(timeConstant tau: Double, period: Double) {
        // Samples to average: the smallest n with n·period ≥ τ (VQF's initialisation rule).
        // From the quotient, then corrected by a step or two for its rounding (a loop from 1
        // took seconds for τ/period near the cap).
        let cap = 1 << 30
        let quotient = (tau / period).rounded(.up)
        var n = quotient.isFinite ? Int(Swift.max(1, Swift.min(quotient, Double(cap)))) : (tau > 0 ? cap : 1)
        while n > 1 && Double(n - 1) * period >= tau { n -= 1 }
        while Double(n) * period < tau && n < cap { n += 1 }
        initialSamples = n
        if tau < period / 2 {
            b0 = 1; b1 = 0; b2 = 0; a1 = 0; a2 = 0
            return
        }
        let fc = (2.0.squareRoot() / (2 * Double.pi)) / tau
        let c = Double.tan(Double.pi * fc * period)
        let d = c * c + 2.0.squareRoot() * c + 1
        b0 = c * c / d
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (c * c - 1) / d
        a2 = (1 - 2.0.squareRoot() * c + c * c) / d
    }
}

/// State of a `CriticalLowPass` over the lanes of `V` (transposed direct form II).
@usableFromInline
struct CriticalLowPassState<V>: Sendable, Codable, Equatable where V: SIMD, V: Sendable, V.Scalar == Double {
    @usableFromInline var s0: V = .zero
    @usableFromInline var s1: V = .zero
    /// Running sum during initialisation.
    @usableFromInline var sum: V = .zero
    /// Samples seen during initialisation; −1 once the recursive filter runs.
    @usableFromInline var count: Int = 0

    @usableFromInline init() {}

    /// Filters one sample and returns the output.
    @inlinable @inline(__always)
    mutating func step(_ x: V, _ c: CriticalLowPassCoefficients) -> V {
        if count >= 0 { return initialise(x, c) }
        let y = s0.addingProductFast(V(repeating: c.b0), x)
        s0 = s1.addingProductFast(V(repeating: c.b1), x).addingProductFast(V(repeating: -c.a1), y)
        s1 = (c.b2 * x).addingProductFast(V(repeating: -c.a2), y)
        return y
    }

    @usableFromInline @inline(never)
    mutating func initialise(_ x: V, _ c: CriticalLowPassCoefficients) -> V {
        count += 1
        sum += x
        let mean = sum / V(repeating: Double(count))
        if count >= c.initialSamples {
            // Steady state for a constant input equal to the mean (scipy's lfilter_zi).
            s0 = mean * (1 - c.b0)
            s1 = mean * (c.b2 - c.a2)
            count = -1
        }
        return mean
    }

    /// The state for a constant input `x` (as if the filter had settled on it).
    @usableFromInline
    mutating func settle(on x: V, _ c: CriticalLowPassCoefficients) {
        s0 = x * (1 - c.b0); s1 = x * (c.b2 - c.a2); sum = .zero; count = -1
    }
}
