import Poise
import PoiseRecording

/// When a run hands samples to its pipeline.
public protocol RunClock {
    /// Called before sample `index` is processed; returns its scheduled delivery time, ns on the
    /// clock's time line (the as-fast-as-possible clock returns 0 and never waits).
    mutating func due(_ sample: MotionSample, index: Int) -> Int64
    /// Now, ns on the clock's time line (0 for the as-fast-as-possible clock).
    func now() -> Int64
}

/// No waiting and no timing: samples are processed as fast as they are read.
public struct AsFastAsPossible: RunClock {
    public init() {}
    @inlinable public mutating func due(_ sample: MotionSample, index: Int) -> Int64 { 0 }
    @inlinable public func now() -> Int64 { 0 }
}

/// One run: pulls samples from a source, runs them through a pipeline and hands every record to
/// the sinks, at the pace of a clock. This is the loop every command runs.
public struct Run<Clock: RunClock> {
    /// Rows read from the source at a time.
    public static var chunkSize: Int { 4096 }

    public let source: any SampleSource
    public var pipeline: Pipeline
    public var clock: Clock
    /// Samples already read from `source` (for example to find its rate), processed first.
    @usableFromInline var first: [MotionSample]

    public init(source: any SampleSource, first: [MotionSample] = [], pipeline: Pipeline, clock: Clock) {
        self.source = source; self.first = first; self.pipeline = pipeline; self.clock = clock
    }

    /// Runs the whole source through the pipeline into `sink`.
    ///
    /// - Parameters:
    ///   - shouldStop: polled after every chunk of rows; `true` ends the run (Ctrl-C).
    /// - Returns: how the run ended and the sink's summary.
    /// - Throws: the source's `RecordingError` (file, line, column), or what the sink throws.
    @inlinable  // specialised for each command's sinks in the module that calls it
    public mutating func run<S: Sink>(into sink: inout S, shouldStop: () -> Bool = { false }) throws -> (end: RunEnd, summary: S.Summary) {
        try sink.begin(RunSchema(source: source.schema, outputs: pipeline.outputs))
        var chunk = first
        first = []
        var samples = 0
        var stopped = false
        if chunk.isEmpty { try source.read(into: &chunk, maximumCount: Self.chunkSize) }
        while !chunk.isEmpty {
            for sample in chunk {
                let scheduled = clock.due(sample, index: samples)
                let delivered = clock.now()
                var record = ProcessedSample(sample)
                pipeline.process(&record)
                let cost = clock.now() - delivered
                try sink.consume(record, SampleDelivery(index: samples, scheduled: scheduled, delivered: delivered, cost: cost))
                samples += 1
            }
            if shouldStop() { stopped = true; break }
            chunk.removeAll(keepingCapacity: true)
            try source.read(into: &chunk, maximumCount: Self.chunkSize)
        }
        let end = RunEnd(samples: samples, stopped: stopped)
        return (end, try sink.finish(end))
    }
}
