import Poise
import Testing

@Suite struct GyroCalibrationTests {
    static let r = Units.radiansPerDegree
    static let up = SIMD3<Double>(0, 0, 1)

    /// Feeds `seconds` at 100 Hz of a constant rate (rad/s) plus noise from `start`.
    static func feed(_ c: inout GyroCalibration, from start: Double, seconds: Double, rate: SIMD3<Double>,
                     noise: Double = 0.05 * r, seed: UInt64 = 1) {
        var random = SplitMix(seed: seed)
        let n = Int(seconds * 100)
        for i in 0..<n {
            let e = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) * noise
            _ = c.process(time: start + Double(i) / 100, rotationRate: rate + e, acceleration: up)
        }
    }

    @Test func stillPeriodCalibrates() throws {
        var c = try GyroCalibration()
        let bias = SIMD3(0.5, -1.2, 0.7) * Self.r
        Self.feed(&c, from: 0, seconds: 0.9, rate: bias)
        #expect(!c.state.calibrated)           // not yet the still time
        Self.feed(&c, from: 0.9, seconds: 1.5, rate: bias, seed: 2)
        #expect(c.state.calibrated && (c.bias - bias).lengthSquared.squareRoot() < 0.02 * Self.r)
        #expect(c.acceptedPeriods == 2)   // the blocks [0, 1] and [1.01, 2.01] s
    }

    /// A slow deliberate turn at a steady rate about the vertical (both sensors steady) is not
    /// calibrated away once a bias is known, nor when it exceeds the largest bias.
    @Test func slowDeliberateTurnIsNotCalibratedAway() throws {
        var c = try GyroCalibration()
        let bias = SIMD3(0.3, 0.2, -0.4) * Self.r
        Self.feed(&c, from: 0, seconds: 2, rate: bias)
        Self.feed(&c, from: 2, seconds: 5, rate: bias + SIMD3(0, 0, -1.5) * Self.r, seed: 3)   // 1.5 °/s right
        // (The block that ends just after the turn starts holds two turning samples: 0.03 °/s.)
        #expect((c.bias - bias).lengthSquared.squareRoot() < 0.05 * Self.r && c.rejectedPeriods >= 4)
        var fresh = try GyroCalibration()
        Self.feed(&fresh, from: 0, seconds: 5, rate: SIMD3(0, 0, -4) * Self.r)                 // 4 °/s > 3 °/s
        #expect(!fresh.state.calibrated && fresh.rejectedPeriods >= 4)
        // Accelerometer moving (a tilting turn): never a still period.
        var tilting = try GyroCalibration()
        for i in 0..<500 {
            let t = Double(i) / 100, angle = 0.5 * Self.r * t * 20
            _ = tilting.process(time: t, rotationRate: SIMD3(0.5 * Self.r, 0, 0), acceleration: SIMD3(0, Double.sin(angle), Double.cos(angle)))
        }
        #expect(!tilting.state.calibrated && tilting.rejectedPeriods == 0)
    }

    /// The bias drifts: a change within the grown uncertainty is followed.
    @Test func driftIsFollowedAfterTheUncertaintyGrows() throws {
        var c = try GyroCalibration()
        let bias = SIMD3(0.3, 0.2, -0.4) * Self.r
        Self.feed(&c, from: 0, seconds: 2, rate: bias)
        let drifted = bias + SIMD3(0.5, 0, 0) * Self.r
        Self.feed(&c, from: 60, seconds: 2, rate: drifted, seed: 5)                            // a minute later
        #expect((c.bias - drifted).lengthSquared.squareRoot() < 0.02 * Self.r)
    }

    @Test func manualCalibrationSaveRestoreAndReset() throws {
        var c = try GyroCalibration()
        c.beginManualCalibration()
        Self.feed(&c, from: 0, seconds: 0.5, rate: SIMD3(1, 2, 3) * Self.r)   // shorter than the still time
        let set = c.endManualCalibration(time: 0.5)
        #expect(set)
        #expect((c.bias - SIMD3(1, 2, 3) * Self.r).lengthSquared.squareRoot() < 0.02 * Self.r)
        let saved = c.state
        var other = try GyroCalibration()
        other.restore(saved)
        #expect(other.bias == c.bias && other.uncertainty(at: 10) == c.uncertainty(at: 10))
        other.reset()
        #expect(!other.state.calibrated && other.bias == .zero && other.uncertainty(at: 0) == .infinity)
        #expect(other.process(time: 0, rotationRate: SIMD3(.nan, 0, 0), acceleration: nil) == nil)
        var bad = GyroCalibrationSettings(); bad.stillTime = 0
        #expect(throws: OrientationSettingsError.self) { _ = try GyroCalibration(settings: bad) }
    }
}
