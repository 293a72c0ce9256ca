import Testing
@testable import Poise

@Suite struct StickResponseTests {
    @Test func deadZoneSaturationAndCurves() {
        let linear = StickResponse(deadZone: 5, saturation: 25, curve: .linear)
        #expect(linear.value(degrees: 0) == 0)
        #expect(linear.value(degrees: 5) == 0)
        #expect(linear.value(degrees: -4.9) == 0)
        #expect(linear.value(degrees: 15) == 0.5)    // halfway between 5 and 25
        #expect(linear.value(degrees: -15) == -0.5)
        #expect(linear.value(degrees: 10) == 0.25)
        #expect(linear.value(degrees: 25) == 1)
        #expect(linear.value(degrees: -170) == -1)
        #expect(linear.value(degrees: .nan) == 0)
        #expect(StickResponse(deadZone: 5, saturation: 25, curve: .quadratic).value(degrees: 15) == 0.25)
        #expect(StickResponse(deadZone: 5, saturation: 25, curve: .exponent(3)).value(degrees: -15) == -0.125)
        #expect(abs(StickResponse(deadZone: 5, saturation: 25, curve: .exponent(0.5)).value(degrees: 10) - 0.5) < 1e-15)
    }

    @Test func outputIsMonotonicContinuousAndBounded() {
        for curve in [ResponseCurve.linear, .quadratic, .exponent(1.7), .exponent(0.4)] {
            let r = StickResponse(deadZone: 2, saturation: 35, curve: curve)
            var previous = r.value(degrees: -90)
            for step in -900...900 {
                let v = r.value(degrees: Double(step) / 10)
                #expect(v >= previous && abs(v) <= 1)
                #expect(v - previous < 0.1)  // steepest: t^0.4 over the first 0.1° past the dead zone
                previous = v
            }
            #expect(abs(r.value(degrees: 2 + 1e-9)) < 1e-3)  // continuous at the dead-zone edge
        }
    }

    @Test func invalidSettingsAreNamed() {
        #expect(StickResponse(deadZone: 10, saturation: 10).problem?.contains("saturation") == true)
        #expect(StickResponse(curve: .exponent(0)).problem?.contains("exponent") == true)
        #expect(StickResponse(deadZone: -1).problem?.contains("dead zone") == true)
        #expect(StickResponse().problem == nil)
    }
}

@Suite struct TiltTests {
    @Test func tiltAnglesFollowTheCoreMotionConvention() {
        for degrees in [-80.0, -30, 0, 12, 60] {
            let a = degrees * Units.radiansPerDegree
            let aboutX = TiltAngles(Quaternion(axis: SIMD3(1, 0, 0), angle: a))
            let aboutY = TiltAngles(Quaternion(axis: SIMD3(0, 1, 0), angle: a))
            #expect(abs(aboutX.pitch - a) < 1e-12 && abs(aboutX.roll) < 1e-12)
            #expect(abs(aboutY.roll - a) < 1e-12 && abs(aboutY.pitch) < 1e-12)
        }
        // Positive roll dips the right edge (+X) toward −Z.
        let roll = Quaternion<Double>(axis: SIMD3(0, 1, 0), angle: 0.3)
        #expect(roll.act(SIMD3(1, 0, 0)).z < 0 && TiltAngles(roll).roll > 0)
    }

    @Test func tiltFromGravityIsTheSmallestRotationToEarthUp() {
        for g in orientationProbeVectors + [SIMD3(0, 0, -1), SIMD3(0, 0, 2), SIMD3(1e-9, 0, -1)] {
            let q = Quaternion<Double>.tilt(fromGravity: g)
            #expect(abs(q.length - 1) < 1e-12)
            // (Near up = −z the result is the 180° turn about x: error up to the input's offset.)
            #expect(maxAbs(q.act(g / g.lengthSquared.squareRoot()) - SIMD3(0, 0, 1)) < 2e-9)
            #expect(abs(q.z) < 1e-15)  // no turn about earth up: heading-free
        }
        // A pure tilt about x by θ: gravity reads (0, sin θ, cos θ) and the tilt attitude is θ about x.
        let q = Quaternion<Double>.tilt(fromGravity: SIMD3(0, Double.sin(0.4), Double.cos(0.4)))
        #expect(abs(TiltAngles(q).pitch - 0.4) < 1e-12)
    }

    func sample(_ q: Quaternion<Double>, time: Double) -> MotionSample {
        MotionSample(time: time, acceleration: q.conjugate.act(SIMD3(0, 0, 1)))
    }

