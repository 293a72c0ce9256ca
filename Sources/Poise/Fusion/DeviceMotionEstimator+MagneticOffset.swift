extension DeviceMotionEstimator {
    /// The magnetometer offset (hard iron moving with the device) from a sphere fit of recent
    /// readings: readings m = Rᵀ·b + h of a field b of constant norm r seen from a device that
    /// turns lie on the sphere |m − h| = r. Written |m|² = 2h·m + c (c = r² − |h|²), that is a
    /// linear regression of |m|² on m, solved from exponentially weighted sums of the readings'
    /// moments. All in the magnetometer's unit (µT), device frame.
    ///
    /// `sums` layout (each a weighted sum over the readings): 0–2 x², xy, xz; 3 x; 4–5 y², yz;
    /// 6 y; 7 z²; 8 z; 9 the weight; 10–12 x|m|², y|m|², z|m|²; 13 |m|²; 14 |m|⁴.
    @usableFromInline
    struct MagneticOffsetFit: Sendable {
        /// The fitted offset h, µT.
        @usableFromInline var offset: SIMD3<Double>
        /// The fitted radius r, µT (the field norm once h is removed).
        @usableFromInline var radius: Double
        /// RMS(|m − h|² − r²) / (2r²): the readings' relative distance from the sphere.
        @usableFromInline var residual: Double
        /// The readings' covariance (entries 00, 01, 02, 11, 12, 22), µT².
        @usableFromInline var covariance: (Double, Double, Double, Double, Double, Double)

        /// √(smallest eigenvalue of the readings' covariance) / r: how far the readings spread
        /// in their least spread direction (0.577 all over the sphere, 0 in a plane). Computed
        /// when asked (a cubic's trigonometric solution; the estimator tests it with `covers`).
        @inlinable var coverage: Double {
            let (c00, c01, c02, c11, c12, c22) = covariance
            return (Swift.max(Self.smallestEigenvalue(c00, c01, c02, c11, c12, c22), 0) / (radius * radius)).squareRoot()
        }

        /// Whether `coverage` ≥ `minimum`, without the eigenvalue's trigonometry: for
        /// `minimum` > 0 it is the smallest eigenvalue of the covariance C being ≥ t =
        /// (minimum·radius)², that is C − t·I being positive definite, which its three leading
        /// principal minors say (Sylvester's criterion; the two differ only when the eigenvalue
        /// is t to rounding).
        @inlinable @inline(__always)
        func covers(_ minimum: Double) -> Bool {
            guard minimum > 0 else { return true }
            let t = (minimum * radius) * (minimum * radius)
            let (c00, c01, c02, c11, c12, c22) = covariance
            let a00 = c00 - t, a11 = c11 - t, a22 = c22 - t
            let minor2 = a00 * a11 - c01 * c01
            let minor3 = a00 * (a11 * a22 - c12 * c12) - c01 * (c01 * a22 - c12 * c02) + c02 * (c01 * c12 - a11 * c02)
            return a00 > 0 && minor2 > 0 && minor3 > 0
        }

        /// The moments one reading `m` adds to the sums (nil when |m|⁴ is not finite).
        /// (This and the fit are inlined into the correction step's caller: out of line, their
        /// optional results went through memory.)
        @inlinable @inline(__always)
        static func moments(of m: SIMD3<Double>) -> SIMD16<Double>? {
            let y = (m * m).sum()
            guard y * y < .infinity else { return nil }
            return SIMD16(m.x * m.x, m.x * m.y, m.x * m.z, m.x, m.y * m.y, m.y * m.z, m.y, m.z * m.z, m.z, 1,
                          m.x * y, m.y * y, m.z * y, y, y * y, 0)
        }

        /// The fit of the readings summed in `s`, or nil when they do not determine a sphere
        /// (no weight, readings in a plane or on a line: a covariance that is not positive
        /// definite, or no real radius).
        @inlinable @inline(__always)
        init?(sums s: SIMD16<Double>) {
            let w = s[9]
            guard w > 0 else { return nil }
            let inverseWeight = 1 / w
            let mean = SIMD3(s[3], s[6], s[8]) * inverseWeight
            let meanSquare = s[13] * inverseWeight
            // Covariance C of the readings and covariance d of the readings with |m|².
            let c00 = s[0] * inverseWeight - mean.x * mean.x, c01 = s[1] * inverseWeight - mean.x * mean.y
            let c02 = s[2] * inverseWeight - mean.x * mean.z, c11 = s[4] * inverseWeight - mean.y * mean.y
            let c12 = s[5] * inverseWeight - mean.y * mean.z, c22 = s[7] * inverseWeight - mean.z * mean.z
            let d = SIMD3(s[10], s[11], s[12]) * inverseWeight - mean * meanSquare
            // 2h = C⁻¹ d, from the cofactors (C, a covariance, is positive semi-definite; a
            // positive determinant makes it definite).
            let a00 = c11 * c22 - c12 * c12, a01 = c02 * c12 - c01 * c22, a02 = c01 * c12 - c02 * c11
            let a11 = c00 * c22 - c02 * c02, a12 = c01 * c02 - c00 * c12, a22 = c00 * c11 - c01 * c01
            let det = c00 * a00 + c01 * a01 + c02 * a02
            guard det > 0 else { return nil }
            let g = SIMD3(a00 * d.x + a01 * d.y + a02 * d.z,
                          a01 * d.x + a11 * d.y + a12 * d.z,
                          a02 * d.x + a12 * d.y + a22 * d.z) / det
            let h = g * 0.5
            let c = meanSquare - (g * mean).sum()
            let r2 = c + (h * h).sum()
            guard r2 > 0, r2 < .infinity else { return nil }
            // Residual variance of the regression: var(|m|²) − d·C⁻¹d.
            let variance = s[14] * inverseWeight - meanSquare * meanSquare - (g * d).sum()
            offset = h
            radius = r2.squareRoot()
            residual = Swift.max(variance, 0).squareRoot() / (2 * r2)
            covariance = (c00, c01, c02, c11, c12, c22)
        }

        /// The smallest eigenvalue of the symmetric 3×3 matrix with entries a00, a01, a02,
        /// a11, a12, a22 (closed form: the trigonometric solution of the characteristic cubic).
        @inlinable
        static func smallestEigenvalue(_ a00: Double, _ a01: Double, _ a02: Double,
                                       _ a11: Double, _ a12: Double, _ a22: Double) -> Double {
            let offDiagonal = a01 * a01 + a02 * a02 + a12 * a12
            let q = (a00 + a11 + a22) / 3
            let b00 = a00 - q, b11 = a11 - q, b22 = a22 - q
            let p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2 * offDiagonal
            guard p2 > 0 else { return q }
            let p = (p2 / 6).squareRoot()
            // r = det(B)/2 with B = (A − qI)/p, in [−1, 1] up to rounding.
            let det = b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02)
            let r = Swift.max(-1, Swift.min(1, det / (2 * p * p * p)))
            let phi = Double.acos(r) / 3
            // The eigenvalues are q + 2p·cos(φ + 2πk/3); k = 1 gives the smallest.
            return q + 2 * p * Double.cos(phi + 2 * Double.pi / 3)
        }
    }

    /// Adds the correction step's magnetometer reading to the sphere fit (after decaying the
    /// older readings' weight) and sets the offset the next readings are corrected by: the
    /// fitted one when it passes the four tests of `magneticOffsetEstimation`
    /// (`DeviceMotionConfiguration`), else zero.
    @usableFromInline @inline(never)
    mutating func estimateMagneticOffset() {
        let c = coefficients
        guard let moments = MagneticOffsetFit.moments(of: state.magneticOffsetSample) else { return }
        let sums = state.magneticOffsetSums * c.magneticOffsetDecay + moments
        state.magneticOffsetSums = sums
        let reference = state.magneticReferenceNorm
        // The cheap tests first; the coverage (three minors) only when they pass.
        if let fit = MagneticOffsetFit(sums: sums), fit.residual <= c.magneticOffsetMaximumResidual,
           reference == 0 || (fit.radius - reference).magnitude <= c.magneticNormThreshold * reference,
           (fit.offset * fit.offset).sum().squareRoot() >= c.magneticNormThreshold * fit.radius
            || fit.residual < c.magneticSmallOffsetMaximumResidual,
           fit.covers(c.magneticOffsetMinimumCoverage) {
            state.magneticOffset = fit.offset
        } else {
            state.magneticOffset = .zero
        }
    }
}
