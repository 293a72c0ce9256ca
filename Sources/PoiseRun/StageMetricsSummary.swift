import Poise

/// The figures of ``StageMetricsAccumulator``: what the replay report needs.
public struct StageMetricsSummary: Sendable, Equatable {
    /// Number of still segments found.
    public var stillSegmentCount: Int
    /// The still segment whose noise was added to the steps, (first, last) times in seconds of the
    /// excerpt; `nil` without a still segment.
    public var noiseSegment: ClosedRange<Double>?
    /// Per filtering stage, in pipeline order.
    public var stages: [StageReport]
    /// The whole pipeline.
    public var whole: StageReport
}
