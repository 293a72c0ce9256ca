/// The slow bias processes of one simulated three-axis sensor whose Allan-deviation parameters
/// are known (IEEE Std 952 terms, in the sensor's core unit u):
///
/// - **rate random walk** K (u/√s = u/s/√Hz): the bias integrates white noise,
///   bₖ₊₁ = bₖ + K·√Δt·w, so σ(τ) = K·√(τ/3);
/// - **bias instability** B (u): flicker (1/f) noise of PSD B²/(2π f) (two-sided, IEEE 952's
///   convention; B²/(π f) one-sided), whose Allan deviation is flat at √(2 ln 2/π)·B = 0.664·B.
///   It is approximated by a sum of first-order Gauss–Markov processes with time constants
///   spaced half a decade apart from `flickerTimeConstants.first` to `.last` (0.1 s to 10⁵ s),
///   each of stationary variance B²·ln(10)/(2π) — the power of that 1/f noise per half decade —
///   so the sum's PSD follows 1/f between about 1/(2π·10⁵ s) and 1/(2π·0.1 s). Its Allan
///   deviation is 0.664·B within about ±7 % for τ from 1 s to a few thousand seconds (it falls
///   below that at shorter τ, and beyond, where the slowest term no longer wanders).
///
/// Draws its random numbers from its own generator, so adding these processes does not change
/// the rest of a seed's recording.
struct BiasNoiseProcesses: Sendable {
    /// Rate random walk K, u/√s.
    let rateRandomWalk: Double
    /// Bias instability B, u.
    let biasInstability: Double
    /// Time constants of the Gauss–Markov terms, s: 10^(j/2), j = −2 … 10.
    static let flickerTimeConstants = (-2...10).map { pow10(Double($0) / 2) }

    private var random: SimulationRandom
    private var walk = SIMD3<Double>.zero
    private var flicker: [SIMD3<Double>]
    /// The stationary standard deviation of each term.
    private let flickerDeviation: Double
    /// Per term for the last step length: the decay e^(−Δt/T) and the innovation's deviation.
    private var step: (dt: Double, decay: [Double], innovation: [Double]) = (0, [], [])

    init(rateRandomWalk: Double, biasInstability: Double, seed: UInt64) {
        self.rateRandomWalk = rateRandomWalk
        self.biasInstability = biasInstability
        random = SimulationRandom(seed: seed)
        flickerDeviation = biasInstability * (_log(10) / (2 * Double.pi)).squareRoot()
        var random = self.random
        let deviation = flickerDeviation
        flicker = Self.flickerTimeConstants.map { _ in deviation * random.gaussian3() }
        self.random = random
    }

    /// The bias these processes add now, u.
    var value: SIMD3<Double> { flicker.reduce(walk, +) }

    /// Advances every process by `dt` seconds.
    mutating func advance(_ dt: Double) {
        if rateRandomWalk > 0 { walk += rateRandomWalk * dt.squareRoot() * random.gaussian3() }
        guard biasInstability > 0 else { return }
        if dt != step.dt {
            let decay = Self.flickerTimeConstants.map { _exp(-dt / $0) }
            step = (dt, decay, decay.map { flickerDeviation * (1 - $0 * $0).squareRoot() })
        }
        for j in flicker.indices {
            flicker[j] = step.decay[j] * flicker[j] + step.innovation[j] * random.gaussian3()
        }
    }

    private static func pow10(_ x: Double) -> Double { _exp(x * _log(10)) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
