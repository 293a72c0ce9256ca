import Poise

/// The orientation-error sink: scores each record's attitude against the sample's ground truth
/// with the BROAD metric (docs/conventions.md), over the samples the recording marks as moving
/// (all of them when it has no movement column).
///
/// The attitude must be in the truth's earth frame (ENU, the fusion stage's default). Rows
/// without a finite truth or without an attitude are not scored.
public struct OrientationErrorSink: Sendable {
    private var accumulator = OrientationErrorAccumulator()
    /// Align the heading by one constant angle before scoring (6D, whose heading is arbitrary).
    public let alignHeading: Bool

    /// - Parameter alignHeading: true for an attitude whose heading is arbitrary (6D fusion).
    public init(alignHeading: Bool) { self.alignHeading = alignHeading }

    /// Scores one record.
    public mutating func receive(_ record: ProcessedSample) {
        guard record.input.movement ?? true, let truth = record.input.truth, let estimate = record.attitude else { return }
        accumulator.add(estimate: estimate, truth: truth)
    }

    /// Samples scored so far.
    public var count: Int { accumulator.count }

    /// Total, heading and inclination RMSE in degrees over the scored samples.
    public var result: OrientationError { accumulator.result(alignHeading: alignHeading) }
}
