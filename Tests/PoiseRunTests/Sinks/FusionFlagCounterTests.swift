import Foundation
import Testing
import Poise
@testable import PoiseRun

@Suite struct FusionFlagCounterTests {
    /// Counts equal a count over the per-sample loop's records; flags never seen are absent;
    /// records without a fusion status count for nothing.
    @Test func countsEachFlagOverTheRun() throws {
        let samples = simulatedMotion()
        let (input, source) = try openedRecording(samples)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let pipeline = Pipeline([DeviceMotionStage(nineAxis: false, sampleRate: 100)])
        let flags: [(name: String, flag: DeviceMotion.Flags)] = [("at_rest", .atRest), ("time_gap", .timeGap)]
        var sinks = SinkPair(FusionFlagCounter(flags), LastRecordSink())
        var run = Run(source: source, pipeline: pipeline, clock: AsFastAsPossible())
        let (counts, last) = try run.run(into: &sinks).summary

        let records = processed(samples, pipeline)
        let atRest = records.filter { $0.fusion?.flags.contains(.atRest) == true }.count
        #expect(atRest > 0 && atRest < samples.count)
        #expect(counts == ["at_rest": atRest])
        #expect(last?.time == records.last?.time)
        #expect(last?.attitude == records.last?.attitude)

        var none = FusionFlagCounter(flags)
        try none.consume(ProcessedSample(samples[0]), SampleDelivery(index: 0, scheduled: 0, delivered: 0, cost: 0))
        #expect(none.finish(RunEnd(samples: 1, stopped: false)).isEmpty)
    }

    /// An absent optional sink takes nothing and sums up to nil; a present one is the sink.
    @Test func optionalSinks() throws {
        let (input, source) = try openedRecording(simulatedMotion(seconds: 2))
        defer { try? FileManager.default.removeItem(atPath: input) }
        var sinks = SinkPair(LastRecordSink?.none, LastRecordSink?.some(LastRecordSink()))
        var run = Run(source: source, pipeline: Pipeline(), clock: AsFastAsPossible())
        let (absent, present) = try run.run(into: &sinks).summary
        #expect(absent == nil)
        #expect(present??.time == 1.99)
    }
}
