// Scalar kernels for the per-sample fusion update (internal). Each one equals the C library
// function it replaces to within a few units in the last place (tested in
// FusionMathTests against Glibc on dense grids), and falls back to the C library outside the
// range where its polynomial is exact, so results never depend on the shortcut. They exist
// because the update calls them every sample and a libm call costs 15–25 ns there.

/// cos(x) and sin(x)/x from x² (both are even functions of x, so no square root is needed),
/// for the half rotation angle of one gyroscope step.
///
/// For x² ≤ 2⁻¹⁰ (|x| ≤ 0.03125 rad: 6.25 rad/s at 100 Hz, 18 rad/s at 285 Hz) the Taylor
/// polynomials to x⁶ are exact to 5e-17 (first omitted terms x⁸/8! and x⁸/9!); up to
/// |x| ≤ 0.25 the polynomials to x¹² / x¹⁴ (first omitted terms below 5e-20); beyond that the
/// C library.
@inlinable @inline(__always)
func fusionCosineAndSinc(squared x2: Double) -> (cosine: Double, sinc: Double) {
    guard x2 <= 0.0625 else {
        let x = x2.squareRoot()
        return (Double.cos(x), Double.sin(x) / x)
    }
    return fusionCosineAndSincPolynomial(squared: x2)
}

/// `fusionCosineAndSinc` for x² ≤ 1/1024 (the caller guarantees it): the Taylor polynomials to
/// x⁶, exact to 5e-17.
@inlinable @inline(__always)
func fusionCosineAndSincShort(squared x2: Double) -> (cosine: Double, sinc: Double) {
    (1.0.addingProductFast(x2, (-1.0 / 2).addingProductFast(x2, (1.0 / 24).addingProductFast(x2, -1.0 / 720))),
     1.0.addingProductFast(x2, (-1.0 / 6).addingProductFast(x2, (1.0 / 120).addingProductFast(x2, -1.0 / 5_040))))
}

/// `fusionCosineAndSinc` for x² ≤ 0.0625 (the caller guarantees it): the two polynomials only,
/// no libm call, so an update that uses it has no call on its common path.
@inlinable @inline(__always)
func fusionCosineAndSincPolynomial(squared x2: Double) -> (cosine: Double, sinc: Double) {
    if x2 <= 1.0 / 1024 { return fusionCosineAndSincShort(squared: x2) }
    let cosine = 1 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40_320
        + x2 * (-1.0 / 3_628_800 + x2 * (1.0 / 479_001_600))))))
    let sinc = 1 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5_040 + x2 * (1.0 / 362_880
        + x2 * (-1.0 / 39_916_800 + x2 * (1.0 / 6_227_020_800))))))
    return (cosine, sinc)
}

/// The attitude `q` (device → earth) carried `2·halfInterval` seconds ahead at the constant
/// body rate `w` (rad/s, device frame): q ⊗ exp(w·halfInterval), the step (cos(|w|h),
/// sinc(|w|h)·h·w). A zero rate, or one whose step is not finite, leaves `q` as it is.
@inlinable @inline(__always)
func fusionPredicted(_ q: Quaternion<Double>, rate w: SIMD3<Double>, halfInterval h: Double) -> Quaternion<Double> {
    let x2 = (w * w).sum() * (h * h)
    guard x2 < .infinity else { return q }
    let (cosine, sinc) = fusionCosineAndSinc(squared: x2)
    let s = sinc * h
    return fusionProduct(q, Quaternion(w: cosine, x: s * w.x, y: s * w.y, z: s * w.z))
}

