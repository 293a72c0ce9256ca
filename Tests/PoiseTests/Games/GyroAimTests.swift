import Poise
import Testing

@Suite struct GyroAimTests {
    static func settings(_ space: GyroSpace, sensitivity: GyroSensitivity = GyroSensitivity(), smoothing: Double = 5) -> GyroAimSettings {
        var s = GyroAimSettings()
        s.space = space
        s.sensitivity = sensitivity
        s.smoothingThreshold = smoothing
        return s
    }

    static func totalYaw(_ samples: [MotionSample], _ settings: GyroAimSettings, from start: Double = -.infinity) throws -> (yaw: Double, pitch: Double) {
        var aim = try GyroAim(settings: settings)
        var yaw = 0.0, pitch = 0.0
        for s in samples {
            let o = aim.process(s)
            if s.time >= start { yaw += o.yaw; pitch += o.pitch }
        }
        return (yaw, pitch)
    }

    /// 360° about the vertical with a gyroscope bias and noise, calibrated away during the still
    /// start: the camera turns 360° within 0.5 %, in player and world space, flat or tilted 45°.
    @Test(arguments: [GyroSpace.player, .world], [0.0, 45.0])
    func fullTurnMapsToTheConfiguredTurnWithBiasCalibratedAway(space: GyroSpace, tilt: Double) throws {
        var turn = SimulatedTurn()
        turn.up = SimulatedTurn.up(pitch: tilt * Units.radiansPerDegree)
        turn.bias = SIMD3(0.8, -1.1, 0.6) * Units.radiansPerDegree
        turn.noise = 0.1 * Units.radiansPerDegree
        let samples = turn.samples()
        // From 1.5 s (after the 1 s still time), everything the camera does counts.
        let calibrated = try Self.totalYaw(samples, Self.settings(space), from: 1.5)
        #expect(abs(calibrated.yaw - 360) <= 0.005 * 360, "yaw \(calibrated.yaw)")
        #expect(abs(calibrated.pitch) <= 0.005 * 360, "pitch \(calibrated.pitch)")
        // Without calibration the bias alone puts it outside the tolerance.
        var uncalibrated = Self.settings(space)
        uncalibrated.calibration.continuous = false
        let raw = try Self.totalYaw(samples, uncalibrated, from: 1.5)
        #expect(abs(raw.yaw - 360) > 0.005 * 360, "uncalibrated yaw \(raw.yaw)")
    }

    /// Real-world calibration: 360° of device turn → the configured camera turn, also under
    /// irregular timing (each sample's rate × its own dt).
    @Test(arguments: [180.0, 360.0, 720.0])
    func realWorldCalibrationUnderIrregularTiming(camera: Double) throws {
        var turn = SimulatedTurn()
        turn.timingJitter = 0.6
        let result = try Self.totalYaw(turn.samples(), Self.settings(.player, sensitivity: .realWorld(cameraDegreesPer360: camera)))
        #expect(abs(result.yaw - camera) <= 1e-9 * camera, "yaw \(result.yaw)")
    }

    /// Player space: the same yaw whether the controller is flat or tilted 45° (exact without
    /// noise); local space sees only cos 45° of the tilted turn.
    @Test func playerSpaceIsIndependentOfTheTilt() throws {
        var flat = SimulatedTurn(); flat.turnDegrees = 90
        var tilted = flat; tilted.up = SimulatedTurn.up(pitch: Double.pi / 4)
        let a = try Self.totalYaw(flat.samples(), Self.settings(.player)).yaw
        let b = try Self.totalYaw(tilted.samples(), Self.settings(.player)).yaw
        #expect(abs(a - 90) < 1e-9 && abs(b - 90) < 1e-9, "\(a) \(b)")
        let local = try Self.totalYaw(tilted.samples(), Self.settings(.local)).yaw
        #expect(abs(local - 90 * Double.cos(Double.pi / 4)) < 1e-9, "local \(local)")
    }

    /// Signs: turning right (clockwise from above) is positive yaw, lifting the top edge is
    /// positive pitch, in every space.
    @Test(arguments: GyroSpace.allCases)
    func signs(space: GyroSpace) throws {
        var aim = try GyroAim(settings: Self.settings(space, smoothing: 0))
        let up = SIMD3<Double>(0, 0, 1)
        aim.process(time: 0, rotationRate: .zero, acceleration: up)
        let right = aim.process(time: 0.01, rotationRate: SIMD3(0, 0, -1), acceleration: up)
        #expect(right.yaw > 0 && right.pitch == 0)
        let lookUp = aim.process(time: 0.02, rotationRate: SIMD3(1, 0, 0), acceleration: up)
        #expect(lookUp.pitch > 0 && abs(lookUp.yaw) < 1e-12)
    }

