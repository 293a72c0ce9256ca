import Foundation
import Testing
@testable import Poise

@Suite struct GravitySeparatorTests {
    @Test func separatesFastUserAccelerationFromGravityAndAlwaysSumsToTheInput() throws {
        var separator = try GravitySeparator(cutoffFrequency: 0.5, sampleRate: 100)
        let up = SIMD3<Double>(0, 0.6, 0.8)   // tilted device
        var worst = 0.0, worstSum = 0.0
        for i in 0..<2000 {
            let t = Double(i) / 100
            let user = SIMD3<Double>(0.3 * sin(2 * .pi * 5 * t), 0, 0)   // 5 Hz shake, 0.3 g
            let s = separator.process(time: t, acceleration: up + user)
            worstSum = max(worstSum, maxAbs(s.gravity + s.userAcceleration - (up + user)))
            if t > 10 { worst = max(worst, maxAbs(s.userAcceleration - user)) }
        }
        #expect(worstSum < 1e-15)
        // One-pole at 0.5 Hz passes 1/√(1 + 10²) ≈ 10 % of the 5 Hz shake into gravity.
        #expect(worst < 0.035 && worst > 0.02, "residual \(worst) g")
    }

    @Test func tiltStepIsFollowedWithTheLowPassDelay() throws {
        var separator = try GravitySeparator(cutoffFrequency: 0.5, sampleRate: 100)
        var reached: Int?
        for i in 0..<300 {
            let a: SIMD3<Double> = i < 100 ? SIMD3(0, 0, 1) : SIMD3(0, 1, 0)
            let g = separator.process(time: Double(i) / 100, acceleration: a).gravity
            if i >= 100 && reached == nil && g.y > 0.9 * (g.y * g.y + g.z * g.z).squareRoot() { reached = i - 100 }
        }
        // The one-pole output is (0, p, 1 − p) with p = 1 − (1 − α)^k after k samples,
        // α = dt/(dt + RC), RC = 1/(2π·0.5 Hz). Its direction passes the test when
        // p/(1 − p) > 0.9/√(1 − 0.81), i.e. at the first k above ln(c)/ln(1 − α).
        let alpha = 0.01 / (0.01 + 1 / (2 * Double.pi * 0.5))
        let ratio = 0.9 / (1 - 0.81).squareRoot()
        let k = Int((log(1 / (1 + ratio)) / log(1 - alpha)).rounded(.up))
        #expect(reached == k - 1, "\(String(describing: reached)) samples, expected \(k - 1)")
    }

    @Test func nonFiniteInputKeepsTheLastGravity() throws {
        var separator = try GravitySeparator(cutoffFrequency: 1, sampleRate: 100)
        _ = separator.process(time: 0, acceleration: SIMD3(0, 0, 1))
        let s = separator.process(time: 0.01, acceleration: SIMD3(.nan, 0, 1))
        #expect(s.gravity == SIMD3(0, 0, 1) && s.userAcceleration == .zero)
    }
}
