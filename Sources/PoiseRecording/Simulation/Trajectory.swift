#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// A known motion of the device: attitude (device → earth ENU) and linear acceleration, both
/// given in closed form so the sensor readings derived from them are exact.
///
/// The attitude is a chain of elementary rotations, applied in order from the earth frame
/// inwards: `q(t) = q₁(t) ⊗ q₂(t) ⊗ … ⊗ qₙ(t)`, each `qₖ = exp(aₖ·θₖ(t)/2)` about a fixed unit axis
/// `aₖ` of the frame left by the rotations before it (the first axis is an earth axis, later ones
/// are device axes at that point of the chain). The device-frame angular velocity is then exactly
/// `ω = Σₖ (qₖ₊₁ ⊗ … ⊗ qₙ)* · (θ̇ₖ aₖ)`: no numerical integration anywhere.
public struct Trajectory: Sendable {
    /// A motion along or about a fixed unit axis, given by a profile of time.
    /// As a `Rotation` the profile is the angle in radians (axis frame: see the type's
    /// documentation); as a `Translation` it is the position in metres along an earth (ENU) axis.
    public struct AxisMotion: Sendable {
        /// Unit axis.
        public var axis: SIMD3<Double>
        /// Angle (rad) or position (m) with its derivatives.
        public var profile: Profile
        /// Normalises `axis` (a zero axis becomes +Z).
        public init(axis: SIMD3<Double>, profile: Profile) {
            let n = (axis * axis).sum().squareRoot()
            self.axis = n > 0 ? axis / n : SIMD3(0, 0, 1)
            self.profile = profile
        }
    }

    /// One rotation of the chain: angle profile in radians about `axis`.
    public typealias Rotation = AxisMotion
    /// A translation: position profile in metres along an earth axis.
    public typealias Translation = AxisMotion

    /// A scalar function of time with its first two derivatives in closed form.
    public enum Profile: Sendable {
        /// Constant value.
        case constant(Double)
        /// A minimum-jerk move from 0 to `amount` between `start` and `start + duration` seconds
        /// (0 before, `amount` after; s(u) = 10u³ − 15u⁴ + 6u⁵).
        case move(start: Double, duration: Double, amount: Double)
        /// `amplitude · sin(2π·frequency·t + phase)` inside a window that fades in and out over
        /// `ramp` seconds with the minimum-jerk shape (0 outside [start, end]).
        case oscillation(amplitude: Double, frequency: Double, phase: Double, start: Double, end: Double, ramp: Double)

        /// Value, first and second derivative at time `t` (seconds).
        public func evaluate(_ t: Double) -> (value: Double, rate: Double, acceleration: Double) {
            switch self {
            case .constant(let v):
                return (v, 0, 0)
            case .move(let start, let duration, let amount):
                if t <= start { return (0, 0, 0) }
                if duration <= 0 || t >= start + duration { return (amount, 0, 0) }
                let (s, ds, dds) = Profile.minimumJerk((t - start) / duration)
                return (amount * s, amount * ds / duration, amount * dds / (duration * duration))
            case .oscillation(let amplitude, let frequency, let phase, let start, let end, let ramp):
                guard t > start, t < end else { return (0, 0, 0) }
                let (e, de, dde) = Profile.window(t, start: start, end: end, ramp: ramp)
                let w = 2 * Double.pi * frequency
                let sine = amplitude * sin(w * t + phase)
                let cosine = amplitude * cos(w * t + phase)
                return (e * sine, de * sine + e * w * cosine, dde * sine + 2 * de * w * cosine - e * w * w * sine)
            }
        }

        /// True when the profile changes at time `t` (moving), false when it is constant there.
        public func isActive(_ t: Double) -> Bool {
            switch self {
            case .constant: false
            case .move(let start, let duration, _): t > start && t < start + duration
            case .oscillation(_, _, _, let start, let end, _): t > start && t < end
            }
        }

        static func minimumJerk(_ u: Double) -> (Double, Double, Double) {
            let u2 = u * u, u3 = u2 * u
            return (u3 * (10 - 15 * u + 6 * u2), 30 * u2 * (1 - 2 * u + u2), 60 * u * (1 - 3 * u + 2 * u2))
        }

        static func window(_ t: Double, start: Double, end: Double, ramp: Double) -> (Double, Double, Double) {
            let r = max(min(ramp, (end - start) / 2), 1e-9)
            if t < start + r {
                let (s, ds, dds) = minimumJerk((t - start) / r)
                return (s, ds / r, dds / (r * r))
            }
            if t > end - r {
                let (s, ds, dds) = minimumJerk((end - t) / r)
                return (s, -ds / r, dds / (r * r))
            }
            return (1, 0, 0)
        }
    }

    /// The true state at one instant.
    public struct State: Sendable, Equatable {
        /// Attitude, device → earth (ENU).
        public var attitude: Quaternion<Double>
        /// Angular velocity in the device frame, rad/s.
        public var angularVelocity: SIMD3<Double>
        /// Linear acceleration of the device in the earth frame, m/s² (gravity not included).
        public var linearAcceleration: SIMD3<Double>
        /// True while anything moves (rotation or translation).
        public var moving: Bool
    }

    /// Rotation chain, earth side first.
    public var rotations: [Rotation]
    /// Translations, summed.
    public var translations: [Translation]
    /// Length of the scenario in seconds.
    public var duration: Double

    public init(rotations: [Rotation] = [], translations: [Translation] = [], duration: Double) {
        self.rotations = rotations; self.translations = translations; self.duration = duration
    }

    /// The exact state at time `t` (seconds).
    public func state(at t: Double) -> State {
        // Forward recurrence (no allocation): for Qₖ = Qₖ₋₁ ⊗ qₖ the body rate is
        // ωₖ = qₖ* · ωₖ₋₁ + θ̇ₖ aₖ, which sums to the formula above.
        var attitude = Quaternion<Double>.identity
        var omega = SIMD3<Double>.zero
        var moving = false
        for r in rotations {
            let (angle, rate, _) = r.profile.evaluate(t)
            let q = Quaternion(axis: r.axis, angle: angle)
            attitude = attitude * q
            omega = q.conjugate.act(omega) + rate * r.axis
            moving = moving || r.profile.isActive(t)
        }
        var acceleration = SIMD3<Double>.zero
        for translation in translations {
            acceleration += translation.profile.evaluate(t).acceleration * translation.axis
            moving = moving || translation.profile.isActive(t)
        }
        return State(attitude: attitude, angularVelocity: omega, linearAcceleration: acceleration, moving: moving)
    }
}
