import Poise

/// `StageMetricsAccumulator` as a run's sink: reads every stage's output as the one pipeline runs
/// (`observe`), then adds the finished record; in frame mode adds every frame's callback and
/// frame-time values of `signal`. Its summary is the accumulator, for the owner to `finish()`
/// (the step responses are computed there, after the output is complete).
public struct StageMetricsSink: Sink {
    public var metrics: StageMetricsAccumulator
    /// The signal the frames are compared on (the pipeline's last measured signal).
    public let signal: StageSignal

    public init(_ metrics: StageMetricsAccumulator, frameSignal signal: StageSignal = .acceleration) {
        self.metrics = metrics; self.signal = signal
    }

    public static var observesStages: Bool { true }

    public mutating func observe(stage index: Int, _ record: ProcessedSample) {
        metrics.observe(stage: index, record)
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        metrics.add(record)
    }

    public mutating func consume(frame: FrameDelivery) {
        metrics.addFrame(time: frame.time,
                         callback: frame.latest.flatMap(signal.value) ?? .zero,
                         frameTime: frame.frameSmoothed.flatMap(signal.value) ?? .zero,
                         raw: frame.latest?.input.acceleration ?? .zero)
    }

    public mutating func finish(_ end: RunEnd) -> StageMetricsAccumulator { metrics }
}