/// asin(x) for x in [−1, 1] (callers clamp), with fdlibm's rational approximation R(z)
/// (fdlibm's `e_asin.c`, Sun Microsystems; its notice is in THIRD_PARTY.md; |error of R| < 2^−58.75). The
/// |x| ≥ 0.5 branch uses asin(x) = π/2 − 2·asin(√((1 − |x|)/2)) without fdlibm's extra-precision
/// split, so the result is within a few ulp of the C library's (dip angles here only meet
/// 10° thresholds and a low-pass).
@inlinable @inline(__always)
func fusionArcsine(_ x: Double) -> Double {
    @inline(__always) func rational(_ z: Double) -> Double {
        let p = z * (1.66666666666666657415e-01 + z * (-3.25565818622400915405e-01 + z * (2.01212532134862925881e-01
            + z * (-4.00555345006794114027e-02 + z * (7.91534994289814532176e-04 + z * 3.47933107596021167570e-05)))))
        let q = 1 + z * (-2.40339491173441421878e+00 + z * (2.02094576023350569471e+00
            + z * (-6.88283971605453293030e-01 + z * 7.70381505559019352791e-02)))
        return p / q
    }
    let a = x.magnitude
    if a < 0.5 { return x + x * rational(x * x) }
    guard a < 1 else { return Double.asin(x) }
    let z = (1 - a) * 0.5
    let s = z.squareRoot()
    let r = 1.57079632679489655800e+00 - (2 * (s + s * rational(z)) - 6.12323399573676603587e-17)
    return x < 0 ? -r : r
}

/// atan2(y, x) in (−π, π]. When the angle is within ±7.1° of +x (|y| ≤ x/8) the Taylor series of
/// atan(y/x) to t¹⁹ is used (first omitted term below 1e-18 relative); elsewhere the C library.
@inlinable @inline(__always)
func fusionArctangent2(y: Double, x: Double) -> Double {
    guard x > 0, y.magnitude <= 0.125 * x else { return Double.atan2(y: y, x: x) }
    let t = y / x
    let t2 = t * t
    return t * (1 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11
        + t2 * (1.0 / 13 + t2 * (-1.0 / 15 + t2 * (1.0 / 17 + t2 * (-1.0 / 19))))))))))
}

/// atan(a/b) for a ≥ 0, b > 0 (finite), by fdlibm's method (`s_atan.c`, Sun Microsystems; its
/// notice is in THIRD_PARTY.md): t = a/b is reduced to |x| ≤ 7/16 about c = 0, ½, 1, 3/2 or +∞,
/// x = (t − c)/(1 + c·t), computed as (a − c·b)/(b + c·a) so that the quotient is the only
/// division; then atan(x) is fdlibm's published odd polynomial to x²³, and atan(c) is added in
/// two parts.
@inlinable @inline(__always)
func fusionArctangent(_ a: Double, over b: Double) -> Double {
    let numerator: Double, denominator: Double, high: Double, low: Double
    if a < 0.4375 * b {
        (numerator, denominator, high, low) = (a, b, 0, 0)
    } else if a < 0.6875 * b {
        (numerator, denominator, high, low) = (2 * a - b, 2 * b + a, 4.63647609000806093515e-01, 2.26987774529616870924e-17)
    } else if a < 1.1875 * b {
        (numerator, denominator, high, low) = (a - b, b + a, 7.85398163397448278999e-01, 3.06161699786838301793e-17)
    } else if a < 2.4375 * b {
        (numerator, denominator, high, low) = (2 * a - 3 * b, 2 * b + 3 * a, 9.82793723247329054082e-01, 1.39033110312309984516e-17)
    } else {
        (numerator, denominator, high, low) = (-b, a, 1.57079632679489655800e+00, 6.12323399573676603587e-17)
    }
    let x = numerator / denominator
    let z = x * x, w = z * z
    let odd = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01 + w * (9.09088713343650656196e-02
        + w * (6.66107313738753120669e-02 + w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))))
    let even = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01 + w * (-7.69187620504482999495e-02
        + w * (-5.83357013379057348645e-02 + w * -3.65315727442169155270e-02))))
    return high - ((x * (odd + even) - low) - x)
}

