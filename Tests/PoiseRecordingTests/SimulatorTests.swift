import Testing
import Poise
@testable import PoiseRecording

@Suite struct SimulatorTests {
    func ideal(_ scenario: Scenario, rate: Double = 100, duration: Double? = nil) -> SimulationConfiguration {
        SimulationConfiguration(scenario: scenario, rate: rate, duration: duration, seed: 7, sensors: .ideal)
    }

    /// The gyroscope is the exact derivative of the true attitude: q̇ = ½ q ⊗ (0, ω).
    @Test(arguments: Scenario.allCases)
    func gyroscopeIsTheDerivativeOfTheTruth(_ scenario: Scenario) {
        var random = SimulationRandom(seed: 3)
        let (trajectory, _) = scenario.trajectory(duration: scenario.defaultDuration, random: &random)
        let h = 1e-6
        var worst = 0.0
        var t = 0.013
        while t < scenario.defaultDuration {
            let q = trajectory.state(at: t)
            let before = trajectory.state(at: t - h).attitude.components
            let after = trajectory.state(at: t + h).attitude.components
            let derivative = (after - before) / (2 * h)
            let qd = Quaternion(w: derivative[0], x: derivative[1], y: derivative[2], z: derivative[3])
            let numeric = 2 * (q.attitude.conjugate * qd).imaginary
            worst = max(worst, ((numeric - q.angularVelocity) * (numeric - q.angularVelocity)).sum().squareRoot())
            t += 0.0371
        }
        #expect(worst < 1e-6, "\(scenario): |ω − 2 Im(q* q̇)| up to \(worst) rad/s")
    }

    /// Integrating the sampled (ideal) gyroscope reproduces the true attitude.
    @Test func gyroscopeIntegratesToTheTruth() {
        let samples = Simulator.samples(ideal(.phoneTiltSteer, rate: 400, duration: 42))
        var q = samples[0].truth!
        var worst = 0.0
        for i in 1..<samples.count {
            let dt = samples[i].time - samples[i - 1].time
            let w = 0.5 * (samples[i].rotationRate + samples[i - 1].rotationRate)
            q = (q * Quaternion(rotationVector: w * dt)).normalized
            let error = (q.conjugate * samples[i].truth!).canonical.angle
            worst = max(worst, error)
        }
        #expect(worst < 2e-3, "attitude error after integration: \(worst) rad")
    }

    /// At rest the accelerometer reads Rᵀ·(0, 0, 1 g) and the magnetometer Rᵀ·B_earth.
    @Test func restReadingsAreGravityAndTheEarthField() {
        let samples = Simulator.samples(ideal(.tiltSteps))
        let field = EarthModel().magneticField
        var checked = 0
        for s in samples where s.movement == false {
            let inverse = s.truth!.conjugate
            #expect(((s.acceleration - inverse.act(SIMD3(0, 0, 1))) * (s.acceleration - inverse.act(SIMD3(0, 0, 1)))).sum() < 1e-24)
            #expect(((s.magneticField! - inverse.act(field)) * (s.magneticField! - inverse.act(field))).sum() < 1e-20)
            #expect((s.rotationRate * s.rotationRate).sum() == 0)
            checked += 1
        }
        #expect(checked > 1000)
        // Upright after the first step: gravity on +Y (the tilt step of the latency metric).
        let upright = samples.first { $0.time > 4 && $0.movement == false }!
        #expect(abs(upright.acceleration.y - 1) < 1e-12 && abs(upright.acceleration.z) < 1e-12)
    }

    /// The accelerometer is specific force: a shake adds the linear acceleration (in g) to gravity.
    @Test func shakeAddsLinearAcceleration() {
        let trajectory = Simulator(ideal(.shake)).trajectory
        let samples = Simulator.samples(ideal(.shake))
        for s in samples where s.time > 2.5 && s.time < 3.5 {
            let state = trajectory.state(at: s.time)
            let expected = s.truth!.conjugate.act(state.linearAcceleration / 9.80665 + SIMD3(0, 0, 1))
            #expect(((s.acceleration - expected) * (s.acceleration - expected)).sum() < 1e-24)
        }
        let peak = samples.map { ($0.acceleration * $0.acceleration).sum().squareRoot() }.max()!
        #expect(peak > 1.5)
    }

    @Test func sameSeedSameSamplesOtherSeedOtherSamples() {
        let a = Simulator.samples(SimulationConfiguration(scenario: .rotationsWithBreaks, duration: 12, seed: 5))
        let b = Simulator.samples(SimulationConfiguration(scenario: .rotationsWithBreaks, duration: 12, seed: 5))
        let c = Simulator.samples(SimulationConfiguration(scenario: .rotationsWithBreaks, duration: 12, seed: 6))
        #expect(a == b)
        #expect(a != c)
        #expect(a.count > 1000)
    }

    /// White noise has the documented per-sample σ = density · √rate; bias is constant on average.
    @Test func noiseMatchesTheModel() {
        var sensors = SensorModel.ideal
        sensors.gyroscope.noiseDensity = 0.01
        let samples = Simulator.samples(SimulationConfiguration(scenario: .still, rate: 200, duration: 40, seed: 2, sensors: sensors))
        let x = samples.map(\.rotationRate.x)
        let mean = x.reduce(0, +) / Double(x.count)
        let sd = (x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count - 1)).squareRoot()
        let expected = 0.01 * 200.0.squareRoot()
        #expect(abs(sd / expected - 1) < 0.03, "σ \(sd) vs \(expected)")
        #expect(abs(mean) < 4 * expected / Double(x.count).squareRoot())
    }

    @Test func saturationClipsAtTheRange() {
        var sensors = SensorModel.ideal
        sensors.accelerometer.range = 1.2
        let samples = Simulator.samples(SimulationConfiguration(scenario: .shake, seed: 1, sensors: sensors))
        let peak = samples.map { max(abs($0.acceleration.x), abs($0.acceleration.y), abs($0.acceleration.z)) }.max()!
        #expect(peak == 1.2)
    }

    /// Dropped samples and jitter give the reader's gap warnings; a held magnetometer shows in info.
    @Test func droppedSamplesBecomeGapsAndHeldMagnetometerIsSeen() throws {
        var sensors = SensorModel.phone
        sensors.dropProbability = 0.01
        let configuration = SimulationConfiguration(scenario: .still, duration: 60, seed: 4, sensors: sensors, magnetometerRate: 25)
        let samples = Simulator.samples(configuration)
        let file = TemporaryFile("")
        defer { file.remove() }
        let writer = try RecordingWriter(path: file.path, options: WriteOptions(includeTruth: true, includeMovement: true))
        try writer.write(contentsOf: samples)
        try writer.close()
        let expectedDrops = 6001 - samples.count
        #expect(expectedDrops > 20)
        let info = try RecordingInfo.inspect(path: file.path)
        #expect(info.gaps.reduce(0) { $0 + $1.missingSamples } == expectedDrops)
        #expect(abs(info.held["magnetometer"]!.updateIntervalMs - 40) < 2)
        #expect(abs(info.sampleRateHz - 100) < 1)
    }
}
