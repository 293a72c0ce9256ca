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
/// Keeps 16 bytes per scored sample for the alignment, which needs all of them (in the heap, or
/// in the `ValueLog` given to `init(errorLog:)`, such as a temporary file); an accumulator made
/// with `keepsErrors: false` keeps none and sums as it goes (fixed memory, the same result
/// without alignment to the last bit).
public struct OrientationErrorAccumulator: Sendable {
    /// (w, z) of each scored error quaternion, sign-normalised to w ≥ 0 (with `keepsErrors`,
    /// unless `log` keeps them).
    private var errors: [SIMD2<Double>] = []
    /// Where the errors are kept instead of `errors` (`init(errorLog:)`).
    private let log: (any ValueLog<SIMD2<Double>>)?
    private var inclinationSquareSum: Double = 0
    /// Without `keepsErrors`: the squared total and heading errors summed as they come.
    private var totalSquareSum: Double = 0
    private var headingSquareSum: Double = 0
    private var scored = 0
    /// Whether each error is kept, so that `result(alignHeading: true)` can align the heading.
    public let keepsErrors: Bool

    /// An accumulator that keeps every scored error, for either result.
    public init() { keepsErrors = true; log = nil }

    /// - Parameter keepsErrors: keep every scored error (16 bytes each) for the heading
    ///   alignment; `false` for a fixed memory when the heading is not aligned (9D).
    public init(keepsErrors: Bool) { self.keepsErrors = keepsErrors; log = nil }

    /// An accumulator that keeps every scored error, for either result, in `errorLog` (empty;
    /// one (w, z) value per scored sample), read back in order by `result`: the same results
    /// as in the heap, to the last bit. The accumulator and its copies share the log: give each
    /// accumulator its own, and check `failure` before using a result.
    public init(errorLog: any ValueLog<SIMD2<Double>>) {
        precondition(errorLog.count == 0, "an empty log")
        keepsErrors = true
        log = errorLog
    }

    /// The error log's failure (a full disk), if any: the result is not valid then.
    public var failure: (any Error)? { log?.failure }

    /// Number of scored samples.
    public var count: Int { scored }

    /// Adds one sample. Non-finite or zero quaternions are not scored (returns false).
    @discardableResult
    public mutating func add(estimate: Quaternion<Double>, truth: Quaternion<Double>) -> Bool {
        guard estimate.isFinite, truth.isFinite, estimate.lengthSquared > 0, truth.lengthSquared > 0 else { return false }
        var e = estimate.normalized * truth.normalized.conjugate
        if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
        let wz = Swift.min(1, (e.w * e.w + e.z * e.z).squareRoot())
        let inclination = 2 * Double.acos(wz)
        inclinationSquareSum += inclination * inclination
        scored += 1
        if let log {
            log.append(SIMD2(e.w, e.z))
        } else if keepsErrors {
            errors.append(SIMD2(e.w, e.z))
        } else {
            let (t, h) = Self.totalAndHeading(w: e.w, z: e.z)
            totalSquareSum += t * t; headingSquareSum += h * h
        }
        return true
    }

    /// Total and heading error angles (rad) of an error quaternion's w and z.
    @inline(__always)
    private static func totalAndHeading(w: Double, z: Double) -> (Double, Double) {
        (2 * Double.acos(Swift.min(1, w.magnitude)), 2 * Double.atan((z / w).magnitude))
    }

    /// RMSE in degrees. `alignHeading` applies the constant heading alignment described above;
    /// an accumulator that keeps no errors cannot align, and says so (`headingAligned` false).
    public func result(alignHeading: Bool) -> OrientationError {
        let n = Double(scored)
        let aligns = alignHeading && keepsErrors
        guard scored > 0 else {
            return OrientationError(total: .nan, heading: .nan, inclination: .nan, count: 0,
                                    headingAligned: aligns, headingOffset: 0)
        }
        // Heading error angle per sample: ψ = 2·atan2(z, w) ∈ (−π, π]. Rotating the estimate by
        // α about the vertical turns it into wrap(ψ + α) and leaves w² + z² unchanged.
        var total = totalSquareSum, heading = headingSquareSum, alpha = 0.0
        if keepsErrors {
            alpha = aligns ? bestAlignment() : 0
            let (c, s) = (Double.cos(alpha / 2), Double.sin(alpha / 2))
            forEachError { e in
                let (t, h) = Self.totalAndHeading(w: c * e.x - s * e.y, z: c * e.y + s * e.x)
                total += t * t; heading += h * h
            }
        }
        let degrees = 180 / Double.pi
        return OrientationError(total: (total / n).squareRoot() * degrees,
                                heading: (heading / n).squareRoot() * degrees,
                                inclination: (inclinationSquareSum / n).squareRoot() * degrees,
                                count: scored, headingAligned: aligns,
                                headingOffset: alpha * degrees)
    }

    /// The α minimising Σ wrap(ψᵢ + α)²: a coarse scan over a subsample (the cost is not convex
    /// because of the wrap), then Newton steps on all samples (exact within the basin).
    private func bestAlignment() -> Double {
        // The heading error angle ψ of a kept (w, z).
        func psi(_ e: SIMD2<Double>) -> Double { 2 * Double.atan2(y: e.y, x: e.x) }
        func wrap(_ a: Double) -> Double {
            var r = a.truncatingRemainder(dividingBy: 2 * .pi)
            if r > .pi { r -= 2 * .pi } else if r <= -.pi { r += 2 * .pi }
            return r
        }
        let count = log?.count ?? errors.count
        var subsample: [Double] = []
        forEachError(every: Swift.max(1, count / 2000)) { subsample.append(psi($0)) }
        var best = (cost: Double.infinity, alpha: 0.0)
        for k in 0..<360 {
            let a = Double(k) * (2 * .pi / 360) - .pi
            var cost = 0.0
            for p in subsample { let d = wrap(p + a); cost += d * d }
            if cost < best.cost { best = (cost, a) }
        }
        var alpha = best.alpha
        for _ in 0..<50 {
            var sum = 0.0
            forEachError { sum += wrap(psi($0) + alpha) }
            let step = sum / Double(count)
            alpha = wrap(alpha - step)
            if step.magnitude < 1e-13 { break }
        }
        return alpha
    }

    /// Calls `body` with the kept errors at `stride(from: 0, to: count, by: step)`, in order.
    private func forEachError(every step: Int = 1, _ body: (SIMD2<Double>) -> Void) {
        if let log {
            log.forEach(every: step) { _, e in body(e) }
        } else {
            var i = 0
            while i < errors.count { body(errors[i]); i += step }
        }
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
