/// An ordered chain of stages, run on each sample in order.
///
/// Build one from a spec string with `StageCatalog.pipeline(_:context:)`, or from stage values
/// directly. The same pipeline runs as fast as possible, paced in real time, or driven by a frame
/// clock; only the caller's clock differs.
///
/// - Complexity: O(number of stages) per sample; no allocation per sample.
public struct Pipeline: Sendable {
    /// The stages, first applied first.
    public var stages: [any PipelineStage]

    /// Creates a pipeline from stages (first applied first). An empty pipeline passes samples
    /// through unchanged.
    public init(_ stages: [any PipelineStage] = []) {
        self.stages = stages
    }

    /// The union of what the stages write.
    public var outputs: StageOutputs {
        stages.reduce(into: StageOutputs()) { $0.formUnion($1.outputs) }
    }

    /// The stages joined as a spec string (`lowpass:cutoff=5 | gravity`); `none` when empty.
    public var description: String {
        stages.isEmpty ? "none" : stages.map(\.description).joined(separator: " | ")
    }

    /// Runs every stage on `record`, in order.
    @inlinable
    public mutating func process(_ record: inout ProcessedSample) {
        for index in stages.indices {
            stages[index].process(&record)
        }
    }

    /// Runs every stage on `record` and calls `observe(stageIndex, record)` after each one, so a
    /// caller can measure intermediate signals (per-stage jitter in reports).
    @inlinable
    public mutating func process(_ record: inout ProcessedSample,
                                 observe: (Int, ProcessedSample) -> Void) {
        for index in stages.indices {
            stages[index].process(&record)
            observe(index, record)
        }
    }

    /// Processes one raw sample and returns the finished record.
    @inlinable
    public mutating func process(_ sample: MotionSample) -> ProcessedSample {
        var record = ProcessedSample(sample)
        process(&record)
        return record
    }

    /// Processes samples in order; equal to calling `process(_:)` on each (tested).
    public mutating func process(_ samples: [MotionSample]) -> [ProcessedSample] {
        var result: [ProcessedSample] = []
        result.reserveCapacity(samples.count)
        for sample in samples { result.append(process(sample)) }
        return result
    }

    /// Resets every stage.
    public mutating func reset() {
        for index in stages.indices { stages[index].reset() }
    }
}
