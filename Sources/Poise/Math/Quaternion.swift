/// A quaternion `w + x·i + y·j + z·k`, stored (w, x, y, z).
///
/// Poise uses unit quaternions for attitude. An attitude quaternion `q` **rotates device-frame
/// vectors into the earth frame**: `v_earth = q.act(v_device)` (Hamilton convention,
/// `q ⊗ (0, v) ⊗ q*`). Composition reads right to left: `a * b` applies `b` first, then `a`.
@frozen
public struct Quaternion<Scalar: PoiseReal>: Sendable, Hashable, Codable {
    /// Real (scalar) part.
    public var w: Scalar
    /// Imaginary part along i.
    public var x: Scalar
    /// Imaginary part along j.
    public var y: Scalar
    /// Imaginary part along k.
    public var z: Scalar

    /// Creates the quaternion `w + x·i + y·j + z·k` (not normalised).
    @inlinable
    public init(w: Scalar, x: Scalar, y: Scalar, z: Scalar) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    /// Creates a quaternion from a real part and a vector part.
    @inlinable
    public init(real: Scalar, imaginary v: SIMD3<Scalar>) {
        self.init(w: real, x: v.x, y: v.y, z: v.z)
    }

    /// The identity rotation.
    @inlinable public static var identity: Quaternion { Quaternion(w: 1, x: 0, y: 0, z: 0) }

