import Poise
import Testing

@Suite struct GyroAimStageTests {
    static let context = StageContext(sampleRate: 100, hasMagnetometer: false)

    /// `gyroaim:…` equals `GyroAim` with the same settings; after a fusion stage it takes the
    /// record's gravity; `reset()` equals fresh.
    @Test func stageEqualsTheAimer() throws {
        var turn = SimulatedTurn(); turn.up = SimulatedTurn.up(pitch: 0.5); turn.bias = SIMD3(0.01, 0, -0.01); turn.noise = 0.001
        let samples = turn.samples()
        var pipeline = try StageCatalog.standard.pipeline("gyroaim:space=world,camera360=720,smooth=3,tau=0.05", context: Self.context)
        var settings = GyroAimSettings()
        settings.space = .world; settings.sensitivity = GyroSensitivity(2); settings.smoothingThreshold = 3; settings.smoothingTimeConstant = 0.05
        var aim = try GyroAim(settings: settings)
        var total = 0.0
        for s in samples {
            var record = ProcessedSample(s)
            pipeline.process(&record)
            #expect(record.aim == aim.process(s))
            total += record.aim?.yaw ?? 0
        }
        #expect(abs(total - 720) < 0.005 * 720)
        pipeline.reset()
        var fresh = try StageCatalog.standard.pipeline("gyroaim:space=world,camera360=720,smooth=3,tau=0.05", context: Self.context)
        for s in samples.prefix(300) {
            var a = ProcessedSample(s), b = ProcessedSample(s)
            pipeline.process(&a); fresh.process(&b)
            #expect(a.aim == b.aim)
        }
        // With fusion first, the record's gravity is the up direction and its (bias-corrected) rate the input.
        var fused = try StageCatalog.standard.pipeline("fusion:6d | gyroaim", context: Self.context)
        var withGravity = try GyroAim()
        for s in samples.prefix(300) {
            var record = ProcessedSample(s)
            fused.process(&record)
            #expect(record.aim == withGravity.process(time: s.time, rotationRate: record.rotationRate, acceleration: record.acceleration,
                                                      gravity: record.gravity))
        }
    }

    /// Tilt controls and gyro aiming side by side in one pipeline: the tilt stage's home and dead
    /// zone work as alone, and the aim equals the aimer alone.
    @Test func tiltAndAimTogether() throws {
        var turn = SimulatedTurn(); turn.turnDegrees = 90
        var both = try StageCatalog.standard.pipeline("fusion:6d | tilt:deadzone=3 | gyroaim", context: Self.context)
        var tiltOnly = try StageCatalog.standard.pipeline("fusion:6d | tilt:deadzone=3", context: Self.context)
        var aimOnly = try StageCatalog.standard.pipeline("fusion:6d | gyroaim", context: Self.context)
        var yaw = 0.0
        for s in turn.samples() {
            var a = ProcessedSample(s), b = ProcessedSample(s), c = ProcessedSample(s)
            both.process(&a); tiltOnly.process(&b); aimOnly.process(&c)
            #expect(a.axes == b.axes && a.tilt == b.tilt && a.aim == c.aim)
            yaw += a.aim?.yaw ?? 0
        }
        #expect(abs(yaw - 90) < 0.5)
    }

    @Test func specErrors() throws {
        for spec in ["gyroaim:space=sideways", "gyroaim:hold=left", "gyroaim:smooth=-1", "gyroaim:bogus=1", "gyroaim:calibrate"] {
            #expect(throws: SpecError.self, "\(spec)") { try StageCatalog.standard.pipeline(spec, context: Self.context) }
        }
        #expect(throws: SpecError.self) {
            try StageCatalog.standard.pipeline("gyroaim", context: StageContext(sampleRate: 100, hasMagnetometer: false, hasGyroscope: false))
        }
    }
}