/// atan2(y, x) in [−π, π] by fdlibm's method (`e_atan2.c`): atan(|y|/|x|)
/// (`fusionArctangent`) placed in its quadrant; within 2 ulp of the C library's (tested) and
/// about twice as fast as glibc's, which rounds correctly. Zero or non-finite arguments
/// (and a ratio that could overflow or lose precision in the products) take the C library's.
/// For the compass heading of the outputs.
@inlinable @inline(__always)
func fusionArctangent2Quadrant(y: Double, x: Double) -> Double {
    let a = y.magnitude, b = x.magnitude
    guard a > 0x1p-500, b > 0x1p-500, a < 0x1p500, b < 0x1p500 else { return Double.atan2(y: y, x: x) }
    let angle = fusionArctangent(a, over: b)
    let negative = y.sign == .minus
    if x > 0 { return negative ? -angle : angle }
    let piLow = 1.2246467991473531772e-16   // π − Double.pi
    return negative ? (angle - piLow) - .pi : .pi - (angle - piLow)
}

/// cos(θ/2) and sin(θ/2) from cos θ and sin θ, for θ in (−π, π] (so cos(θ/2) ≥ 0), with no
/// libm call: the larger of the two from its half-angle formula (no cancellation there), the
/// other from sin θ = 2 sin(θ/2) cos(θ/2). Within a few ulp of `cos(θ/2)`, `sin(θ/2)` when the
/// inputs are (tested in FusionCorrectionRateTests); for the output attitude, whose heading's
/// cos/sin the estimator keeps.
@inlinable @inline(__always)
func fusionHalfAngle(cosine: Double, sine: Double) -> (cosine: Double, sine: Double) {
    if cosine >= 0 {
        let c = ((1 + cosine) * 0.5).squareRoot()   // ≥ √½
        return (c, sine / (2 * c))
    }
    let magnitude = ((1 - cosine) * 0.5).squareRoot()   // > √½
    let s = sine < 0 ? -magnitude : magnitude
    return (sine / (2 * s), s)
}

/// (w, x, y, z) scaled to unit length. Products of unit quaternions have |q|² within a few ulp
/// of 1; there one Newton step of 1/√n² from 1 ((3 − n²)/2) is exact to 1e-17, with no square
/// root or division. Other norms (and zero or non-finite values, which give the identity like
/// `Quaternion.normalized`) take the exact path.
@inlinable @inline(__always)
func fusionNormalized(w: Double, x: Double, y: Double, z: Double) -> Quaternion<Double> {
    let n2 = w * w + x * x + y * y + z * z
    let deviation = n2 - 1
    if deviation.magnitude <= 1e-8 {
        let f = 1 - 0.5 * deviation
        return Quaternion(w: w * f, x: x * f, y: y * f, z: z * f)
    }
    return Quaternion(w: w, x: x, y: y, z: z).normalized
}

/// x² + y² + z² of the first three lanes (the 4th is ignored), with fused multiply-adds.
@inlinable @inline(__always)
func fusionSquaredNorm(_ v: SIMD4<Double>) -> Double {
    (v.x * v.x).addingProductFast(v.y, v.y).addingProductFast(v.z, v.z)
}

/// x² + y² + z² with fused multiply-adds.
@inlinable @inline(__always)
func fusionSquaredNorm(_ v: SIMD3<Double>) -> Double {
    (v.x * v.x).addingProductFast(v.y, v.y).addingProductFast(v.z, v.z)
}

/// a0·b0 + a1·b1 + a2·b2 with fused multiply-adds (one rounding per term; with
/// POISE_TARGET_CPU set, one instruction per term).
@inlinable @inline(__always)
func fusionDot(_ a0: Double, _ b0: Double, _ a1: Double, _ b1: Double, _ a2: Double, _ b2: Double) -> Double {
    (a0 * b0).addingProductFast(a1, b1).addingProductFast(a2, b2)
}

/// The product `a ⊗ b` (not normalised), with fused multiply-adds.
@inlinable @inline(__always)
func fusionProduct(_ a: Quaternion<Double>, _ b: Quaternion<Double>) -> Quaternion<Double> {
    Quaternion(w: (a.w * b.w).addingProductFast(-a.x, b.x).addingProductFast(-a.y, b.y).addingProductFast(-a.z, b.z),
               x: (a.w * b.x).addingProductFast(a.x, b.w).addingProductFast(a.y, b.z).addingProductFast(-a.z, b.y),
               y: (a.w * b.y).addingProductFast(-a.x, b.z).addingProductFast(a.y, b.w).addingProductFast(a.z, b.x),
               z: (a.w * b.z).addingProductFast(a.x, b.y).addingProductFast(-a.y, b.x).addingProductFast(a.z, b.w))
}

