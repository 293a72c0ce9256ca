import Poise
import PoiseRecording

/// When a run hands samples to its pipeline: as fast as possible (`AsFastAsPossible`), paced in
/// real time with an optional game loop (`PacedClock`), or as samples arrive (`LiveClock`).
///
/// Times are ns on the clock's own monotonic time line (only differences matter). Every
/// requirement but `due` and `now` has a default that does nothing, so the as-fast-as-possible
/// clock costs nothing: `Run` is generic over its clock and the defaults compile away.
public protocol RunClock {
    /// Samples read from the source at a time (default 4096; a live clock reads 1, so each sample
    /// is processed as soon as it arrives).
    var readAhead: Int { get }
    /// True when the clock runs a game loop (`deliver` calls its `frame` argument); the run then
    /// keeps the latest record for the frames. Default false.
    var hasFrames: Bool { get }
    /// True when delivery times are scheduled (a sample's `scheduled` time is its deadline);
    /// false: `scheduled` is reported equal to `delivered`. Default false.
    var paces: Bool { get }
    /// True when the clock polls the stop request itself (before each sample and while it
    /// waits); false: the run polls it after every `readAhead` samples. Default false.
    var pollsStop: Bool { get }
    /// Called once before the first sample (a paced clock takes its start time here).
    mutating func start()
    /// The scheduled delivery time of sample `index`, ns (the as-fast-as-possible clock returns 0
    /// and never waits).
    mutating func due(_ sample: MotionSample, index: Int) -> Int64
    /// Now, ns on the clock's time line (0 for the as-fast-as-possible clock).
    mutating func now() -> Int64
    /// Waits until sample `index` is due, first running `frame` for every game-loop frame due
    /// before it. Returns the sample's scheduled time, or `nil` when `shouldStop` said so.
    /// Default: `due(sample, index:)`, no waiting.
    mutating func deliver(_ sample: MotionSample, index: Int, shouldStop: () -> Bool,
                          frame: (FrameTick) throws -> Void) rethrows -> Int64?
    /// After the last sample: runs the frames still due (up to the last sample's time, and one more
    /// while samples are stacked up, `pending`). Returns false when `shouldStop` ended them.
    mutating func finish(pending: Bool, shouldStop: () -> Bool, frame: (FrameTick) throws -> Void) rethrows -> Bool
    /// Time since `start()`, ns (0 for the as-fast-as-possible clock).
    mutating func elapsed() -> Int64
}

/// A game-loop frame as its clock schedules it.
public struct FrameTick: Sendable, Equatable {
    /// 1-based frame number.
    public var index: Int
    /// Recording time the frame represents, s.
    public var time: Double
    /// When it was due and when it ran, ns on the clock's time line.
    public var scheduled: Int64
    public var delivered: Int64

    public init(index: Int, time: Double, scheduled: Int64, delivered: Int64) {
        self.index = index; self.time = time; self.scheduled = scheduled; self.delivered = delivered
    }
}

extension RunClock {
    @inlinable public var readAhead: Int { 4096 }
    @inlinable public var hasFrames: Bool { false }
    @inlinable public var paces: Bool { false }
    @inlinable public var pollsStop: Bool { false }
    @inlinable public mutating func start() {}
    @inlinable public mutating func deliver(_ sample: MotionSample, index: Int, shouldStop: () -> Bool,
                                            frame: (FrameTick) throws -> Void) rethrows -> Int64? {
        due(sample, index: index)
    }
    @inlinable public mutating func finish(pending: Bool, shouldStop: () -> Bool,
                                           frame: (FrameTick) throws -> Void) rethrows -> Bool { true }
    @inlinable public mutating func elapsed() -> Int64 { 0 }
}

/// No waiting and no timing: samples are processed as fast as they are read.
public struct AsFastAsPossible: RunClock {
    public init() {}
    @inlinable public mutating func due(_ sample: MotionSample, index: Int) -> Int64 { 0 }
    @inlinable public func now() -> Int64 { 0 }
}