    /// Without heading, gravity gives the tilt only up to a turn about the vertical; the two
    /// paths agree for tilts about one device axis from a flat home.
    @Test func gravityPathAgreesWithTheAttitudePathForPureTilts() throws {
        let settings = TiltSettings(gravityTimeConstant: 0, stick: StickResponse(deadZone: 2, saturation: 40, curve: .quadratic))
        var fromGravity = try TiltController(settings: settings)
        var fromAttitude = try TiltController(settings: settings)
        let home = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: 0.7)  // flat, any heading
        for k in 0..<50 {
            let t = Double(k) * 0.02
            let q = k == 0 ? home : home * Quaternion(axis: SIMD3(k % 2 == 0 ? 1 : 0, k % 2 == 0 ? 0 : 1, 0), angle: Double(k) * 0.015 - 0.3)
            let a = fromGravity.process(sample(q, time: t))
            let b = fromAttitude.process(time: t, attitude: q, rotationRate: nil)
            #expect(abs(a.stick.x - b.stick.x) < 1e-9 && abs(a.stick.y - b.stick.y) < 1e-9, "k = \(k)")
            #expect(abs(a.stick.x) <= 1 && abs(a.stick.y) <= 1)
        }
    }

    @Test func stickDirectionsTiltRightAndTopAway() throws {
        var c = try TiltController(settings: TiltSettings(gravityTimeConstant: 0))
        _ = c.process(sample(.identity, time: 0))
        let right = c.process(sample(Quaternion(axis: SIMD3(0, 1, 0), angle: 0.2), time: 0.01))
        #expect(right.stick.x > 0 && right.stick.y == 0)
        let away = c.process(sample(Quaternion(axis: SIMD3(1, 0, 0), angle: -0.2), time: 0.02))
        #expect(away.stick.y > 0 && away.stick.x == 0)
        // 0.2 rad = 11.46°: linear 3…30° gives (11.46 − 3) / 27.
        #expect(abs(away.stick.y - (0.2 / Units.radiansPerDegree - 3) / 27) < 1e-12)
    }

    @Test func lowPassUsesTheRealTimeStep() throws {
        var c = try TiltController(settings: TiltSettings(gravityTimeConstant: 0.1))
        _ = c.process(MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)))
        _ = c.process(MotionSample(time: 0.1, acceleration: SIMD3(0, 1, 0)))
        let e = Double.exp(-1)
        #expect(maxAbs(c.gravity! - SIMD3(0, 1 - e, e)) < 1e-15)
        _ = c.process(MotionSample(time: 0.1, acceleration: SIMD3(5, 5, 5)))  // repeated time: no update
        #expect(maxAbs(c.gravity! - SIMD3(0, 1 - e, e)) < 1e-15)
    }

    @Test func framesSmoothTheAnglesThenApplyTheResponse() throws {
        let samples = RotationSimulation.samples(start: .identity, count: 300)
        let settings = TiltSettings(home: HomeCalibrationSettings(dynamicRecalibration: true, recalibrationAngle: 10, stillnessRate: 1000, stillnessAngle: 180, holdTime: 0.5),
                                    stick: StickResponse(deadZone: 4, saturation: 15, curve: .quadratic))
        var controller = try TiltController(settings: settings)
        let outputs = controller.process(samples)
        let frameSettings = FrameSamplerSettings(frameRate: 30, smoothingTimeConstant: 0.08)
        let frames = try controller.frames(outputs, settings: frameSettings)
        // Reference: the generic sampler on (roll, pitch), then the response.
        var sampler = try FrameSampler<SIMD2<Double>>(settings: frameSettings)
        var reference: [Frame<SIMD2<Double>>] = []
        for o in outputs { sampler.process(time: o.time, value: SIMD2(o.angles.roll, o.angles.pitch)) { reference.append($0) } }
        sampler.finish { reference.append($0) }
        #expect(frames.count == reference.count)
        let d = 1 / Units.radiansPerDegree
        for (f, r) in zip(frames, reference) {
            #expect(f.time == r.time && f.angles.roll == r.value.x && f.angles.pitch == r.value.y)
            #expect(f.stick == SIMD2(settings.stick.value(degrees: r.value.x * d), settings.stick.value(degrees: -r.value.y * d)))
        }
        #expect(frames.contains { $0.stick.x == 0 } && frames.contains { abs($0.stick.x) == 1 })
        // Each home change appears once, in the frame whose window holds its sample.
        let events = outputs.filter { $0.event != nil }
        let frameEvents = frames.filter { $0.event != nil }
        #expect(events.count >= 2 && frameEvents.count == events.count)
        for (e, f) in zip(events, frameEvents) {
            #expect(e.event == f.event && e.time <= f.time && e.time > f.time - 1.0 / 30 || f.index == 0)
        }
    }

    @Test func nonFiniteInputsNeitherPoisonNorStall() throws {
        var c = try TiltController(settings: TiltSettings(gravityTimeConstant: 0.1))
        let first = c.process(MotionSample(time: 0, acceleration: SIMD3(.nan, 0, 1)))
        #expect(first.stick == .zero && first.event == nil && c.gravity == nil)
        #expect(c.process(MotionSample(time: 0.01, acceleration: SIMD3(0, 0, 1))).event == .initial)
        let bad = c.process(MotionSample(time: .infinity, acceleration: SIMD3(0, 1, 0)))
        #expect(bad.stick.x.isFinite && bad.stick.y.isFinite && c.gravity == SIMD3(0, 0, 1))
        _ = c.process(MotionSample(time: 0.02, acceleration: SIMD3(.infinity, 0, 0), rotationRate: SIMD3(.nan, 0, 0)))
        #expect(c.gravity == SIMD3(0, 0, 1) && c.rejectedSamples == 3)
        // Time keeps flowing from the last valid sample: the next step is 0.1 s, not stuck.
        _ = c.process(MotionSample(time: 0.11, acceleration: SIMD3(0, 1, 0)))
        let e = Double.exp(-1)
        #expect(maxAbs(c.gravity! - SIMD3(0, 1 - e, e)) < 1e-15)
        var home = try HomeCalibration()
        _ = home.process(attitude: .identity, rotationRate: nil, time: 0)
        let nan = home.process(attitude: Quaternion(w: .nan, x: 0, y: 0, z: 0), rotationRate: nil, time: 1)
        #expect(nan.relative == .identity && nan.event == nil)
        var sampler = try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 60))
        var frames = 0
        sampler.process(time: 0, value: 1) { _ in frames += 1 }
        sampler.process(time: .infinity, value: 1) { _ in frames += 1 }
        sampler.process(time: 0.01, value: .nan) { _ in frames += 1 }
        sampler.finish { f in frames += 1; #expect(f.value == 1) }
        #expect(frames == 1 && sampler.rejectedSamples == 2)
    }

    @Test func batchEqualsThePerSampleLoop() throws {
        let samples = RotationSimulation.samples(start: .identity, count: 200)
        let settings = TiltSettings(home: HomeCalibrationSettings(dynamicRecalibration: true, holdTime: 0.3))
        var batch = try TiltController(settings: settings)
        var loop = try TiltController(settings: settings)
        let outputs = batch.process(samples)
        #expect(outputs == samples.map { loop.process($0) })
    }
}

