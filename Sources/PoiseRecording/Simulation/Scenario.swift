/// Named motions for the simulator. Times in seconds, angles in degrees in the descriptions.
public enum Scenario: String, CaseIterable, Sendable, Codable {
    /// Lying flat on a table (heading 30°), not moving.
    case still
    /// Flat → upright (+90° about device X over 0.4 s) and back, every 3.5 s, after 3 s at rest:
    /// the tilt step of the latency metric (gravity moves from +Z to +Y).
    case tiltSteps = "tilt-steps"
    /// Held in landscape facing the user (lifted 60° about X), turned about the screen normal (Z)
    /// left and right like a steering wheel, 20–45° per turn with 1–2 s holds.
    case steering
    /// Flat, with 2-second shake bursts (5–7 Hz, up to 1.5 g linear acceleration, ±3° wobble)
    /// separated by 2 s of rest.
    case shake
    /// Held in front, tilted 30°, walking at 1.8 steps/s (±0.33 g vertical bounce, sway, wobble),
    /// turning 90° left half way; passes a steel structure (magnetic disturbance).
    case walking
    /// Rotations of 60–180° about random axes (1–2 s each) separated by 2–4 s still breaks, like
    /// BROAD trials 05/09; one magnetic disturbance.
    case rotationsWithBreaks = "rotations-with-breaks"
    /// The default recording of the main job (60 s): still start, tilt steps flat → upright and
    /// back, steering left and right, a shake burst, still segments in between, a late tilt pair.
    case phoneTiltSteer = "phone-tilt-steer"
    /// Turned slowly about ever-changing random axes (90–200° over 2–3 s, no pauses, no magnetic
    /// disturbance), pointing every face in every direction: a magnetometer-calibration recording.
    case tumble
    /// Held still for 4 s in each of thirteen orientations (every face up, then six tilted ones;
    /// eleven distinct gravity directions; 1.5 s turns between): an accelerometer-calibration
    /// recording.
    case multiPosition = "multi-position"

    /// Length used when no duration is given, seconds.
    public var defaultDuration: Double {
        switch self {
        case .still: 10
        case .tiltSteps: 20
        case .steering: 24
        case .shake: 14
        case .walking: 24
        case .rotationsWithBreaks: 30
        case .phoneTiltSteer: 60
        case .tumble: 40
        case .multiPosition: 76
        }
    }