/// One run: pulls samples from a source, runs them through a pipeline and hands every record to
/// the sinks, at the pace of a clock. This is the loop every command runs.
///
/// Per sample: the clock's `deliver` (a paced clock waits for the deadline and runs the
/// game-loop frames due first), then the pipeline (with the sink's per-stage `observe` when it
/// asks for it), then the sink's `consume` with the delivery timing (`delivered` is read just
/// before the pipeline, `cost` is the pipeline's time, both on the clock's time line). A frame
/// (frame clocks only) runs the frame-time pipeline once on the latest raw sample and hands the
/// sink a `FrameDelivery` with the latest record.
public struct Run<Clock: RunClock> {
    /// Rows read from the source at a time under the as-fast-as-possible clock.
    public static var chunkSize: Int { 4096 }

    public let source: any SampleSource
    public var pipeline: Pipeline
    /// The frame-time pipeline (frame clocks only): run once per frame on the latest raw sample.
    public var framePipeline: Pipeline?
    public var clock: Clock
    /// Samples already read from `source` (for example to find its rate), processed first.
    @usableFromInline var first: [MotionSample]

    public init(source: any SampleSource, first: [MotionSample] = [], pipeline: Pipeline,
                framePipeline: Pipeline? = nil, clock: Clock) {
        self.source = source; self.first = first; self.pipeline = pipeline
        self.framePipeline = framePipeline; self.clock = clock
    }

    /// Runs the whole source through the pipeline into `sink`.
    ///
    /// - Parameters:
    ///   - shouldStop: `true` ends the run (Ctrl-C). Polled after every chunk of rows, or by the
    ///     clock when it polls itself (a paced clock: before every sample and frame and while it
    ///     waits).
    /// - Returns: how the run ended and the sink's summary.
    /// - Throws: the source's `RecordingError` (file, line, column), or what the sink throws.
    @inlinable  // specialised for each command's sinks in the module that calls it
    public mutating func run<S: Sink>(into sink: inout S, shouldStop: () -> Bool = { false }) throws -> (end: RunEnd, summary: S.Summary) {
        try sink.begin(RunSchema(source: source.schema, outputs: pipeline.outputs))
        // Locals, so the frame closure and the clock can be used at once; written back at the end.
        var clock = self.clock, pipeline = self.pipeline, framePipeline = self.framePipeline
        defer { self.clock = clock; self.pipeline = pipeline; self.framePipeline = framePipeline }
        let frames = clock.hasFrames, paces = clock.paces, pollsStop = clock.pollsStop
        let readAhead = Swift.max(1, clock.readAhead)
        var latest: ProcessedSample?
        var latestRaw: MotionSample?
        var stacked = 0

        func frame(_ tick: FrameTick) throws {
            let delivered = tick.delivered
            var smoothed: ProcessedSample?
            if let raw = latestRaw, framePipeline != nil {
                var record = ProcessedSample(raw)
                framePipeline!.process(&record)
                smoothed = record
            }
            try sink.consume(frame: FrameDelivery(index: tick.index, time: tick.time, scheduled: paces ? tick.scheduled : delivered,
                                                  delivered: delivered, stackedSamples: stacked,
                                                  latest: latest, frameSmoothed: smoothed))
            stacked = 0
        }

        var chunk = first
        first = []
        var samples = 0
        var stopped = false
        clock.start()
        if chunk.isEmpty { try source.read(into: &chunk, maximumCount: readAhead) }
        reading: while !chunk.isEmpty {
            for sample in chunk {
                guard let due = try clock.deliver(sample, index: samples, shouldStop: shouldStop, frame: frame) else {
                    stopped = true; break reading
                }
                let delivered = clock.now()
                var record = ProcessedSample(sample)
                if S.observesStages {
                    pipeline.process(&record) { index, stage in sink.observe(stage: index, stage) }
                } else {
                    pipeline.process(&record)
                }
                let cost = clock.now() - delivered
                if frames { latest = record; latestRaw = sample; stacked += 1 }
                try sink.consume(record, SampleDelivery(index: samples, scheduled: paces ? due : delivered,
                                                        delivered: delivered, cost: cost))
                samples += 1
            }
            if !pollsStop, shouldStop() { stopped = true; break }
            chunk.removeAll(keepingCapacity: true)
            try source.read(into: &chunk, maximumCount: readAhead)
        }
        if frames, !stopped, try !clock.finish(pending: stacked > 0, shouldStop: shouldStop, frame: frame) { stopped = true }
        let end = RunEnd(samples: samples, stopped: stopped, elapsed: clock.elapsed())
        return (end, try sink.finish(end))
    }
}
