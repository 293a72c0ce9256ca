@testable import Poise

/// Deterministic random geometry for property tests (on top of the test target's SplitMix).
extension SplitMix {
    /// Uniform in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }

    /// A vector with independent normal components scaled by `scale`.
    mutating func vector(scale: Double = 1) -> SIMD3<Double> { SIMD3(gaussian(), gaussian(), gaussian()) * scale }

    /// A uniformly distributed unit quaternion (normalised 4-D normal deviate).
    mutating func rotation() -> Quaternion<Double> {
        Quaternion(w: gaussian(), x: gaussian(), y: gaussian(), z: gaussian()).normalized
    }

    /// A quaternion of random norm in [0.1, 10) (not a rotation).
    mutating func quaternion() -> Quaternion<Double> {
        let q = rotation(), s = Double.exp(uniform(Double.log(0.1), Double.log(10)))
        return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
    }

    /// One of `values`.
    mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
}

func distance(_ a: Quaternion<Double>, _ b: Quaternion<Double>) -> Double {
    (a.components - b.components).maxMagnitude
}

/// Distance between two rotations (q and −q are the same rotation).
func rotationDistance(_ a: Quaternion<Double>, _ b: Quaternion<Double>) -> Double {
    min((a.components - b.components).maxMagnitude, (a.components + b.components).maxMagnitude)
}

func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