    /// The rotation by `angle` radians about `axis` (right-hand rule; the axis need not be
    /// normalised, a zero axis gives the identity).
    @inlinable
    public init(axis: SIMD3<Scalar>, angle: Scalar) {
        let n = axis.lengthSquared.squareRoot()
        guard n > 0 else { self = .identity; return }
        let h = angle / 2
        let s = Scalar.sin(h) / n
        self.init(w: Scalar.cos(h), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// The rotation vector's exponential: rotation by `|v|` radians about `v`.
    @inlinable
    public init(rotationVector v: SIMD3<Scalar>) {
        self.init(axis: v, angle: v.lengthSquared.squareRoot())
    }

    /// The vector part (x, y, z).
    @inlinable public var imaginary: SIMD3<Scalar> {
        get { SIMD3(x, y, z) }
        set { x = newValue.x; y = newValue.y; z = newValue.z }
    }

    /// Components as (w, x, y, z).
    @inlinable public var components: SIMD4<Scalar> { SIMD4(w, x, y, z) }

    /// The conjugate `w − x·i − y·j − z·k`; for a unit quaternion, the inverse rotation.
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The squared norm.
    @inlinable public var lengthSquared: Scalar { w * w + x * x + y * y + z * z }

    /// The norm.
    @inlinable public var length: Scalar { lengthSquared.squareRoot() }

    /// The inverse (conjugate divided by the squared norm).
    @inlinable public var inverse: Quaternion {
        let n = lengthSquared
        return Quaternion(w: w / n, x: -x / n, y: -y / n, z: -z / n)
    }

    /// This quaternion scaled to unit length; the identity if the norm is zero or not finite.
    @inlinable public var normalized: Quaternion {
        let n = length
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// The same rotation with a non-negative real part (q and −q are the same rotation).
    @inlinable public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// True when all components are finite.
    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// Hamilton product: `lhs * rhs` rotates by `rhs` first, then by `lhs`. (Always inlined:
    /// a call costs more than its 28 operations, e.g. per sample in the fusion outputs.)
    @inlinable @inline(__always)
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        let (a, b) = (lhs, rhs)
        return Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v` by this (unit) quaternion: `q ⊗ (0, v) ⊗ q*`.
    @inlinable
    public func act(_ v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        // v' = v + 2w(u × v) + 2u × (u × v), u = vector part.
        let u = imaginary
        let t = 2 * cross(u, v)
        return v + w * t + cross(u, t)
    }

    /// The rotation angle in radians, in [0, π].
    @inlinable public var angle: Scalar {
        2 * Scalar.atan2(y: imaginary.lengthSquared.squareRoot(), x: w.magnitude)
    }

    /// The rotation matrix R (rows) such that `R · v == act(v)` for a unit quaternion.
    @inlinable public var rotationMatrix: RotationMatrix<Scalar> {
        let (xx, yy, zz) = (x * x, y * y, z * z)
        let (xy, xz, yz) = (x * y, x * z, y * z)
        let (wx, wy, wz) = (w * x, w * y, w * z)
        return RotationMatrix(rows: (
            SIMD3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
            SIMD3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
            SIMD3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))))
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) along the shorter arc.
    @inlinable
    public func slerp(to other: Quaternion, t: Scalar) -> Quaternion {
        var b = other
        var d = w * b.w + x * b.x + y * b.y + z * b.z
        if d < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z); d = -d }
        if d > 1 - 16 * Scalar.ulpOfOne {
            return Quaternion(w: w + t * (b.w - w), x: x + t * (b.x - x),
                              y: y + t * (b.y - y), z: z + t * (b.z - z)).normalized
        }
        let theta = Scalar.acos(d)
        let s = Scalar.sin(theta)
        let (ka, kb) = (Scalar.sin((1 - t) * theta) / s, Scalar.sin(t * theta) / s)
        return Quaternion(w: ka * w + kb * b.w, x: ka * x + kb * b.x,
                          y: ka * y + kb * b.y, z: ka * z + kb * b.z)
    }
}

extension Quaternion {
    /// Converts between scalar types.
    @inlinable
    public init<Other: PoiseReal>(_ q: Quaternion<Other>) {
        self.init(w: Scalar(q.w), x: Scalar(q.x), y: Scalar(q.y), z: Scalar(q.z))
    }
}

/// A 3×3 rotation matrix stored by rows.
@frozen
public struct RotationMatrix<Scalar: PoiseReal>: @unchecked Sendable, Equatable {
    /// Row 0, 1 and 2.
    public var rows: (SIMD3<Scalar>, SIMD3<Scalar>, SIMD3<Scalar>)

    @inlinable public init(rows: (SIMD3<Scalar>, SIMD3<Scalar>, SIMD3<Scalar>)) { self.rows = rows }

    /// The identity matrix.
    @inlinable public static var identity: RotationMatrix {
        RotationMatrix(rows: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))
    }

    /// Element at `row`, `column` (0-based).
    @inlinable public subscript(row: Int, column: Int) -> Scalar {
        switch row { case 0: rows.0[column]; case 1: rows.1[column]; default: rows.2[column] }
    }

    /// The matrix–vector product `R · v`.
    @inlinable public func apply(_ v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        SIMD3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// The transpose (the inverse rotation).
    @inlinable public var transposed: RotationMatrix {
        RotationMatrix(rows: (
            SIMD3(rows.0.x, rows.1.x, rows.2.x),
            SIMD3(rows.0.y, rows.1.y, rows.2.y),
            SIMD3(rows.0.z, rows.1.z, rows.2.z)))
    }

    /// The matrix product `lhs · rhs`.
    @inlinable public static func * (lhs: RotationMatrix, rhs: RotationMatrix) -> RotationMatrix {
        let t = rhs.transposed
        func row(_ r: SIMD3<Scalar>) -> SIMD3<Scalar> { SIMD3((r * t.rows.0).sum(), (r * t.rows.1).sum(), (r * t.rows.2).sum()) }
        return RotationMatrix(rows: (row(lhs.rows.0), row(lhs.rows.1), row(lhs.rows.2)))
    }

    public static func == (a: RotationMatrix, b: RotationMatrix) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }
}

/// The cross product `a × b`.
@inlinable
public func cross<T: PoiseReal>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> SIMD3<T> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// The dot product `a · b`.
@inlinable
public func dot<T: PoiseReal>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> T { (a * b).sum() }