/// Rotates `v` by the unit quaternion `q` (v + 2w(u × v) + 2u × (u × v), u the vector part),
/// written out in scalars so it inlines into the update.
@inlinable @inline(__always)
func fusionRotate(_ q: Quaternion<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
    FusionRotation(q).rotate(v)
}

/// Rotation by a unit quaternion with its doubled vector part computed once, for rotating
/// several vectors by the same attitude: 15 floating-point operations per vector (the
/// rotation matrix needs 24 to build and 9 per vector, so it only pays from the fourth
/// vector on), and 7 values to keep instead of 9. t = 2u × v, then v + w·t + u × t.
@usableFromInline
struct FusionRotation {
    @usableFromInline let w: Double, x: Double, y: Double, z: Double
    @usableFromInline let x2: Double, y2: Double, z2: Double

    @inlinable @inline(__always)
    init(_ q: Quaternion<Double>) {
        (w, x, y, z) = (q.w, q.x, q.y, q.z)
        (x2, y2, z2) = (2 * q.x, 2 * q.y, 2 * q.z)
    }

    /// q·v·q* of v = (vx, vy, vz). (Scaling by 2 is exact, so this equals rounding 2·(u × v)
    /// term by term.)
    @inlinable @inline(__always)
    func rotate(_ vx: Double, _ vy: Double, _ vz: Double) -> (x: Double, y: Double, z: Double) {
        let tx = (y2 * vz).addingProductFast(-z2, vy)
        let ty = (z2 * vx).addingProductFast(-x2, vz)
        let tz = (x2 * vy).addingProductFast(-y2, vx)
        return (vx.addingProductFast(w, tx).addingProductFast(y, tz).addingProductFast(-z, ty),
                vy.addingProductFast(w, ty).addingProductFast(z, tx).addingProductFast(-x, tz),
                vz.addingProductFast(w, tz).addingProductFast(x, ty).addingProductFast(-y, tx))
    }

    /// q·v·q*.
    @inlinable @inline(__always)
    func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let r = rotate(v.x, v.y, v.z)
        return SIMD3(r.x, r.y, r.z)
    }

    /// q·v·q* for a 3-vector in the first three lanes; the 4th lane is passed through.
    @inlinable @inline(__always)
    func rotate(_ v: SIMD4<Double>) -> SIMD4<Double> {
        let r = rotate(v.x, v.y, v.z)
        return SIMD4(r.x, r.y, r.z, v.w)
    }
}

/// The rotation matrix of a unit quaternion, in scalars (rows r0, r1, r2), for the bias
/// Kalman filter (which needs R itself).
@usableFromInline
struct FusionRotationMatrix {
    @usableFromInline let r00: Double, r01: Double, r02: Double
    @usableFromInline let r10: Double, r11: Double, r12: Double
    @usableFromInline let r20: Double, r21: Double, r22: Double

    @inlinable @inline(__always)
    init(_ q: Quaternion<Double>) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let x2 = 2 * x, y2 = 2 * y, z2 = 2 * z
        let xx = x * x2, yy = y * y2, zz = z * z2, xy = x * y2, xz = x * z2, yz = y * z2
        let wx = w * x2, wy = w * y2, wz = w * z2
        r00 = 1 - yy - zz; r01 = xy - wz; r02 = xz + wy
        r10 = xy + wz; r11 = 1 - xx - zz; r12 = yz - wx
        r20 = xz - wy; r21 = yz + wx; r22 = 1 - xx - yy
    }
}

/// `x` limited to [−limit, limit] (`limit` ≥ 0).
@inlinable @inline(__always)
func fusionClamp(_ x: Double, _ limit: Double) -> Double { Swift.min(Swift.max(x, -limit), limit) }
