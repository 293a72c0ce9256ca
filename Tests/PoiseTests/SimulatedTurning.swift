import Foundation
@testable import Poise

/// 120 s at 100 Hz of a device turning with varying rates (up to ≈ 100 °/s), pausing 5 s every
/// 30 s, with a gyroscope bias (0.01, −0.006, 0.004) rad/s, noise, linear acceleration and a
/// magnetometer (plus `magnet`, µT in ENU, while `magnetTimes` contains t); every sample has its
/// true attitude and movement = true.
func simulatedTurning(seed: UInt64, magnet: SIMD3<Double> = .zero, magnetTimes: ClosedRange<Double>? = nil) -> [MotionSample] {
    var g = SplitMix(seed: seed)
    let bias = SIMD3<Double>(0.01, -0.006, 0.004)
    var truth = Quaternion<Double>.identity
    var samples: [MotionSample] = []
    for i in 0..<12_000 {
        let t = Double(i) / 100
        let still = t.truncatingRemainder(dividingBy: 30) < 5
        let w = still ? SIMD3<Double>.zero : SIMD3(1.2 * sin(0.3 * t), 0.8 * cos(0.21 * t), 1.0 * sin(0.17 * t + 1))
        truth = (truth * Quaternion(rotationVector: w / 100)).normalized
        let inverse = truth.conjugate
        let linear = still ? SIMD3<Double>.zero : SIMD3(0.2 * sin(2.1 * t), 0.1 * cos(1.3 * t), 0.15 * sin(0.7 * t))
        let field = SIMD3<Double>(0, 20, -45) + (magnetTimes?.contains(t) == true ? magnet : .zero)
        samples.append(MotionSample(time: t, acceleration: inverse.act(SIMD3(0, 0, 1) + linear) + g.vector(scale: 0.005),
                                    rotationRate: w + bias + g.vector(scale: 0.002),
                                    magneticField: inverse.act(field) + g.vector(scale: 0.3),
                                    truth: truth, movement: true))
    }
    return samples
}
