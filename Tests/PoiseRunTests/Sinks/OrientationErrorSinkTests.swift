import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

@Suite struct OrientationErrorSinkTests {
    /// A run into the sink scores what the accumulator scores over the per-sample loop's moving
    /// records with truth, and counts the rows it saw.
    @Test func runScoresTheMovingRowsWithTruth() throws {
        let samples = simulatedMotionWithTruth()
        let (input, source) = try openedRecording(samples, truth: true, movement: true)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let pipeline = Pipeline([DeviceMotionStage(nineAxis: false, sampleRate: 100)])
        var sink = OrientationErrorSink(alignHeading: true)
        var run = Run(source: source, pipeline: pipeline, clock: AsFastAsPossible())
        let error = try run.run(into: &sink).summary

        var reference = OrientationErrorAccumulator()
        for record in processed(try Recording.load(path: input).samples, pipeline)
        where record.input.movement == true {
            reference.add(estimate: record.attitude!, truth: record.input.truth!)
        }
        let moving = samples.filter { $0.movement == true }.count
        #expect(error.count == moving)
        #expect(error == reference.result(alignHeading: true))
        #expect(error.total.isFinite)
        var coverage = OrientationErrorSink.Coverage()
        coverage.rows = samples.count; coverage.withTruth = samples.count; coverage.moving = moving; coverage.both = moving
        #expect(sink.coverage == coverage)
    }
}
