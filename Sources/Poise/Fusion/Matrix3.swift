/// A 3×3 matrix of Doubles stored by rows: the bias Kalman filter's covariance, and the
/// soft-iron and accelerometer matrices of ``SensorCorrection``.
public struct Matrix3: Sendable, Codable, Equatable {
    /// First row.
    public var r0: SIMD3<Double>
    /// Second row.
    public var r1: SIMD3<Double>
    /// Third row.
    public var r2: SIMD3<Double>

    /// A matrix from its rows.
    @inlinable public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    /// s · I.
    @inlinable public static func scaledIdentity(_ s: Double) -> Matrix3 {
        Matrix3(SIMD3(s, 0, 0), SIMD3(0, s, 0), SIMD3(0, 0, s))
    }

    /// The transpose.
    @inlinable public var transposed: Matrix3 {
        Matrix3(SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    /// The matrix times a column vector.
    @inlinable public static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((a.r0 * v).sum(), (a.r1 * v).sum(), (a.r2 * v).sum())
    }

    /// The matrix product.
    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        @inline(__always) func row(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * b.r0 + r.y * b.r1 + r.z * b.r2 }
        return Matrix3(row(a.r0), row(a.r1), row(a.r2))
    }

    /// Element-wise difference.
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2) }

    /// The inverse, or the zero matrix when |det| ≤ machine epsilon (as VQF).
    @inlinable public var inverse: Matrix3 {
        let (a, b, c) = (r0.x, r0.y, r0.z), (d, e, f) = (r1.x, r1.y, r1.z), (g, h, i) = (r2.x, r2.y, r2.z)
        let cA = e * i - f * h, cD = c * h - b * i, cG = b * f - c * e
        let cB = f * g - d * i, cE = a * i - c * g, cH = c * d - a * f
        let cC = d * h - e * g, cF = b * g - a * h, cI = a * e - b * d
        let det = a * cA + b * cB + c * cC
        guard det.magnitude > Double.ulpOfOne else { return Matrix3(.zero, .zero, .zero) }
        let s = 1 / det
        return Matrix3(SIMD3(cA, cD, cG) * s, SIMD3(cB, cE, cH) * s, SIMD3(cC, cF, cI) * s)
    }
}
