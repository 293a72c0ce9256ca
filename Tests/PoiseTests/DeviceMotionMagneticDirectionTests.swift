import Foundation
import Testing
@testable import Poise

/// The field-direction consistency test (`DeviceMotionConfiguration.magneticDirectionThreshold`):
/// a simulated device turning about changing axes passes, every 20 s, through a field bent by
/// 20° about the vertical for 3 s (its norm and dip unchanged, so the disturbance tests do not
/// see it).
@Suite struct DeviceMotionMagneticDirectionTests {
    /// Largest heading error (°) from 30 to 120 s of a 120-s run at 100 Hz, and the heading error
    /// at its end, with the given threshold (°, 0: off); bends from 40, 60, 80, 100 s.
    static func run(threshold: Double, bend: Double = 20) -> (worst: Double, final: Double) {
        var configuration = DeviceMotionConfiguration(sampleRate: 100)
        configuration.magneticDirectionThreshold = threshold
        // The simulated gyroscope has no delay: the heading at the samples' times.
        configuration.outputPrediction = 0
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var truth = Quaternion<Double>.identity
        let bent = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: bend * .pi / 180).act(DeviceMotionEstimatorTests.field)
        var worst = 0.0, error = 0.0
        for i in 0..<12_000 {
            let t = Double(i) / 100
            let w = SIMD3(0.9 * sin(0.7 * t), 1.0 * sin(0.5 * t + 1), 1.1 * cos(0.3 * t))
            truth = truth * Quaternion(axis: w / (w * w).sum().squareRoot(), angle: (w * w).sum().squareRoot() / 100)
            let inBend = t >= 40 && (t - 40).truncatingRemainder(dividingBy: 20) < 3
            let s = DeviceMotionEstimatorTests.sample(t, truth, gyro: w, field: inBend ? bent : DeviceMotionEstimatorTests.field)
            let m = estimator.process(s)
            let y = truth.act(SIMD3(0, 1, 0))
            error = abs(m.heading! - atan2(y.x, y.y) * 180 / .pi).truncatingRemainder(dividingBy: 360)
            if error > 180 { error = 360 - error }
            if t >= 30 { worst = max(worst, error) }
        }
        return (worst, error)
    }

    @Test func aBentFieldPullsTheHeadingLess() {
        let on = Self.run(threshold: 4), off = Self.run(threshold: 0)
        // Without the test each 3-s bend pulls the heading by 1 − (1 − k)^30 ≈ 28 % of 20°; with
        // it the gain is a quarter while the disagreement is more than 4° from its 2-s low-pass.
        #expect(off.worst > 4, "without the test: \(off.worst)°")
        #expect(on.worst < 0.4 * off.worst, "heading error up to \(on.worst)° with the test, \(off.worst)° without")
        // In a steady field the heading still converges (the test passes once the low-pass has
        // caught up): both end near the truth, 17 s after the last bend.
        #expect(on.final < 0.5 && off.final < 1, "final heading error \(on.final)° with the test, \(off.final)° without")
    }

    @Test func aSteadyFieldIsNotAffected() {
        // No bend: the disagreement never leaves the threshold after the initial convergence, so
        // the estimate is the same as without the test.
        let on = Self.run(threshold: 4, bend: 0), off = Self.run(threshold: 0, bend: 0)
        #expect(on.worst == off.worst && on.final == off.final, "\(on) vs \(off)")
    }
}
