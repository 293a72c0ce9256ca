import Testing
@testable import Poise

/// The averaging length of the fusion's critical low-pass: the smallest n ≥ 1 with n·period ≥ τ
/// (VQF's rule), capped at 2³⁰, found without counting up to it.
@Suite struct CriticalLowPassTests {
    /// The rule as written, one step at a time (fine for the small cases).
    static func counted(_ tau: Double, _ period: Double) -> Int {
        var n = 1
        while Double(n) * period < tau && n < 1 << 30 { n += 1 }
        return n
    }

    @Test func averagingLengthFollowsTheRule() {
        for period in [0.01, 0.005, 1.0 / 3, 1.0 / 286, 0.1] {
            for tau in [-1, 0, 1e-9, 0.004, 0.01, 0.0100000001, 0.3, 0.5, 1, 1.5, 3, 10, 0.1 * 3, 0.7 * 3] {
                #expect(CriticalLowPassCoefficients(timeConstant: tau, period: period).initialSamples == Self.counted(tau, period),
                        "τ \(tau) s, period \(period) s")
            }
        }
    }

    /// A time constant of years at a kilohertz, or a non-finite one: the cap (or 1), at once.
    @Test func extremeTimeConstantsAreCapped() {
        #expect(CriticalLowPassCoefficients(timeConstant: 1e12, period: 1e-3).initialSamples == 1 << 30)
        #expect(CriticalLowPassCoefficients(timeConstant: .infinity, period: 0.01).initialSamples == 1 << 30)
        #expect(CriticalLowPassCoefficients(timeConstant: .nan, period: 0.01).initialSamples == 1)
        #expect(CriticalLowPassCoefficients(timeConstant: 1e6, period: 0.01).initialSamples == 100_000_000)
    }
}
