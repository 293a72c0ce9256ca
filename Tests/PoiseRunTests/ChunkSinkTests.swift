import Foundation
import Poise
@testable import PoiseRecording
import Testing
@testable import PoiseRun

/// A `Run` into a `ChunkSink` hands on every sample once, in order, in chunks of the sink's size
/// (the last one shorter), whatever the run's own chunk size.
@Suite struct ChunkSinkTests {
    @Test(arguments: [1, 1000, 4096, 5000, 20_000])
    func chunksOfTheSizeInOrder(size: Int) throws {
        let samples = (0..<10_001).map { MotionSample(time: Double($0) / 100, acceleration: SIMD3(Double($0), 0, 1)) }
        let source = ArraySource(path: "test", schema: RecordingSchema(format: .poise, columns: []), samples: samples)
        var chunks: [[MotionSample]] = []
        var sink = ChunkSink(size: size) { chunks.append($0) }
        var run = Run(source: source, pipeline: Pipeline(), clock: AsFastAsPossible())
        let (end, _) = try run.run(into: &sink)
        #expect(end.samples == samples.count && !end.stopped)
        #expect(chunks.dropLast().allSatisfy { $0.count == size })
        #expect((chunks.last?.count ?? 0) == (samples.count - 1) % size + 1)
        #expect(chunks.flatMap { $0 }.map(\.time) == samples.map(\.time))
    }
}
