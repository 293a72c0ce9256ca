import Poise

/// Runs a pipeline as a `Filter` on acceleration input (g), returning one measured signal, so the
/// filter core's metrics (`latency90`) apply to any stage, not only to filters. Each input is a
/// sample with that acceleration, zero rotation rate and no magnetometer, `dt` seconds after the
/// previous one (one nominal period when `dt` is not positive).
public struct PipelineProbe: Filter {
    public typealias Value = SIMD3<Double>
    var pipeline: Pipeline
    let signal: StageSignal
    let period: Double
    var time = 0.0
    var last = SIMD3<Double>.zero

    /// Undoes the prefix's axis changes (remapping) on the output.
    let axes: AxisMap

    public init(pipeline: Pipeline, signal: StageSignal, sampleRate: Double) {
        self.pipeline = pipeline; self.signal = signal; period = 1 / sampleRate
        axes = AxisMap(pipeline)
    }

    public mutating func process(_ input: SIMD3<Double>) -> SIMD3<Double> { process(input, dt: period) }

    public mutating func process(_ input: SIMD3<Double>, dt: Double) -> SIMD3<Double> {
        var record = ProcessedSample(MotionSample(time: time, acceleration: input))
        time += dt > 0 && dt.isFinite ? dt : period
        pipeline.process(&record)
        if let value = signal.value(in: record) { last = axes.toInput(value) }
        return last
    }

    public mutating func reset() { pipeline.reset(); time = 0; last = .zero }
}
