import Poise
import PoiseRecording

/// The batch driver: runs a recording through a pipeline as fast as possible and hands every
/// processed record to the caller's sinks, in one pass over the file.
///
/// The paced and frame-clock drivers are `Replayer`; all three run the same `Pipeline` and differ
/// only in their clock.
public struct BatchDriver {
    /// Rows read from the file at a time.
    public static let chunkSize = 4096

    /// How a batch run ended.
    public struct Result: Sendable, Equatable {
        /// Samples processed.
        public var samples: Int
        /// True when `shouldStop` ended the run early.
        public var stopped: Bool
    }

    /// Processes `first` (rows already read, for example to estimate the rate), then the rest of
    /// `reader`, through `pipeline`, calling `sink` with each finished record in order.
    ///
    /// - Parameters:
    ///   - shouldStop: polled after every chunk of rows; `true` ends the run (Ctrl-C).
    /// - Throws: the reader's `RecordingError` (file, line, column), or what `sink` throws.
    public static func run(_ reader: any SampleSource, first: [MotionSample] = [], through pipeline: inout Pipeline,
                           shouldStop: () -> Bool = { false },
                           sink: (ProcessedSample) throws -> Void) throws -> Result {
        var chunk = first
        var samples = 0
        if chunk.isEmpty { try reader.read(into: &chunk, maximumCount: chunkSize) }
        while !chunk.isEmpty {
            for sample in chunk {
                var record = ProcessedSample(sample)
                pipeline.process(&record)
                try sink(record)
            }
            samples += chunk.count
            if shouldStop() { return Result(samples: samples, stopped: true) }
            chunk.removeAll(keepingCapacity: true)
            try reader.read(into: &chunk, maximumCount: chunkSize)
        }
        return Result(samples: samples, stopped: false)
    }

    /// Processes samples already in memory through `pipeline`, calling `sink` with each record.
    public static func run(_ samples: some Sequence<MotionSample>, through pipeline: inout Pipeline,
                           sink: (ProcessedSample) throws -> Void) rethrows {
        for sample in samples {
            var record = ProcessedSample(sample)
            pipeline.process(&record)
            try sink(record)
        }
    }
}
