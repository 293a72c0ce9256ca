/// The least-squares ellipsoid through a cloud of 3-vectors: the set of x with
/// (x − center)ᵀ · shape · (x − center) = 1, shape symmetric positive definite.
///
/// Algorithm: the algebraic fit of the general quadric (Li & Griffiths 2004, "Least squares
/// ellipsoid specific fitting", with the normalisation of the constant term instead of their
/// ellipsoid-specific constraint). The points are first centred on their mean and scaled by
/// their RMS distance from it, so the origin lies inside the cloud (the constant term is then
/// safely nonzero) and the normal equations are well scaled. With y the scaled points, ordinary
/// least squares solves
///
///     a y₁² + b y₂² + c y₃² + 2f y₂y₃ + 2g y₁y₃ + 2h y₁y₂ + 2p y₁ + 2q y₂ + 2r y₃ = 1
///
/// (``EllipsoidModel/diagonal`` drops f, g, h; ``EllipsoidModel/offset`` ties a = b = c and
/// drops f, g, h). With M the symmetric matrix of a…h and v = (p, q, r), the centre is −M⁻¹v and
/// the shape M / (1 + vᵀM⁻¹v). The normal equations are solved through their eigen
/// decomposition, which also tells when the points do not determine the quadric (condition
/// number above 10¹²).
struct EllipsoidFit: Sendable, Equatable {
    /// Centre, the points' unit.
    var center: SIMD3<Double>
    /// The symmetric positive definite matrix of the ellipsoid, 1/unit².
    var shape: Matrix3

    /// Largest accepted condition number of the scaled normal equations.
    static let maximumCondition = 1e12

    /// Fits `model` to the points whose `include` entry is true (all when `include` is empty).
    ///
    /// - Throws: ``CalibrationError`` when fewer points than unknowns are included, when the points
    ///   do not determine the quadric, or when the best quadric is not an ellipsoid.
    /// - Complexity: O(n) (one pass for the mean and scale, one for the normal equations).
    init(_ points: UnsafeBufferPointer<SIMD3<Double>>, include: UnsafeBufferPointer<Bool>, model: EllipsoidModel) throws(CalibrationError) {
        let chosen = include.isEmpty ? Array(points) : points.indices.filter { include[$0] }.map { points[$0] }
        try self.init(model: model) { body in chosen.withUnsafeBufferPointer(body) }
    }