    /// The acceleration curve: low sensitivity at slow turns, high at fast ones.
    @Test func accelerationCurve() throws {
        let curve = GyroSensitivity(low: 1, high: 3, lowSpeed: 20, highSpeed: 120)
        #expect(curve.value(speed: 10) == 1 && curve.value(speed: 70) == 2 && curve.value(speed: 500) == 3)
        var slow = SimulatedTurn(); slow.turnDegrees = 45; slow.turnSeconds = 4.5     // 10 °/s
        var fast = SimulatedTurn(); fast.turnDegrees = 90; fast.turnSeconds = 0.5     // 180 °/s
        let settings = Self.settings(.player, sensitivity: curve, smoothing: 0)
        #expect(abs(try Self.totalYaw(slow.samples(), settings).yaw - 45) < 1e-9)
        #expect(abs(try Self.totalYaw(fast.samples(), settings).yaw - 270) < 1e-9)
        #expect(GyroSensitivity(low: 1, high: 2, lowSpeed: 5, highSpeed: 5).problem != nil)
    }

    /// Bad input: NaN, backwards and repeated time, gaps, saturation: no jumps, flagged, nothing
    /// non-finite reaches the camera, and the state is not poisoned.
    @Test func badInputNeverJumpsTheCamera() throws {
        var settings = Self.settings(.player, smoothing: 0)
        settings.maximumSpeed = 1000
        var aim = try GyroAim(settings: settings)
        let up = SIMD3<Double>(0, 0, 1)
        let turn = SIMD3<Double>(0, 0, -1)   // 57.3 °/s right
        aim.process(time: 0, rotationRate: turn, acceleration: up)
        let nan = aim.process(time: 0.01, rotationRate: SIMD3(.nan, 0, 0), acceleration: up)
        #expect(nan.flags.contains(.invalid) && nan.yaw == 0 && nan.pitch == 0)
        let nanTime = aim.process(time: .nan, rotationRate: turn, acceleration: up)
        #expect(nanTime.flags.contains(.invalid) && nanTime.yaw == 0)
        let normal = aim.process(time: 0.02, rotationRate: turn, acceleration: up)
        #expect(abs(normal.yaw - 0.02 / Units.radiansPerDegree) < 1e-9)   // from the last good time
        let backwards = aim.process(time: 0.015, rotationRate: turn, acceleration: up)
        #expect(backwards.flags.contains(.timeNotIncreasing) && backwards.yaw == 0)
        let repeated = aim.process(time: 0.02, rotationRate: turn, acceleration: up)
        #expect(repeated.flags.contains(.timeNotIncreasing) && repeated.yaw == 0)
        let gap = aim.process(time: 100, rotationRate: turn, acceleration: up)
        #expect(gap.flags.contains(.gap))
        #expect(abs(gap.yaw - settings.maximumTimeStep / Units.radiansPerDegree) < 1e-9)
        let saturated = aim.process(time: 100.01, rotationRate: SIMD3(0, 0, -40), acceleration: up)
        #expect(saturated.flags.contains(.saturated) && saturated.flags.contains(.limited))
        #expect(abs(saturated.yaw - 1000 * 0.01) < 1e-9)
        let infinite = aim.process(time: 100.02, rotationRate: SIMD3(0, 0, -.infinity), acceleration: up)
        #expect(infinite.flags.contains(.invalid) && infinite.yaw == 0)
        let frame = aim.takeFrame()
        #expect(frame.yaw.isFinite && frame.pitch.isFinite && frame.flags.contains(.gap))
        let after = aim.process(time: 100.03, rotationRate: turn, acceleration: up)
        #expect(after.yaw.isFinite && after.yaw > 0 && after.flags.subtracting(.calibrating).isEmpty)
    }

    /// Without gravity, player space falls back to local and says so.
    @Test func noAccelerometerFallsBackToLocal() throws {
        var aim = try GyroAim(settings: Self.settings(.player, smoothing: 0))
        aim.process(time: 0, rotationRate: .zero, acceleration: nil)
        let o = aim.process(time: 0.01, rotationRate: SIMD3(0, 0, -1), acceleration: nil)
        #expect(o.flags.contains(.noGravity) && o.yaw > 0)
    }

    /// Frames: the turns since the previous frame; whole mouse counts carry their remainder, so
    /// the counts add up to the total turn.
    @Test func takeFrameSumsAndCarriesCounts() throws {
        var settings = Self.settings(.local, smoothing: 0)
        settings.countsPerDegree = 10
        var aim = try GyroAim(settings: settings)
        var total = 0.0, counts = 0
        aim.process(time: 0, rotationRate: .zero, acceleration: nil)
        for i in 1...300 {
            total += aim.process(time: Double(i) / 200, rotationRate: SIMD3(0, 0, -0.0123), acceleration: nil).yaw
            if i % 3 == 0 { counts += aim.takeFrame().counts.x }
        }
        #expect(abs(Double(counts) - 10 * total) < 1)
        #expect(aim.takeFrame().sampleCount == 0)
    }

    /// reset() equals a fresh instance.
    @Test func resetEqualsFresh() throws {
        let samples = SimulatedTurn(bias: SIMD3(0.01, 0, 0), noise: 0.001).samples()
        var used = try GyroAim(settings: Self.settings(.player))
        for s in samples { used.process(s) }
        used.reset()
        var fresh = try GyroAim(settings: Self.settings(.player))
        for s in samples.prefix(400) { #expect(used.process(s) == fresh.process(s)) }
    }
}
