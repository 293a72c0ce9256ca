import Poise

/// The orientation-error sink: scores each record's attitude against the sample's ground truth
/// with the BROAD metric (docs/conventions.md), over the samples the recording marks as moving
/// (all of them when it has no movement column).
///
/// The attitude must be in the truth's earth frame (ENU, the fusion stage's default). Rows
/// without a finite truth or without an attitude are not scored. As a run's `Sink` its summary
/// is the `OrientationError`; `coverage` says which rows could be scored.
public struct OrientationErrorSink: Sink, Sendable {
    private var accumulator: OrientationErrorAccumulator
    /// Align the heading by one constant angle before scoring (6D, whose heading is arbitrary).
    public let alignHeading: Bool
    /// The rows seen, with ground truth, moving, and both.
    public private(set) var coverage = Coverage()

    public typealias Summary = OrientationError

    /// Rows seen by the sink, for saying why none was scored.
    public struct Coverage: Sendable, Equatable {
        /// Records received.
        public var rows = 0
        /// Records whose input has a ground-truth attitude.
        public var withTruth = 0
        /// Records whose input is marked moving (`movement` = 1).
        public var moving = 0
        /// Records with both.
        public var both = 0

        public init() {}

        mutating func add(_ sample: MotionSample) {
            rows += 1
            if sample.truth != nil { withTruth += 1 }
            if sample.movement == true { moving += 1 }
            if sample.movement == true && sample.truth != nil { both += 1 }
        }
    }

    /// - Parameter alignHeading: true for an attitude whose heading is arbitrary (6D fusion): the
    ///   sink then keeps 16 bytes per scored row for the alignment; without it, a fixed memory.
    public init(alignHeading: Bool) {
        self.alignHeading = alignHeading
        accumulator = OrientationErrorAccumulator(keepsErrors: alignHeading)
    }

    /// A sink that keeps the errors for the heading alignment in `errorLog` (empty), such as a
    /// `ValueLogFile`, so that its memory does not grow with the recording; without alignment
    /// it keeps none and the log stays empty. Check `failure` (the log's) before the result.
    public init(alignHeading: Bool, errorLog: any ValueLog<SIMD2<Double>>) {
        self.alignHeading = alignHeading
        accumulator = alignHeading ? OrientationErrorAccumulator(errorLog: errorLog) : OrientationErrorAccumulator(keepsErrors: false)
    }

    /// The error log's failure (a full disk), if any: the result is not valid then.
    public var failure: (any Error)? { accumulator.failure }

    /// Scores one record.
    public mutating func receive(_ record: ProcessedSample) {
        coverage.add(record.input)
        guard record.input.movement ?? true, let truth = record.input.truth, let estimate = record.attitude else { return }
        accumulator.add(estimate: estimate, truth: truth)
    }

    /// Samples scored so far.
    public var count: Int { accumulator.count }

    /// Total, heading and inclination RMSE in degrees over the scored samples.
    public var result: OrientationError { accumulator.result(alignHeading: alignHeading) }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        receive(record)
    }

    /// The error over the scored samples (`result`).
    public mutating func finish(_ end: RunEnd) -> OrientationError { result }
}