    /// Fits `model` to the points `blocks` hands to its argument, one block of consecutive points
    /// at a time, the same points in the same order on each of its three calls (points kept
    /// outside the heap, such as a `ValueLog`'s). Each pass is a plain loop over a block, its
    /// sums kept in locals for the block; the sums are those of one loop over all the points.
    init(model: EllipsoidModel, blocks: ((UnsafeBufferPointer<SIMD3<Double>>) -> Void) -> Void) throws(CalibrationError) {
        let m = model.parameterCount
        var sum = SIMD3<Double>.zero
        var count = 0
        blocks { block in
            var s = sum
            for p in block { s += p }
            sum = s
            count += block.count
        }
        guard count >= m else {
            throw CalibrationError("\(count) usable samples cannot determine the \(m) unknowns of the \(model.rawValue) ellipsoid")
        }
        let mean = sum / Double(count)
        var spread = 0.0
        blocks { block in
            var s = spread
            for p in block {
                let d = p - mean
                s += (d * d).sum()
            }
            spread = s
        }
        let scale = (spread / Double(count)).squareRoot()
        guard scale > 0, scale.isFinite else { throw CalibrationError("all samples are equal: the sensor did not see any change") }
        let inverseScale = 1 / scale
        // Normal equations Σ rrᵀ θ = Σ r, one SIMD16 row per unknown (entries past m stay zero).
        var normal = [SIMD16<Double>](repeating: .zero, count: m)
        var right = SIMD16<Double>.zero
        normal.withUnsafeMutableBufferPointer { rows in
            // One loop per model, so the term count is a constant and the row updates unroll.
            // A row's entries past the first 4, 8 or 12 lanes that hold the terms stay zero (the
            // terms there are zero), so they are not updated.
            @inline(__always) func add(_ r: SIMD16<Double>, _ count: Int, _ right: inout SIMD16<Double>) {
                for j in 0..<count {
                    let a = r[j]
                    if count > 8 {
                        rows[j].lowHalf += a * r.lowHalf
                        rows[j].highHalf.lowHalf += a * r.highHalf.lowHalf
                    } else if count > 4 {
                        rows[j].lowHalf += a * r.lowHalf
                    } else {
                        rows[j].lowHalf.lowHalf += a * r.lowHalf.lowHalf
                    }
                }
                right += r
            }
            blocks { block in
                var sums = right
                switch model {
                case .full:
                    for p in block {
                        let y = (p - mean) * inverseScale
                        let t = 2 * y
                        add(SIMD16(y.x * y.x, y.y * y.y, y.z * y.z, t.y * y.z, t.x * y.z, t.x * y.y, t.x, t.y, t.z,
                                   0, 0, 0, 0, 0, 0, 0), 9, &sums)
                    }
                case .diagonal:
                    for p in block {
                        let y = (p - mean) * inverseScale
                        let t = 2 * y
                        add(SIMD16(y.x * y.x, y.y * y.y, y.z * y.z, t.x, t.y, t.z, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 6, &sums)
                    }
                case .offset:
                    for p in block {
                        let y = (p - mean) * inverseScale
                        let t = 2 * y
                        add(SIMD16((y * y).sum(), t.x, t.y, t.z, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 4, &sums)
                    }
                }
                right = sums
            }
        }
        let theta = try Self.solve(normal, right, m: m)
        var quadric: Matrix3
        var linear: SIMD3<Double>
        switch model {
        case .full:
            quadric = Matrix3(SIMD3(theta[0], theta[5], theta[4]), SIMD3(theta[5], theta[1], theta[3]),
                              SIMD3(theta[4], theta[3], theta[2]))
            linear = SIMD3(theta[6], theta[7], theta[8])
        case .diagonal:
            quadric = Matrix3(SIMD3(theta[0], 0, 0), SIMD3(0, theta[1], 0), SIMD3(0, 0, theta[2]))
            linear = SIMD3(theta[3], theta[4], theta[5])
        case .offset:
            quadric = .scaledIdentity(theta[0])
            linear = SIMD3(theta[1], theta[2], theta[3])
        }
        let eigen = SymmetricEigen(quadric)
        // The quadric's matrix must be definite (all eigenvalues of one sign) for an ellipsoid.
        guard eigen.values[0] * eigen.values[2] > 0 else {
            throw CalibrationError("the best-fitting quadric is not an ellipsoid (its axes' signs differ): the samples do not trace an ellipsoid")
        }
        let inverse = eigen.map3 { 1 / $0 }
        let centre = -(inverse * linear)
        let constant = 1 + (centre * (quadric * centre)).sum()
        let shapeScaled = Matrix3(quadric.r0 / constant, quadric.r1 / constant, quadric.r2 / constant)
        guard SymmetricEigen(shapeScaled).values[0] > 0, constant.isFinite else {
            throw CalibrationError("the best-fitting quadric is not an ellipsoid: the samples do not trace an ellipsoid")
        }
        center = mean + scale * centre
        let s2 = inverseScale * inverseScale
        shape = Matrix3(shapeScaled.r0 * s2, shapeScaled.r1 * s2, shapeScaled.r2 * s2)
    }

    /// Convenience form over arrays.
    init(_ points: [SIMD3<Double>], include: [Bool] = [], model: EllipsoidModel) throws(CalibrationError) {
        let result: Result<EllipsoidFit, CalibrationError> = points.withUnsafeBufferPointer { p in
            include.withUnsafeBufferPointer { i in
                do throws(CalibrationError) { return .success(try EllipsoidFit(p, include: i, model: model)) } catch { return .failure(error) }
            }
        }
        self = try result.get()
    }

    /// Solves the m×m normal equations by eigen decomposition after scaling to a unit diagonal.
    static func solve(_ normal: [SIMD16<Double>], _ right: SIMD16<Double>, m: Int) throws(CalibrationError) -> [Double] {
        var d = [Double](repeating: 0, count: m)
        for j in 0..<m {
            guard normal[j][j] > 0 else { throw CalibrationError("the samples do not determine the ellipsoid (a term of the fit is always zero)") }
            d[j] = 1 / normal[j][j].squareRoot()
        }
        var scaled = [Double](repeating: 0, count: m * m)
        for i in 0..<m { for j in 0..<m { scaled[i * m + j] = d[i] * normal[i][j] * d[j] } }
        let eigen = SymmetricEigen(scaled, n: m)
        let largest = eigen.values[m - 1], smallest = eigen.values[0]
        guard smallest > largest / maximumCondition, smallest.isFinite, largest.isFinite else {
            throw CalibrationError("the samples do not determine the ellipsoid: they cover too few directions")
        }
        // θ = D V Λ⁻¹ Vᵀ D b
        var db = [Double](repeating: 0, count: m)
        for j in 0..<m { db[j] = d[j] * right[j] }
        var theta = [Double](repeating: 0, count: m)
        for k in 0..<m {
            var projection = 0.0
            for i in 0..<m { projection += eigen.vectors[i * m + k] * db[i] }
            projection /= eigen.values[k]
            for i in 0..<m { theta[i] += eigen.vectors[i * m + k] * projection }
        }
        for j in 0..<m { theta[j] *= d[j] }
        return theta
    }
}
