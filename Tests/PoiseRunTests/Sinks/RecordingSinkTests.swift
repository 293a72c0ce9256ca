import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// `RecordingSink` (`convert`, `remap`): a run writes a recording that reads back as the input,
/// or as the input in the remapped frame.
@Suite struct RecordingSinkTests {
    func runToRecording(_ input: String, stages: [any PipelineStage]) throws -> (end: RunEnd, samples: [MotionSample]) {
        let source = try RecordingSources.open(path: input)
        let output = input + ".\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var sink = try RecordingSink(path: output, schema: source.schema)
        var run = Run(source: source, pipeline: Pipeline(stages), clock: AsFastAsPossible())
        let end = try run.run(into: &sink).end
        return (end, try Recording.load(path: output).samples)
    }

    @Test func withoutAPipelineTheRecordingReadsBackBitForBit() throws {
        let samples = simulatedMotionWithTruth()
        let (input, _) = try openedRecording(samples, truth: true, movement: true)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let expected = try Recording.load(path: input).samples
        let (end, written) = try runToRecording(input, stages: [])
        #expect(end.samples == samples.count)
        #expect(written == expected)
    }

    /// `truth | remap:…` writes what `FrameRemap.sample` makes of each sample: the vectors
    /// rotated, the truth q ⊗ r*, time and movement kept.
    @Test func truthThenRemapEqualsTheRemappedSamples() throws {
        let (input, _) = try openedRecording(simulatedMotionWithTruth(), truth: true, movement: true)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let remap = FrameRemap<Double>(orientation: .landscapeLeft)
        let expected = try Recording.load(path: input).samples.map { remap.sample($0) }
        let (_, written) = try runToRecording(input, stages: [TruthAttitudeStage(), RemapStage(remap: remap, description: "landscapeLeft")])
        #expect(written == expected)
        #expect(written.first?.truth != nil)
    }

    /// A reflection (`AxisAlignmentStage`) writes `AxisAlignment.vectors(of:)` of each sample.
    @Test func reflectionEqualsTheAlignedVectors() throws {
        let (input, _) = try openedRecording(simulatedMotion())
        defer { try? FileManager.default.removeItem(atPath: input) }
        let alignment = try AxisAlignment("+Y+X+Z", allowingReflection: true)
        #expect(!alignment.isProper)
        let expected = try Recording.load(path: input).samples.map { alignment.vectors(of: $0) }
        let (_, written) = try runToRecording(input, stages: [AxisAlignmentStage(alignment: alignment)])
        #expect(written == expected)
    }
}
