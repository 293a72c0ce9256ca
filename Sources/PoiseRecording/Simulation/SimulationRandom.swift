#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The simulator's own deterministic random numbers: xoshiro256** (Blackman & Vigna, 2018)
/// seeded through SplitMix64, so a seed gives the same recording on every platform and Swift version.
public struct SimulationRandom: Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// Seeds the generator (any value, including 0).
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }

    /// Standard normal (Box–Muller; one value per call, so the stream does not depend on call pairing).
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(), 0x1p-60)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Three independent standard normals.
    public mutating func gaussian3() -> SIMD3<Double> { SIMD3(gaussian(), gaussian(), gaussian()) }

    /// A uniformly distributed unit vector.
    public mutating func unitVector() -> SIMD3<Double> {
        while true {
            let v = gaussian3()
            let n = (v * v).sum().squareRoot()
            if n > 1e-9 { return v / n }
        }
    }
}
