/// The BROAD orientation-error metric (D. Laidig, M. Caruso, A. Cereatti, T. Seel, "BROAD — A
/// Benchmark for Robust Inertial Orientation Estimation", Data 6(7), 2021), as defined in the
/// project's conventions: for estimated and true attitudes (both device → the same earth frame
/// with z vertical) the error in the earth frame is q_e = q_est ⊗ q_true⁻¹, and per sample
/// - total error = 2·acos(min(1, |w_e|)),
/// - heading error = 2·atan(|z_e / w_e|),
/// - inclination error = 2·acos(min(1, √(w_e² + z_e²))).
///
/// Feed scored samples with `add`, then read `result(alignHeading:)`. With heading alignment
/// (for 6D estimates, whose heading is only defined up to a constant) the estimate is first
/// rotated about the vertical by the one constant angle that minimises the heading RMSE.
/// Keeps 16 bytes per scored sample (the alignment needs all of them).
public struct OrientationErrorAccumulator: Sendable {
    /// (w, z) of each scored error quaternion, sign-normalised to w ≥ 0.
    private var errors: [SIMD2<Double>] = []
    private var inclinationSquareSum: Double = 0

    public init() {}

    /// Number of scored samples.
    public var count: Int { errors.count }

    /// Adds one sample. Non-finite or zero quaternions are not scored (returns false).
    @discardableResult
    public mutating func add(estimate: Quaternion<Double>, truth: Quaternion<Double>) -> Bool {
        guard estimate.isFinite, truth.isFinite, estimate.lengthSquared > 0, truth.lengthSquared > 0 else { return false }
        var e = estimate.normalized * truth.normalized.conjugate
        if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
        let wz = Swift.min(1, (e.w * e.w + e.z * e.z).squareRoot())
        let inclination = 2 * Double.acos(wz)
        inclinationSquareSum += inclination * inclination
        errors.append(SIMD2(e.w, e.z))
        return true
    }

    /// RMSE in degrees. `alignHeading` applies the constant heading alignment described above.
    public func result(alignHeading: Bool) -> OrientationError {
        let n = Double(errors.count)
        guard errors.count > 0 else {
            return OrientationError(total: .nan, heading: .nan, inclination: .nan, count: 0,
                                    headingAligned: alignHeading, headingOffset: 0)
        }
        // Heading error angle per sample: ψ = 2·atan2(z, w) ∈ (−π, π]. Rotating the estimate by
        // α about the vertical turns it into wrap(ψ + α) and leaves w² + z² unchanged.
        let alpha = alignHeading ? bestAlignment() : 0
        let (c, s) = (Double.cos(alpha / 2), Double.sin(alpha / 2))
        var total = 0.0, heading = 0.0
        for e in errors {
            let w = c * e.x - s * e.y, z = c * e.y + s * e.x
            let t = 2 * Double.acos(Swift.min(1, w.magnitude))
            let h = 2 * Double.atan((z / w).magnitude)
            total += t * t; heading += h * h
        }
        let degrees = 180 / Double.pi
        return OrientationError(total: (total / n).squareRoot() * degrees,
                                heading: (heading / n).squareRoot() * degrees,
                                inclination: (inclinationSquareSum / n).squareRoot() * degrees,
                                count: errors.count, headingAligned: alignHeading,
                                headingOffset: alpha * degrees)
    }

    /// The α minimising Σ wrap(ψᵢ + α)²: a coarse scan over a subsample (the cost is not convex
    /// because of the wrap), then Newton steps on all samples (exact within the basin).
    private func bestAlignment() -> Double {
        let psi = errors.map { 2 * Double.atan2(y: $0.y, x: $0.x) }
        func wrap(_ a: Double) -> Double {
            var r = a.truncatingRemainder(dividingBy: 2 * .pi)
            if r > .pi { r -= 2 * .pi } else if r <= -.pi { r += 2 * .pi }
            return r
        }
        let stride = Swift.max(1, psi.count / 2000)
        var best = (cost: Double.infinity, alpha: 0.0)
        for k in 0..<360 {
            let a = Double(k) * (2 * .pi / 360) - .pi
            var cost = 0.0
            var i = 0
            while i < psi.count { let d = wrap(psi[i] + a); cost += d * d; i += stride }
            if cost < best.cost { best = (cost, a) }
        }
        var alpha = best.alpha
        for _ in 0..<50 {
            var sum = 0.0
            for p in psi { sum += wrap(p + alpha) }
            let step = sum / Double(psi.count)
            alpha = wrap(alpha - step)
            if step.magnitude < 1e-13 { break }
        }
        return alpha
    }
}

/// Orientation RMSEs in degrees (BROAD metric).
public struct OrientationError: Sendable, Equatable, Codable {
    /// Total-error RMSE, degrees.
    public var total: Double
    /// Heading-error RMSE, degrees.
    public var heading: Double
    /// Inclination-error RMSE, degrees.
    public var inclination: Double
    /// Scored samples.
    public var count: Int
    /// True when the constant heading alignment was applied.
    public var headingAligned: Bool
    /// The alignment angle applied about the vertical, degrees (0 without alignment).
    public var headingOffset: Double
}
