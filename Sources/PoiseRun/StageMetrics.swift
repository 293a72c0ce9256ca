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

/// The linear map a pipeline's non-filtering stages (remapping) apply to the acceleration, found
/// by sending the three unit vectors through them, and its inverse. Step progress and lag compare
/// a stage's output with the raw input, so outputs in remapped axes are first mapped back.
struct AxisMap: Sendable {
    /// Rows of the inverse map; `nil` when the stages leave the axes alone (or the map is singular).
    let inverse: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)?

    init(_ pipeline: Pipeline) {
        let axisStages = Pipeline(pipeline.stages.filter { $0.measuredSignal == nil })
        let units = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        let columns = units.map { unit -> SIMD3<Double> in
            var stages = axisStages
            var record = ProcessedSample(MotionSample(time: 0, acceleration: unit))
            stages.process(&record)
            return record.acceleration
        }
        guard columns != units else { inverse = nil; return }
        // Inverse of the matrix with these columns: rows are cross products over the determinant.
        let (a, b, c) = (columns[0], columns[1], columns[2])
        let determinant = (a * cross(b, c)).sum()
        guard abs(determinant) > 1e-9 else { inverse = nil; return }
        inverse = (cross(b, c) / determinant, cross(c, a) / determinant, cross(a, b) / determinant)
    }

    /// `value` in the input's axes.
    func toInput(_ value: SIMD3<Double>) -> SIMD3<Double> {
        guard let (x, y, z) = inverse else { return value }
        return SIMD3((x * value).sum(), (y * value).sum(), (z * value).sum())
    }
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
            noise = Self.meanRemoved(noiseRange.map { samples[$0].acceleration })
            noiseSegment = samples[noiseRange.first!].time ... samples[noiseRange.last!].time
        } else {
            noiseSegment = nil
        }
        let input = samples.map(\.acceleration)
        let times = samples.map(\.time)
        let still = stillSegments
        func measure(_ prefix: Pipeline, signal: StageSignal, name: String) -> StageReport {
            var running = prefix
            let axes = AxisMap(prefix)
            var output: [SIMD3<Double>] = []
            output.reserveCapacity(samples.count)
            var last = SIMD3<Double>.zero
            for sample in samples {
                var record = ProcessedSample(sample)
                running.process(&record)
                if let value = signal.value(in: record) { last = axes.toInput(value) }
                output.append(last)
            }
            let jitterResult = still.isEmpty ? nil : jitter(output: output, input: input, times: times, segments: still)
            let maximumShift = Self.maximumShift(sampleRate: sampleRate)
            let moving = movingSegments(complementing: still, count: samples.count, minimumLength: maximumShift + 1)
            let lagResult = Poise.lag(output: output, input: input, segments: moving, sampleRate: sampleRate,
                                      maximumShift: maximumShift)
            return Self.report(prefix: prefix, signal: signal, name: name, sampleRate: sampleRate, noise: noise,
                               jitter: jitterResult, lag: lagResult)
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

    /// Largest lag searched at `sampleRate`, samples: `maximumLag × rate` (at least 1).
    static func maximumShift(sampleRate: Double) -> Int { max(1, Int(saturating: Self.maximumLag * sampleRate)) }

    /// One stage's report from its jitter and lag results: adds the step latencies (without noise
    /// and, when `noise` is not empty, with it), measured on `prefix` through `PipelineProbe`.
    static func report(prefix: Pipeline, signal: StageSignal, name: String, sampleRate: Double,
                       noise: [SIMD3<Double>], jitter: JitterResult?, lag: LagResult?) -> StageReport {
        func steps(_ noise: [SIMD3<Double>]) -> StepLatencySamples {
            var tilt = PipelineProbe(pipeline: prefix, signal: signal, sampleRate: sampleRate)
            var shake = tilt
            return StepLatencySamples(
                tilt: latency90(&tilt, step: .tilt, sampleRate: sampleRate, noise: noise).samples,
                shake: latency90(&shake, step: .shake, sampleRate: sampleRate, noise: noise).samples)
        }
        return StageReport(stage: name, signal: signal, latency90Samples: steps([]),
                           latency90NoisySamples: noise.isEmpty ? nil : steps(noise),
                           jitter: jitter.flatMap(JitterMeasurement.init(measured:)), lagMilliseconds: lag?.milliseconds)
    }


    /// `values` minus their mean (the noise excerpt added to the steps).
    static func meanRemoved(_ values: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let mean = values.reduce(SIMD3<Double>.zero, +) / Double(values.count)
        return values.map { $0 - mean }
    }

}
