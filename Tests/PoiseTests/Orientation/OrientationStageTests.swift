import Testing
@testable import Poise

@Suite struct OrientationStageTests {
    static let context = StageContext(sampleRate: 100, hasMagnetometer: true)
    static let samples = RotationSimulation.samples(start: Quaternion(axis: SIMD3(1, 0, 0), angle: 0.3), count: 150)

    func pipeline(_ spec: String) throws -> Pipeline { try StageCatalog.standard.pipeline(spec, context: Self.context) }

    @Test func remapStageEqualsFrameRemapOnEveryField() throws {
        var p = try pipeline("remap:landscapeLeft")
        #expect(p.description == "remap:landscapeLeft")
        let remap = FrameRemap<Double>(orientation: .landscapeLeft)
        for s in Self.samples.prefix(20) {
            var record = ProcessedSample(s)
            record.gravity = s.acceleration
            record.attitude = s.truth
            p.process(&record)
            let expected = remap.sample(s)
            #expect(record.acceleration == expected.acceleration && record.rotationRate == expected.rotationRate)
            #expect(record.magneticField == expected.magneticField && record.gravity == expected.acceleration)
            #expect(record.attitude == expected.truth)
            #expect(record.input == s)
        }
        var byAxes = try pipeline("remap:+Y-X+Z")
        var byOrientation = try pipeline("remap:landscapeLeft")
        #expect(byAxes.process(Self.samples[7]) == byOrientation.process(Self.samples[7]))
        var mount = try pipeline("remap:yaw=90")
        let v = mount.process(MotionSample(time: 0, acceleration: SIMD3(1, 2, 3))).acceleration
        #expect(maxAbs(v - SIMD3(-2, 1, 3)) < 1e-15)
    }

    @Test func remapStageErrorsNameTheProblem() {
        func message(_ spec: String) -> String {
            do { _ = try pipeline(spec); return "" } catch { return "\(error)" }
        }
        #expect(message("remap:+Y+X+Z").contains("reflection"))
        #expect(message("remap:sideways").contains("landscapeLeft"))
        #expect(message("remap").contains("needs"))
        #expect(message("remap:portrait,+Y-X+Z").contains("one orientation"))
        #expect(message("remap:spin=3").contains("spin"))
    }

    @Test func tiltStageEqualsTheControllerAndComposesWithRemap() throws {
        var p = try pipeline("remap:landscapeRight | tilt:deadzone=2,saturation=20,curve=quadratic,tau=0.05")
        var controller = try TiltController(settings: TiltSettings(gravityTimeConstant: 0.05,
                                                                   stick: StickResponse(deadZone: 2, saturation: 20, curve: .quadratic)))
        let remap = FrameRemap<Double>(orientation: .landscapeRight)
        let records = p.process(Self.samples)
        let expected = controller.process(Self.samples.map { remap.sample($0) })
        #expect(records.map(\.axes) == expected.map(\.stick))
        #expect(records.contains { $0.axes != .zero })
        // reset() equals a fresh pipeline.
        for index in p.stages.indices { p.stages[index].reset() }
        #expect(p.process(Self.samples) == records)
    }

    @Test func tiltStagePrefersAttitudeThenGravity() throws {
        var stage = try TiltStage(settings: TiltSettings(stick: StickResponse(deadZone: 0, saturation: 90)))
        var record = ProcessedSample(MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)))
        record.attitude = .identity
        stage.process(&record)
        var tilted = ProcessedSample(MotionSample(time: 0.01, acceleration: SIMD3(0, 0, 1)))  // accelerometer says flat …
        tilted.attitude = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.5)                          // … the attitude says rolled
        stage.process(&tilted)
        #expect(abs(tilted.axes!.x - 0.5 / Units.radiansPerDegree / 90) < 1e-12)
        var byGravity = ProcessedSample(MotionSample(time: 0.02, acceleration: SIMD3(0, 0, 1)))
        byGravity.gravity = Quaternion<Double>(axis: SIMD3(0, 1, 0), angle: 0.25).conjugate.act(SIMD3(0, 0, 1))
        stage.process(&byGravity)
        #expect(abs(byGravity.axes!.x - 0.25 / Units.radiansPerDegree / 90) < 1e-12)
    }

    @Test func tiltStageRejectsBadSettings() {
        #expect(throws: SpecError.self) { try pipeline("tilt:deadzone=40") }
        #expect(throws: SpecError.self) { try pipeline("tilt:curve=cubic") }
        #expect(throws: SpecError.self) { try pipeline("tilt:static") }
    }
}
