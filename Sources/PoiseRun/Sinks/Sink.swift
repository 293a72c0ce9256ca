import Poise
import PoiseRecording

/// What a run tells its sinks before the first record.
public struct RunSchema: Sendable, Equatable {
    /// What the source has (quantities, original names and units).
    public var source: RecordingSchema
    /// What the pipeline writes into each record (the union over its stages).
    public var outputs: StageOutputs

    public init(source: RecordingSchema, outputs: StageOutputs) {
        self.source = source; self.outputs = outputs
    }
}

/// How a run ended; handed to every sink's `finish(_:)`.
public struct RunEnd: Sendable, Equatable {
    /// Samples pulled from the source and processed.
    public var samples: Int
    /// True when the run's stop request (Ctrl-C, SIGTERM, a duration) ended it before the
    /// source's end.
    public var stopped: Bool
    /// Time from the clock's start to the end of the run, ns (0 under the as-fast-as-possible
    /// clock, which keeps no time).
    public var elapsed: Int64

    public init(samples: Int, stopped: Bool, elapsed: Int64 = 0) {
        self.samples = samples; self.stopped = stopped; self.elapsed = elapsed
    }
}

/// Where a run's records go: an output file, a UDP socket, a metric or error accumulator, a
/// report pass, a status line.
///
/// `Run` is the only code that pulls samples, runs the pipeline and calls sinks: `begin(_:)` once,
/// `consume(_:_:)` with every processed record in order (and `consume(frame:)` with every game-loop
/// frame under a frame clock), then `finish(_:)` once, whose result is the sink's summary. Sinks
/// are generic parameters of a run (combine several with `SinkPair`), so a call costs what the
/// sink's own work costs.
public protocol Sink {
    /// What `finish(_:)` returns (`Void` for a sink that only writes).
    associatedtype Summary = Void
    /// Called once, before the first record.
    mutating func begin(_ schema: RunSchema) throws
    /// Called with every processed record, in the source's order, with when it was delivered
    /// (`SampleDelivery`: scheduled = delivered and cost 0 under the as-fast-as-possible clock).
    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws
    /// Called with every game-loop frame (frame clocks only).
    mutating func consume(frame: FrameDelivery) throws
    /// True when the sink reads every stage's output (`observe(stage:_:)`); a constant, so a run
    /// into sinks that do not observe pays nothing for it. Default false.
    static var observesStages: Bool { get }
    /// Called after stage `index` of the pipeline with the record as that stage left it, before
    /// `consume(_:_:)` gets the finished record (a metric sink measures every filtering stage
    /// while the one pipeline runs). Only when `observesStages`.
    mutating func observe(stage index: Int, _ record: ProcessedSample)
    /// Called once after the last record, also when the run was stopped; returns the summary.
    mutating func finish(_ end: RunEnd) throws -> Summary
}

extension Sink {
    public mutating func begin(_ schema: RunSchema) throws {}
    public mutating func consume(frame: FrameDelivery) throws {}
    @inlinable public static var observesStages: Bool { false }
    @inlinable public mutating func observe(stage index: Int, _ record: ProcessedSample) {}
}

extension Sink where Summary == Void {
    public mutating func finish(_ end: RunEnd) throws {}
}

/// Two sinks fed the same records, `first` before `second`; nest pairs for more.
public struct SinkPair<First: Sink, Second: Sink>: Sink {
    public var first: First
    public var second: Second

    public init(_ first: First, _ second: Second) {
        self.first = first; self.second = second
    }

    public mutating func begin(_ schema: RunSchema) throws {
        try first.begin(schema)
        try second.begin(schema)
    }

    @inlinable
    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        try first.consume(record, delivery)
        try second.consume(record, delivery)
    }

    public mutating func consume(frame: FrameDelivery) throws {
        try first.consume(frame: frame)
        try second.consume(frame: frame)
    }

    @inlinable public static var observesStages: Bool { First.observesStages || Second.observesStages }

    @inlinable
    public mutating func observe(stage index: Int, _ record: ProcessedSample) {
        if First.observesStages { first.observe(stage: index, record) }
        if Second.observesStages { second.observe(stage: index, record) }
    }

    public mutating func finish(_ end: RunEnd) throws -> (First.Summary, Second.Summary) {
        (try first.finish(end), try second.finish(end))
    }
}

/// A sink made of closures, for a command's small bookkeeping (counting flags, keeping the last
/// record).
public struct ClosureSink: Sink {
    private let body: (ProcessedSample) throws -> Void

    public init(_ body: @escaping (ProcessedSample) throws -> Void) { self.body = body }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        try body(record)
    }
}
