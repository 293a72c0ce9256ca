/// The shape of a stick response between the dead zone and the saturation angle.
public enum ResponseCurve: Sendable, Hashable, Codable {
    /// `out = t`.
    case linear
    /// `out = t²`: fine control near the centre.
    case quadratic
    /// `out = t^p`, p > 0 (p = 1 is linear, p = 2 quadratic, p < 1 more sensitive near the centre).
    case exponent(Double)

    /// `out` for a normalised input `t` in [0, 1].
    @inlinable
    public func value(_ t: Double) -> Double {
        switch self {
        case .linear: t
        case .quadratic: t * t
        case .exponent(let p): Double.pow(t, p)
        }
    }
}

/// Maps an angle to a thumbstick-like axis value in [−1, 1].
///
/// With `a` the angle in degrees, `d` the dead zone and `s` the saturation angle:
/// `out = sign(a) · curve(clamp((|a| − d) / (s − d), 0, 1))`. So |a| ≤ d gives exactly 0,
/// |a| ≥ s gives exactly ±1, and the output is continuous and odd in `a`.
public struct StickResponse: Sendable, Hashable, Codable {
    /// Angles at or below this magnitude give 0, degrees. Default 3.
    public var deadZone: Double
    /// Angles at or above this magnitude give ±1, degrees; must exceed `deadZone`. Default 30.
    public var saturation: Double
    /// The curve between them. Default linear.
    public var curve: ResponseCurve

    public init(deadZone: Double = 3, saturation: Double = 30, curve: ResponseCurve = .linear) {
        self.deadZone = deadZone; self.saturation = saturation; self.curve = curve
    }

    /// Checks the ranges; returns a message naming the first bad field, or nil.
    public var problem: String? {
        if !(deadZone >= 0 && deadZone < 180) { return "dead zone must be in [0, 180) degrees, got \(deadZone)" }
        if !(saturation > deadZone && saturation <= 180) { return "saturation must be in (dead zone, 180] degrees, got \(saturation) with dead zone \(deadZone)" }
        if case .exponent(let p) = curve, !(p > 0 && p.isFinite) { return "curve exponent must be a finite number > 0, got \(p)" }
        return nil
    }

    /// The axis value for an angle in **degrees** (NaN in gives 0).
    @inlinable
    public func value(degrees a: Double) -> Double {
        let m = a.magnitude
        guard m > deadZone else { return 0 }  // also catches NaN
        let t = m >= saturation ? 1 : (m - deadZone) / (saturation - deadZone)
        let v = Swift.min(1, curve.value(t))
        return a < 0 ? -v : v
    }
}

/// Tilt angles of a relative attitude, CoreMotion convention (see conventions.md), radians:
/// - `pitch` = asin(2(wx + yz)), rotation about the x axis, in [−π/2, π/2]; positive lifts the
///   top edge toward +z (toward the viewer);
/// - `roll` = atan2(−2(xz − wy), 1 − 2(x² + y²)), rotation about the y axis, in (−π, π];
///   positive dips the right edge away from the viewer (toward −z).
@frozen
public struct TiltAngles: Sendable, Hashable {
    /// Rotation about x, radians.
    public var pitch: Double
    /// Rotation about y, radians.
    public var roll: Double

    public init(pitch: Double, roll: Double) { self.pitch = pitch; self.roll = roll }

    /// The angles of `q` (normalised first).
    @inlinable
    public init(_ attitude: Quaternion<Double>) {
        self.init(unit: attitude.normalized)
    }

    /// The angles of a quaternion already of unit length (no normalisation): the pitch and
    /// roll of `DeviceMotion.coreMotionAngles`.
    @inlinable
    init(unit q: Quaternion<Double>) {
        let angles = DeviceMotion.coreMotionAngles(q)
        self.init(pitch: angles.pitch, roll: angles.roll)
    }
}

extension Quaternion where Scalar == Double {
    /// A heading-free attitude from gravity alone: the smallest rotation taking the measured up
    /// direction (specific force in device axes, up positive; any non-zero length) onto earth
    /// up (+z), as a device → earth attitude. When the device is exactly upside down (up = −z)
    /// it is the 180° turn about x. Returns the identity for a zero or non-finite input.
    @inlinable
    public static func tilt(fromGravity g: SIMD3<Double>) -> Quaternion<Double> {
        let n = g.lengthSquared.squareRoot()
        guard n > 0, n.isFinite else { return .identity }
        let u = g * (1 / n)
        // q = normalise(1 + u·z, u × z) with z = (0, 0, 1): u × z = (u.y, −u.x, 0).
        let w = 1 + u.z
        if w < 1e-12 { return Quaternion(w: 0, x: 1, y: 0, z: 0) }
        // |(w, u.y, −u.x, 0)|² = w² + 1 − u.z² = 2w for a unit u.
        let scale = 1 / (2 * w).squareRoot()
        return Quaternion(w: w * scale, x: u.y * scale, y: -u.x * scale, z: 0)
    }
}
