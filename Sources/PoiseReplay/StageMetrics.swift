import Poise

/// Runs a pipeline as a `Filter` on acceleration input (g), returning one measured signal, so the
/// filter core's metrics (`latency90`) apply to any stage, not only to filters. Each input is a
/// sample with that acceleration, zero rotation rate and no magnetometer, `dt` seconds after the
/// previous one (one nominal period when `dt` is not positive).
struct PipelineProbe: Filter {
    typealias Value = SIMD3<Double>
    var pipeline: Pipeline
    let signal: StageSignal
    let period: Double
    var time = 0.0
    var last = SIMD3<Double>.zero

    init(pipeline: Pipeline, signal: StageSignal, sampleRate: Double) {
        self.pipeline = pipeline; self.signal = signal; period = 1 / sampleRate
    }

    mutating func process(_ input: SIMD3<Double>) -> SIMD3<Double> { process(input, dt: period) }

    mutating func process(_ input: SIMD3<Double>, dt: Double) -> SIMD3<Double> {
        var record = ProcessedSample(MotionSample(time: time, acceleration: input))
        time += dt > 0 && dt.isFinite ? dt : period
        pipeline.process(&record)
        if let value = signal.value(in: record) { last = value }
        return last
    }

    mutating func reset() { pipeline.reset(); time = 0; last = .zero }
}

/// Filtering metrics of a pipeline on a recording, per filtering stage (conventions.md):
/// latency to 90 % of the tilt and shake steps at the replay rate (without noise, and with noise
/// from the recording's longest still segment), jitter on the still segments with attenuation,
/// and lag on the moving segments.
///
/// Stage k is measured at its output *in the chain*: the pipeline's stages 1…k run together, so
/// a later stage's figures include what earlier stages add. The "whole pipeline" figures are those
/// of the last filtering stage, or of the raw acceleration when there is none (latency 1 sample,
/// attenuation 1).
public struct StageMetrics: Sendable {
    /// The still segments found (index ranges into the measured samples).
    public var stillSegments: [Range<Int>]
    /// The still segment whose noise was added to the steps, as (first, last) times in seconds;
    /// `nil` without a still segment.
    public var noiseSegment: ClosedRange<Double>?
    /// Per filtering stage, in pipeline order.
    public var stages: [StageReport]
    /// The whole pipeline.
    public var whole: StageReport

    /// Longest lag searched, seconds.
    public static let maximumLag = 2.0
    /// Longest noise excerpt taken from a still segment, samples.
    public static let maximumNoiseSamples = 6000

    /// Measures `pipeline` (as built, from its initial state) on `samples` delivered at
    /// `sampleRate` Hz.
    ///
    /// - Parameters:
    ///   - detector: finds still segments (the gyroscope test is switched off when `hasGyroscope`
    ///     is false).
    /// - Complexity: O(n × stages × (stages + lag samples)); allocates per-stage output arrays.
    public init(pipeline: Pipeline, samples: [MotionSample], sampleRate: Double,
                hasGyroscope: Bool = true, detector: RestDetector = RestDetector()) {
        var detector = detector
        if !hasGyroscope { detector.useGyroscope = false }
        stillSegments = detector.stillSegments(in: samples)
        let noiseRange = stillSegments.max { $0.count < $1.count }.map { $0.prefix(Self.maximumNoiseSamples) }
        var noise: [SIMD3<Double>] = []
        if let noiseRange, !noiseRange.isEmpty {
            let values = noiseRange.map { samples[$0].acceleration }
            let mean = values.reduce(SIMD3<Double>.zero, +) / Double(values.count)
            noise = values.map { $0 - mean }
            noiseSegment = samples[noiseRange.first!].time ... samples[noiseRange.last!].time
        } else {
            noiseSegment = nil
        }
        let input = samples.map(\.acceleration)
        let times = samples.map(\.time)
        let still = stillSegments
        func measure(_ prefix: Pipeline, signal: StageSignal, name: String) -> StageReport {
            func steps(_ noise: [SIMD3<Double>]) -> StepLatencySamples {
                var tilt = PipelineProbe(pipeline: prefix, signal: signal, sampleRate: sampleRate)
                var shake = tilt
                return StepLatencySamples(
                    tilt: latency90(&tilt, step: .tilt, sampleRate: sampleRate, noise: noise).samples,
                    shake: latency90(&shake, step: .shake, sampleRate: sampleRate, noise: noise).samples)
            }
            var running = prefix
            var output: [SIMD3<Double>] = []
            output.reserveCapacity(samples.count)
            var last = SIMD3<Double>.zero
            for sample in samples {
                var record = ProcessedSample(sample)
                running.process(&record)
                if let value = signal.value(in: record) { last = value }
                output.append(last)
            }
            var jitterMeasurement: JitterMeasurement?
            if !still.isEmpty {
                let result = jitter(output: output, input: input, times: times, segments: still)
                if result.evaluatedSamples > 0 {
                    jitterMeasurement = JitterMeasurement(output: result.jitter, input: result.rawJitter,
                                                          stillSeconds: result.stillSeconds, segments: result.segmentCount)
                }
            }
            let maximumShift = max(1, Int(Self.maximumLag * sampleRate))
            let moving = movingSegments(complementing: still, count: samples.count, minimumLength: maximumShift + 1)
            let lagResult = Poise.lag(output: output, input: input, segments: moving, sampleRate: sampleRate,
                                      maximumShift: maximumShift)
            return StageReport(stage: name, signal: signal, latency90Samples: steps([]),
                               latency90NoisySamples: noise.isEmpty ? nil : steps(noise),
                               jitter: jitterMeasurement, lagMilliseconds: lagResult?.milliseconds)
        }
        var stages: [StageReport] = []
        var lastMeasured: (Int, StageSignal)?
        for (index, stage) in pipeline.stages.enumerated() {
            guard let signal = stage.measuredSignal else { continue }
            stages.append(measure(Pipeline(Array(pipeline.stages[...index])), signal: signal, name: stage.description))
            lastMeasured = (index, signal)
        }
        self.stages = stages
        if lastMeasured != nil, let final = stages.last {
            whole = final
            whole.stage = pipeline.description
        } else {
            whole = measure(Pipeline(), signal: .acceleration, name: "none (raw acceleration)")
        }
    }
}
