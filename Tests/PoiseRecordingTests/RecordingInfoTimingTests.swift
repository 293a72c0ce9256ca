import Testing
import Poise
@testable import PoiseRecording

/// What `poise info` finds about a recording's timing and clipping, on simulated recordings whose
/// jitter, rate change and full scale are known.
struct RecordingInfoTimingTests {
    static func info(_ samples: [MotionSample]) throws -> RecordingInfo {
        let file = TemporaryFile("")
        defer { file.remove() }
        let writer = try RecordingWriter(path: file.path, options: WriteOptions(includeTruth: true, includeMovement: true))
        try writer.write(contentsOf: samples)
        try writer.close()
        return try RecordingInfo.inspect(path: file.path)
    }

    /// Jitter of σ = 5 % of a 10-ms period is 0.5 ms RMS, and nearly every step is off the
    /// median by more than 0.1 %; a clock without jitter has none (within the file's 1-µs bins).
    @Test func jitterIsMeasured() throws {
        var sensors = SensorModel.phone
        sensors.dropProbability = 0
        let jittered = try Self.info(Simulator.samples(SimulationConfiguration(scenario: .still, duration: 30, seed: 2, sensors: sensors)))
        let timing = try #require(jittered.timing)
        // Consecutive instants jitter independently: the step's σ is √2 × 0.5 ms (clipped at ±45 %).
        #expect(abs(timing.jitterMs - 0.5 * 2.0.squareRoot()) < 0.05, "\(timing.jitterMs) ms")
        #expect(timing.irregularFraction > 0.9)
        #expect(timing.rateChangeCount == 0)
        sensors.timestampJitter = 0
        let regular = try Self.info(Simulator.samples(SimulationConfiguration(scenario: .still, duration: 30, seed: 2, sensors: sensors)))
        #expect(try #require(regular.timing).jitterMs < 0.001)
        #expect(regular.timing?.irregularFraction == 0)
    }

    /// A recording at 100 Hz whose second half is at 200 Hz: one change, found within two
    /// blocks (64 intervals each) of where it is; single gaps are not changes.
    @Test func aRateChangeIsFoundAndGapsAreNot() throws {
        var sensors = SensorModel.phone
        sensors.dropProbability = 0.01
        let first = Simulator.samples(SimulationConfiguration(scenario: .still, duration: 20, seed: 3, sensors: sensors))
        let second = Simulator.samples(SimulationConfiguration(scenario: .still, rate: 200, duration: 20, seed: 4, sensors: sensors))
        let joined = first + second.dropFirst().map { s in var s = s; s.time += 20; return s }
        let timing = try #require(try Self.info(joined).timing)
        #expect(timing.rateChangeCount == 1)
        let change = try #require(timing.rateChanges.first)
        #expect(abs(change.fromHz - 100) < 2 && abs(change.toHz - 200) < 4)
        #expect(change.timeS > 20 - 2 * 0.64 && change.timeS < 20 + 2 * 0.64, "at \(change.timeS) s")
        #expect(try #require(try Self.info(first).timing).rateChangeCount == 0)
    }

    /// A gyroscope clipped at ±250 °/s: every sample at the limit is counted; the same motion
    /// with a 2000-°/s gyroscope has none.
    @Test func saturatedSamplesAreCounted() throws {
        var sensors = SensorModel.phone
        sensors.gyroscope.range = 250 * Double.pi / 180
        let samples = Simulator.samples(SimulationConfiguration(scenario: .phoneTiltSteer, seed: 5, sensors: sensors))
        let atLimit = samples.reduce(0) { n, s in n + (0..<3).filter { s.rotationRate[$0].magnitude == sensors.gyroscope.range }.count }
        #expect(atLimit > 10)
        let info = try Self.info(samples)
        #expect(info.saturatedSamples["gyroscope"] == atLimit)
        sensors.gyroscope.range = 2000 * Double.pi / 180
        #expect(try Self.info(Simulator.samples(SimulationConfiguration(scenario: .phoneTiltSteer, seed: 5, sensors: sensors))).saturatedSamples.isEmpty)
    }
}