@Suite struct FrameSamplerTests {
    @Test func framesAreWindowMeansOnAnExactClockWithHoldAcrossGaps() throws {
        var sampler = try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 60))
        // 100 Hz from t₀ = 2, with a gap from 2.2 to 2.3; the value is the sample time.
        let all: [Double] = (0..<50).map { (k: Int) -> Double in 2 + Double(k) / 100 }
        let times: [Double] = all.filter { (t: Double) -> Bool in t < 2.2 || t >= 2.3 }
        var frames: [Frame<Double>] = []
        for t in times { sampler.process(time: t, value: t) { frames.append($0) } }
        sampler.finish { frames.append($0) }
        // Reference: brute force over window membership.
        var held = 0.0
        for f in frames {
            #expect(f.time == 2 + Double(f.index) / 60)
            let windowStart: Double = f.index == 0 ? 2 : 2 + Double(f.index - 1) / 60
            let members: [Double] = times.filter { (t: Double) -> Bool in
                f.index == 0 ? t == 2 : (t > windowStart && t <= f.time)
            }
            #expect(f.sampleCount == members.count)
            if !members.isEmpty { held = members.reduce(0, +) / Double(members.count) }
            #expect(abs(f.value - held) < 1e-12, "frame \(f.index)")
        }
        #expect(frames.map(\.index) == Array(0..<frames.count))
        #expect(frames.contains { $0.sampleCount == 0 })      // the gap held values
        #expect(frames.last!.time >= times.last!)
    }

    @Test func smoothingRunsAtFrameTimeIndependentOfTheSensorRate() throws {
        let settings = FrameSamplerSettings(frameRate: 30, smoothingTimeConstant: 0.1)
        let alpha = 1 - Double.exp(-(1.0 / 30) / 0.1)
        for sensorRate in [100.0, 285.7] {
            var sampler = try FrameSampler<SIMD2<Double>>(settings: settings)
            var frames: [Frame<SIMD2<Double>>] = []
            var k = 0
            while Double(k) / sensorRate < 1 {
                let t = Double(k) / sensorRate
                sampler.process(time: t, value: t < 1e-9 ? .zero : SIMD2(1, -1)) { frames.append($0) }
                k += 1
            }
            // Step after frame 0: y_k = 1 − (1 − α)^k for every frame whose window is all ones.
            for f in frames.dropFirst() {
                let expected = 1 - Double.pow(1 - alpha, Double(f.index))
                #expect(abs(f.value.x - expected) < 1e-12 && abs(f.value.y + expected) < 1e-12)
            }
            #expect(frames.count == 29 || frames.count == 30)
        }
    }

    @Test func badFrameRateIsRejected() {
        #expect(throws: OrientationSettingsError.self) { try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 0)) }
        #expect(throws: OrientationSettingsError.self) { try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 60, smoothingTimeConstant: .nan)) }
    }
}