    /// The motion for a recording of `duration` seconds; random choices use `random`.
    public func trajectory(duration: Double, random: inout SimulationRandom) -> (Trajectory, [MagneticDisturbance]) {
        var b = TrajectoryBuilder()
        var disturbances: [MagneticDisturbance] = []
        let end = duration
        switch self {
        case .still:
            b.fixed(axis: Z, degrees: 30)
        case .tiltSteps:
            var t = 3.0
            while t + 4 <= end {
                b.move(axis: X, degrees: 90, at: t, over: 0.4)
                b.move(axis: X, degrees: -90, at: t + 3.5, over: 0.4)
                t += 7
            }
        case .steering:
            b.fixed(axis: Z, degrees: 90)            // heading: facing north-west
            b.move(axis: X, degrees: 60, at: 2, over: 1)
            var t = 4.5
            var angle = 0.0
            while t + 3 <= end - 2 {
                let target = (angle <= 0 ? 1.0 : -1.0) * random.uniform(20, 45)
                let over = random.uniform(0.5, 1.0)
                b.move(axis: Z, degrees: target - angle, at: t, over: over)
                angle = target
                t += over + random.uniform(1, 2)
            }
            b.move(axis: Z, degrees: -angle, at: t, over: 0.8)
        case .shake:
            var t = 2.0
            while t + 2 <= end - 1 {
                let f = random.uniform(5, 7)
                b.shake(axis: SIMD3(1, 0, 0), peak: random.uniform(0.8, 1.5), frequency: f, from: t, to: t + 2)
                b.shake(axis: SIMD3(0, 0, 1), peak: random.uniform(0.3, 0.8), frequency: f * 1.1, from: t, to: t + 2)
                b.wobble(axis: Y, degrees: 3, frequency: f, from: t, to: t + 2)
                t += 4
            }
        case .walking:
            b.move(axis: Z, degrees: 90, at: end / 2, over: 2)   // the turn, about the vertical
            b.fixed(axis: X, degrees: 30)
            let (start, stop) = (2.0, max(2.5, end - 2))
            b.shake(axis: SIMD3(0, 0, 1), peak: 0.33, frequency: 1.8, from: start, to: stop, ramp: 1)
            b.shake(axis: SIMD3(1, 0, 0), peak: 0.1, frequency: 0.9, from: start, to: stop, ramp: 1)
            b.wobble(axis: X, degrees: 2, frequency: 1.8, from: start, to: stop, ramp: 1)
            b.wobble(axis: Y, degrees: 3, frequency: 0.9, from: start, to: stop, ramp: 1)
            b.wobble(axis: Z, degrees: 2, frequency: 0.9, from: start, to: stop, ramp: 1, phase: 1)
            disturbances.append(MagneticDisturbance(start: end * 0.3, end: end * 0.3 + 3, ramp: 1, field: SIMD3(12, -5, 8)))
        case .rotationsWithBreaks:
            var t = 3.0
            while t + 2 <= end - 2 {
                let over = random.uniform(1, 2)
                b.move(axis: random.unitVector(), degrees: random.uniform(60, 180) * (random.uniform() < 0.5 ? -1 : 1),
                       at: t, over: over)
                t += over + random.uniform(2, 4)
            }
            disturbances.append(MagneticDisturbance(start: end * 0.6, end: end * 0.6 + 2, ramp: 0.5, field: SIMD3(-15, 10, 0)))
        case .phoneTiltSteer:
            b.fixed(axis: Z, degrees: 20)
            // Tilt steps flat → upright and back (about device X), each held 3.6 s.
            for t in [5.0, 13.0] {
                b.move(axis: X, degrees: 90, at: t, over: 0.4)
                b.move(axis: X, degrees: -90, at: t + 4, over: 0.4)
            }
            b.move(axis: X, degrees: 60, at: 21, over: 1)     // lift to the steering pose
            b.move(axis: X, degrees: -60, at: 40, over: 1)    // back to flat
            for (t, over, degrees) in [(24.0, 0.8, 35.0), (26.0, 1.2, -70.0), (29.0, 0.8, 35.0),
                                       (31.0, 0.6, -30.0), (33.0, 0.6, 60.0), (35.0, 0.6, -30.0)] {
                b.move(axis: Z, degrees: degrees, at: t, over: over)
            }
            b.shake(axis: SIMD3(1, 0, 0), peak: 1.2, frequency: 6, from: 44, to: 47)
            b.shake(axis: SIMD3(0, 0, 1), peak: 0.6, frequency: 6.6, from: 44, to: 47)
            b.wobble(axis: Y, degrees: 3, frequency: 6, from: 44, to: 47)
            b.move(axis: X, degrees: 90, at: 52, over: 0.4)
            b.move(axis: X, degrees: -90, at: 56, over: 0.4)
            disturbances.append(MagneticDisturbance(start: 48.5, end: 50.5, ramp: 0.5, field: SIMD3(10, -6, 4)))
        case .tumble:
            var t = 1.0
            while t < end {
                let over = random.uniform(2, 3)
                b.move(axis: random.unitVector(), degrees: random.uniform(90, 200), at: t, over: over)
                t += over
            }
        case .multiPosition:
            var t = 2.0
            for (axis, degrees) in [(X, 90.0), (X, 90), (X, 90), (X, 90), (Y, 90), (Y, 180), (Y, 45), (X, 45), (X, 90), (Y, 90),
                                   (X, -135), (Y, -60)] {
                guard t + 1.5 <= end else { break }
                b.move(axis: axis, degrees: degrees, at: t, over: 1.5)
                t += 5.5
            }
        }
        return (Trajectory(rotations: b.rotations, translations: b.translations, duration: duration), disturbances)
    }
}

private let X = SIMD3<Double>(1, 0, 0)
private let Y = SIMD3<Double>(0, 1, 0)
private let Z = SIMD3<Double>(0, 0, 1)

/// Collects rotations (in chain order) and translations for a scenario.
struct TrajectoryBuilder {
    var rotations: [Trajectory.Rotation] = []
    var translations: [Trajectory.Translation] = []
    static let radiansPerDegree = Double.pi / 180

    mutating func fixed(axis: SIMD3<Double>, degrees: Double) {
        rotations.append(.init(axis: axis, profile: .constant(degrees * Self.radiansPerDegree)))
    }

    mutating func move(axis: SIMD3<Double>, degrees: Double, at start: Double, over duration: Double) {
        rotations.append(.init(axis: axis, profile: .move(start: start, duration: duration, amount: degrees * Self.radiansPerDegree)))
    }

    mutating func wobble(axis: SIMD3<Double>, degrees: Double, frequency: Double, from start: Double, to end: Double,
                         ramp: Double = 0.3, phase: Double = 0) {
        rotations.append(.init(axis: axis, profile: .oscillation(amplitude: degrees * Self.radiansPerDegree, frequency: frequency,
                                                                 phase: phase, start: start, end: end, ramp: ramp)))
    }

    /// A translation oscillation along an earth axis with the given peak acceleration (g).
    mutating func shake(axis: SIMD3<Double>, peak: Double, frequency: Double, from start: Double, to end: Double, ramp: Double = 0.3) {
        let w = 2 * Double.pi * frequency
        translations.append(.init(axis: axis, profile: .oscillation(amplitude: peak * 9.80665 / (w * w), frequency: frequency,
                                                                    phase: 0, start: start, end: end, ramp: ramp)))
    }
}
