import Testing
@testable import Poise

/// NaN and ±Inf fed to every public pipeline stage (filters, remap, tilt) and to pipelines of
/// them: outputs stay finite and each stage's documented policy holds.
@Suite struct StageNonFiniteTests {
    static let bad: [Double] = [.nan, -.nan, .infinity, -.infinity]

    /// A plausible stream at 100 Hz with a non-finite value in some input every few samples:
    /// acceleration, rotation rate, magnetic field or time.
    static func stream(count: Int, seed: UInt64) -> [MotionSample] {
        var g = SplitMix(seed: seed)
        return (0..<count).map { n in
            var s = MotionSample(time: Double(n) / 100,
                                 acceleration: SIMD3(0.3 * Double.sin(Double(n) / 40), n % 200 < 100 ? 0.5 : -0.2, 0.9) + g.vector(scale: 0.01),
                                 rotationRate: g.vector(scale: 0.3), magneticField: SIMD3(20, 5, -40) + g.vector())
            guard n > 0, n % 9 == 0 else { return s }
            let value = g.pick(bad), axis = Int(g.next() % 3)
            switch (n / 9) % 4 {
            case 0: s.acceleration[axis] = value
            case 1: s.rotationRate[axis] = value
            case 2: s.magneticField![axis] = value
            default: s.time = value
            }
            return s
        }
    }

    static let filterStages = FilterPropertyTests.specs

    @Test(arguments: filterStages)
    func filterStageHoldsItsOutputOverABadSampleAndStaysFinite(spec: String) throws {
        var pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 100))
        var previous: SIMD3<Double>?
        for (n, s) in Self.stream(count: 800, seed: 700).enumerated() {
            let out = pipeline.process(s)
            #expect(out.acceleration.isFinite, "\(spec) sample \(n): \(out.acceleration) for \(s)")
            // Policy (Filter): a non-finite input is rejected and the previous output repeated.
            if !s.acceleration.isFinite, let previous { #expect(out.acceleration == previous, "\(spec) sample \(n)") }
            previous = out.acceleration
        }
    }

    static let orientationPipelines = [
        "tilt", "tilt:curve=quadratic,tau=0.3,dynamic", "tilt:tau=0",
        "remap:+Y-X+Z|tilt", "remap:landscapeLeft|lowpass:cutoff=5|tilt",
        "remap:roll=10,pitch=-20,yaw=170|butter:lowpass,order=4,cutoff=8|tilt:deadzone=1,saturation=20",
        "oneeuro:mincutoff=1,beta=0.5|remap:-X-Y+Z|tilt", "adaptive|tilt:curve=2.5",
    ]

    @Test(arguments: orientationPipelines)
    func tiltAxesStayFiniteAndInRange(spec: String) throws {
        var pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 100, hasMagnetometer: true))
        for (n, s) in Self.stream(count: 800, seed: 701).enumerated() {
            let axes = try #require(pipeline.process(s).axes)
            let ok = axes.x.isFinite && axes.y.isFinite && abs(axes.x) <= 1 && abs(axes.y) <= 1
            #expect(ok, "\(spec) sample \(n): axes \(axes) for \(s)")
            if !ok { return }
        }
    }

    @Test func tiltFromAStageGravityOrAttitudeThatIsNotFiniteKeepsTheStickFinite() throws {
        // A gravity or attitude written by an earlier stage is used as is; a non-finite one must
        // not reach the stick.
        var stage = try TiltStage(settings: TiltSettings())
        var g = SplitMix(seed: 702)
        for n in 0..<300 {
            var record = ProcessedSample(MotionSample(time: Double(n) / 100, acceleration: SIMD3(0, 0.3, 0.95)))
            switch n % 3 {
            case 0: record.gravity = n % 6 == 0 ? SIMD3(g.pick(Self.bad), 0, 1) : SIMD3(0.1, 0.2, 0.97)
            case 1: record.attitude = n % 4 == 1 ? Quaternion(w: g.pick(Self.bad), x: 0, y: 0, z: 0) : Quaternion(axis: SIMD3(1, 0, 0), angle: 0.2)
            default: record.rotationRate = SIMD3(g.pick(Self.bad), 0, 0)
            }
            stage.process(&record)
            let axes = try #require(record.axes)
            #expect(axes.x.isFinite && axes.y.isFinite && abs(axes.x) <= 1 && abs(axes.y) <= 1, "sample \(n): \(axes)")
        }
    }

    @Test func remapKeepsFiniteValuesFiniteAndIsolatesEachVector() throws {
        // A remap is linear and stateless: finite vectors map to finite vectors; a non-finite
        // acceleration does not leak into the rotation rate, magnetic field or attitude.
        var g = SplitMix(seed: 703)
        for text in ["remap:+Y-X+Z", "remap:portraitUpsideDown", "remap:roll=33,pitch=-12,yaw=250"] {
            var pipeline = try StageCatalog.standard.pipeline(text, context: StageContext(sampleRate: 100, hasMagnetometer: true))
            for _ in 0..<200 {
                var s = MotionSample(time: 0, acceleration: g.vector(scale: 16), rotationRate: g.vector(scale: 30),
                                     magneticField: g.vector(scale: 1000))
                let clean = pipeline.process(s)
                #expect(clean.acceleration.isFinite && clean.rotationRate.isFinite && clean.magneticField!.isFinite)
                s.acceleration.x = g.pick(Self.bad)
                let dirty = pipeline.process(s)
                #expect(dirty.rotationRate == clean.rotationRate && dirty.magneticField == clean.magneticField)
            }
        }
    }
}
