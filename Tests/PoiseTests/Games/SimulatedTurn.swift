import Poise

/// A simulated recording of known rotation for the gyro-aiming tests: the device is held still
/// in a fixed tilt, then turns about the vertical at a constant rate by a known angle, then is
/// still again. Exact kinematics: rotating about the vertical does not change the tilt, so the
/// accelerometer reads the constant up direction (g, device frame) and the gyroscope reads
/// rate × up (rad/s, device frame), plus a constant bias and white noise.
struct SimulatedTurn {
    /// Up in the device frame for a device tilted by `pitch` radians about +X from flat
    /// (positive lifts the top edge).
    static func up(pitch: Double) -> SIMD3<Double> { SIMD3(0, Double.sin(pitch), Double.cos(pitch)) }

    var up = SIMD3<Double>(0, 0, 1)
    /// Degrees of turn; positive = to the right (clockwise seen from above).
    var turnDegrees = 360.0
    var turnSeconds = 4.0
    var stillBefore = 2.0
    var stillAfter = 1.0
    var rate = 100.0
    var bias = SIMD3<Double>.zero
    /// Gyroscope white noise, rad/s standard deviation.
    var noise = 0.0
    /// Relative timing jitter of the sample spacing (0: regular).
    var timingJitter = 0.0
    var seed: UInt64 = 1

    /// The samples; the turn occupies [stillBefore, stillBefore + turnSeconds].
    func samples() -> [MotionSample] {
        var random = SplitMix(seed: seed)
        let total = stillBefore + turnSeconds + stillAfter
        let turnRate = -turnDegrees * Units.radiansPerDegree / turnSeconds   // about up: negative = right
        // Sample times: regular, or jittered spacing; the turn's start and end are sample times
        // so that the integrated rate is exactly the turn.
        var times: [Double] = []
        for (from, to) in [(0.0, stillBefore), (stillBefore, stillBefore + turnSeconds), (stillBefore + turnSeconds, total)] {
            var t = from
            while t < to - 1e-9 {
                times.append(t)
                let step = (1 + timingJitter * (2 * random.uniform() - 1)) / rate
                t = min(t + step, to)
            }
        }
        times.append(total)
        var out: [MotionSample] = []
        for (i, t) in times.enumerated() {
            // Sample i's rate holds over (t_{i-1}, t_i]: turning when that interval lies in the turn.
            let previous = i > 0 ? times[i - 1] : t
            let turning = previous >= stillBefore - 1e-12 && t <= stillBefore + turnSeconds + 1e-12 && i > 0
            let omega = (turning ? turnRate : 0) * up
            let n = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) * noise
            out.append(MotionSample(time: t, acceleration: up, rotationRate: omega + bias + n))
        }
        return out
    }
}
