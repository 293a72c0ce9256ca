import Poise
import PoiseRecording

/// A pass that works on chunks of samples instead of one record at a time: the settings of a
/// filter sweep filtered in parallel over each chunk (`StreamingSweep`), the report's spectra of
/// several settings. A `Run` carries it through a `ChunkSink`.
public protocol ChunkConsumer {
    /// Takes the next chunk of input samples (`ProcessedSample.input`), in order.
    mutating func consume(chunk: [MotionSample]) throws
}

/// How a chunk pass is a sink: it gathers the records' input samples (`ProcessedSample.input`)
/// into chunks of `size` and hands each to its `ChunkConsumer` (the last one shorter, handed on by
/// `finish(_:)`), in order. Its summary is the consumer after the last chunk, for the owner to
/// read its results.
///
/// The `Sink` protocol carries records one at a time; the chunk is made here, so a consumer that
/// gains from batches (threads per chunk, one filter call per block) gets them whatever the run's
/// own read-ahead, and a run can feed a chunk pass and record sinks at once (`SinkPair`).
public struct ChunkSink<Consumer: ChunkConsumer>: Sink {
    /// Samples per chunk (at least 1).
    public let size: Int
    public var consumer: Consumer
    private var chunk: [MotionSample] = []

    public init(size: Int, _ consumer: Consumer) {
        self.size = max(1, size)
        self.consumer = consumer
        chunk.reserveCapacity(self.size)
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        chunk.append(record.input)
        if chunk.count >= size {
            try consumer.consume(chunk: chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }

    public mutating func finish(_ end: RunEnd) throws -> Consumer {
        if !chunk.isEmpty {
            try consumer.consume(chunk: chunk)
            chunk.removeAll()
        }
        return consumer
    }
}

/// A chunk pass made of a closure (for tests and small bookkeeping).
public struct ChunkClosure: ChunkConsumer {
    private let body: ([MotionSample]) throws -> Void

    public init(_ body: @escaping ([MotionSample]) throws -> Void) { self.body = body }

    public func consume(chunk: [MotionSample]) throws { try body(chunk) }
}

extension ChunkSink where Consumer == ChunkClosure {
    /// Hands the chunks to `body`.
    public init(size: Int, _ body: @escaping ([MotionSample]) throws -> Void) {
        self.init(size: size, ChunkClosure(body))
    }
}

/// A sweep takes the recording in chunks: each chunk is filtered by every setting in parallel.
extension StreamingSweep: ChunkConsumer {
    public mutating func consume(chunk: [MotionSample]) throws { add(chunk) }
}
