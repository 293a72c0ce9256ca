import Poise
import PoiseRecording

/// A sink that hands the records' input samples (`ProcessedSample.input`) on in chunks of `size`
/// (the last one shorter, handed on by `finish(_:)`), in order: for passes that work on chunks of
/// samples (the settings of a filter sweep in parallel, the passes of a report).
public struct ChunkSink: Sink {
    /// Samples per chunk (at least 1).
    public let size: Int
    private var chunk: [MotionSample] = []
    private let body: ([MotionSample]) throws -> Void

    public init(size: Int, _ body: @escaping ([MotionSample]) throws -> Void) {
        self.size = max(1, size)
        self.body = body
        chunk.reserveCapacity(self.size)
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        chunk.append(record.input)
        if chunk.count >= size {
            try body(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }

    public mutating func finish(_ end: RunEnd) throws {
        guard !chunk.isEmpty else { return }
        try body(chunk)
        chunk.removeAll()
    }
}
