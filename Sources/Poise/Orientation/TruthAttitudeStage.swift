/// A pipeline stage that takes the attitude from the recording's ground truth
/// (`MotionSample.truth`, device → earth, ENU) instead of estimating it, so later stages (`tilt`,
/// `remap`) can run on the true attitude. A sample without truth (tracking lost) holds the last
/// one; before the first truth the record has no attitude.
public struct TruthAttitudeStage: PipelineStage {
    @usableFromInline var last: Quaternion<Double>?

    /// Creates the stage.
    public init() {}

    public var description: String { "truth" }
    public var outputs: StageOutputs { .attitude }
    public var measuredSignal: StageSignal? { nil }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        if let truth = sample.input.truth { last = truth }
        sample.attitude = last
    }

    public mutating func reset() { last = nil }
}
