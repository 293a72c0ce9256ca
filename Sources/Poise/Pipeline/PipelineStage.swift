/// One step of a processing pipeline: a filter, gravity separation, fusion, remapping….
///
/// Stages are value types. `process(_:)` reads what it needs from the record and writes what it
/// produces (see `ProcessedSample` for who owns which field); it must not allocate, lock or block,
/// because the replay engine calls it on the paced delivery path. Copying a stage forks its
/// state; `reset()` makes it equal to a freshly made stage with the same configuration.
public protocol PipelineStage: Sendable {
    /// The stage as written in a pipeline spec, with its effective parameters
    /// (for example `lowpass:cutoff=5`), for reports and output headers.
    var description: String { get }
    /// The fields of `ProcessedSample` this stage writes.
    var outputs: StageOutputs { get }
    /// The signal reports measure for this stage (latency to 90 %, jitter, lag), or `nil` when the
    /// stage is not a filtering stage (for example a pure axis remapping).
    var measuredSignal: StageSignal? { get }
    /// Processes one sample in place.
    mutating func process(_ sample: inout ProcessedSample)
    /// Forgets all state (as if no sample had been processed).
    mutating func reset()
}
