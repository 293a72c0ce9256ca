import Poise

/// Filtering metrics of a pipeline on a recording, per filtering stage (conventions.md), one
/// sample at a time in memory that does not grow with the recording: latency to 90 % of the tilt
/// and shake steps at the delivery rate (without noise, and with noise from the longest still
/// segment), jitter on the still segments with attenuation, and lag on the moving segments. The
/// replay report uses it directly; ``StageMetrics`` runs it over an array.
///
/// Stage k is measured at its output *in the chain*: the pipeline's stages 1…k run together, so
/// a later stage's figures include what earlier stages add. The "whole pipeline" figures are those
/// of the last filtering stage, or of the raw acceleration when there is none (latency 1 sample,
/// attenuation 1).
///
/// The accumulator runs no pipeline of its own: the driver runs the one pipeline once per sample,
/// hands each stage's output to `observe(stage:_:)` as it is produced (the same values as running
/// the stage's prefix alone), then the finished record to `add(_:)`. `StillSegmentTracker` judges each sample
/// quiet or not about `window / 2` later; until then the sample waits in a short queue. Then:
/// - a quiet sample goes to each stage's `JitterAccumulator` (the run is kept when the tracker
///   confirms it as a still segment, taken back otherwise), and into the noise excerpt of the
///   current run (its first `maximumNoiseSamples` accelerations; the longest confirmed
///   run's excerpt is kept);
/// - moving segments are the samples between still segments, measured by each stage's
///   `LagAccumulator`. A quiet run is held back (at most `minimumDuration` of samples) until it
///   either lasts `minimumDuration` — then it is a still segment and the moving segment before it
///   ends — or ends sooner, and its samples go to the moving segment in order.
///
/// In frame mode (`addFrame`), frames wait until the samples around their time are judged, then
/// go to the two frame jitter accumulators of `FrameComparison` when their time lies in a still
/// segment (first to last sample time).
///
/// Memory: the tracker's window, the verdict queue (`window / 2` of samples), one jitter window
/// (about 1.5 s) and the lag history (`maximumLag` = 2 s) per measured stage, two noise excerpts
/// of at most `maximumNoiseSamples` vectors, and in frame mode about 1.5 s of frames (at most
/// `maximumWaitingFrames`, so a gap in the recording cannot pile them up). Nothing grows with the
/// number of samples. Per-sample work allocates nothing once the buffers have reached their size.
public struct StageMetricsAccumulator {
    /// The delivery rate the metrics are measured at, Hz.
    public let sampleRate: Double

    /// Longest lag searched, seconds.
    public static let maximumLag = 2.0
    /// Longest noise excerpt taken from a still segment, samples.
    public static let maximumNoiseSamples = 6000

    struct Measured {
        var stageIndex: Int?      // nil: the raw acceleration (no filtering stage)
        var signal: StageSignal
        var name: String
        var prefix: Pipeline
        var axes: AxisMap
    }

    let description: String
    let detector: RestDetector
    let measured: [Measured]
    /// Per pipeline stage: its measured-stage number (or -1), the signal read after it and the map
    /// back to the input's axes (plain values, so reading them per stage copies no pipeline).
    let slots: [Int]
    let stageSignals: [StageSignal?]
    let stageAxes: [AxisMap]
    var tracker: StillSegmentTracker
    var verdicts: [Bool] = []
    var confirmedStarts: [Int] = []
    var stillSegmentCount = 0

    // Samples waiting for their verdict: times, inputs, and per measured stage the outputs.
    var pendingTimes: [Double] = []
    var pendingInputs: [SIMD3<Double>] = []
    var pendingOutputs: [SIMD3<Double>] = []
    var pendingHead = 0
    /// Per measured stage, its output for the sample being processed (in the input's axes).
    var current: [SIMD3<Double>]
    var decided = 0

    var jitters: [JitterAccumulator<SIMD3<Double>>]
    var lags: [LagAccumulator<SIMD3<Double>>]

    // The quiet run being judged.
    var runActive = false
    var runStart = 0
    var runFirst = 0.0
    var runLast = 0.0
    var runCount = 0
    var runLongEnough = false
    var heldInputs: [SIMD3<Double>] = []
    var heldOutputs: [SIMD3<Double>] = []

    // Noise excerpts: the current run's and the longest confirmed segment's.
    var runNoise: [SIMD3<Double>] = []
    var runNoiseTimes = 0.0 ... 0.0
    var bestNoise: [SIMD3<Double>] = []
    var bestNoiseTimes: ClosedRange<Double>?
    var bestCount = 0

    // Frame mode.
    struct Frame {
        var time: Double
        var callback: SIMD3<Double>
        var frameTime: SIMD3<Double>
        var raw: SIMD3<Double>
    }
    var frames: [Frame] = []
    var frameHead = 0
    var callbackJitter = JitterAccumulator<SIMD3<Double>>()
    var frameTimeJitter = JitterAccumulator<SIMD3<Double>>()

    /// Measures `pipeline` (as built, from its initial state) on samples delivered at `sampleRate`
    /// Hz. The stages are kept only as templates for the step responses measured in `finish()`;
    /// the caller runs its own copy of the pipeline on the samples.
    ///
    /// - Parameters:
    ///   - detector: finds still segments (the gyroscope test is switched off when `hasGyroscope`
    ///     is false).
    public init(pipeline: Pipeline, sampleRate: Double, hasGyroscope: Bool = true, detector: RestDetector = RestDetector()) {
        var detector = detector
        if !hasGyroscope { detector.useGyroscope = false }
        self.detector = detector
        self.sampleRate = sampleRate
        description = pipeline.description
        var measured: [Measured] = []
        var slots = Array(repeating: -1, count: pipeline.stages.count)
        for (index, stage) in pipeline.stages.enumerated() {
            guard let signal = stage.measuredSignal else { continue }
            let prefix = Pipeline(Array(pipeline.stages[...index]))
            slots[index] = measured.count
            measured.append(Measured(stageIndex: index, signal: signal, name: stage.description, prefix: prefix,
                                     axes: AxisMap(prefix)))
        }
        if measured.isEmpty {
            measured.append(Measured(stageIndex: nil, signal: .acceleration, name: "none (raw acceleration)",
                                     prefix: Pipeline(), axes: AxisMap(Pipeline())))
        }
        self.measured = measured
        self.slots = slots
        stageSignals = slots.map { $0 >= 0 ? measured[$0].signal : nil }
        stageAxes = slots.map { $0 >= 0 ? measured[$0].axes : AxisMap(Pipeline()) }
        tracker = StillSegmentTracker(detector: detector)
        current = Array(repeating: .zero, count: measured.count)
        jitters = Array(repeating: JitterAccumulator(), count: measured.count)
        lags = Array(repeating: LagAccumulator(maximumShift: Self.maximumShift(sampleRate: sampleRate)),
                     count: measured.count)
        runNoise.reserveCapacity(Self.maximumNoiseSamples)
    }

    /// Samples added so far.
    public var count: Int { tracker.count }

    /// Reads stage `index`'s output from `record`, the record right after that stage ran. The
    /// driver calls it after every stage of the one pipeline it runs (`Pipeline.process(_:observe:)`),
    /// then `add(_:)` with the finished record; stages that are not measured are ignored.
    public mutating func observe(stage index: Int, _ record: ProcessedSample) {
        guard index < slots.count, let signal = stageSignals[index], let value = signal.value(in: record) else { return }
        current[slots[index]] = stageAxes[index].toInput(value)
    }

    /// Adds the next delivered sample once the pipeline has processed it: `record.input` is the
    /// sample as delivered (time in s, acceleration in g, rotation rate in rad/s), and each
    /// measured stage's output is the one last given to `observe(stage:_:)` (a stage that wrote
    /// nothing keeps its previous value).
    public mutating func add(_ record: ProcessedSample) {
        let sample = record.input
        if measured[0].stageIndex == nil { current[0] = sample.acceleration }
        pendingTimes.append(sample.time)
        pendingInputs.append(sample.acceleration)
        pendingOutputs.append(contentsOf: current)
        verdicts.removeAll(keepingCapacity: true)
        let completed = tracker.add(time: sample.time, acceleration: sample.acceleration,
                                    rotationRate: sample.rotationRate, verdicts: &verdicts)
        confirm(completed)
        for quiet in verdicts { decide(quiet: quiet) }
        compactPending()
    }

    /// Runs `pipeline` (the one the accumulator was built for, in its current state) on `sample`,
    /// observing every stage, adds the result and returns it: the measured run and the output are
    /// one pass.
    @discardableResult
    public mutating func add(_ sample: MotionSample, through pipeline: inout Pipeline) -> ProcessedSample {
        var record = ProcessedSample(sample)
        pipeline.process(&record) { index, stage in observe(stage: index, stage) }
        add(record)
        return record
    }

    /// Adds a game-loop frame (frame mode): its time in s, the value the sensor-callback pipeline
    /// gave it, the frame-time pipeline's value, and the raw acceleration it saw (g).
    public mutating func addFrame(time: Double, callback: SIMD3<Double>, frameTime: SIMD3<Double>, raw: SIMD3<Double>) {
        frames.append(Frame(time: time, callback: callback, frameTime: frameTime, raw: raw))
        // Bounded: frames wait for verdicts only across a gap in the samples; the oldest of too
        // many are taken as outside any still segment.
        if frames.count - frameHead > Self.maximumWaitingFrames { takeFrame(inRun: false) }
    }

    /// Most frames waiting for the verdicts of the samples around them (65 s of frames at
    /// 1000 Hz; only a gap in the recording makes more wait).
    public static let maximumWaitingFrames = 1 << 16

    /// Judges the remaining samples and returns the figures (the step latencies are measured here).
    public mutating func finish() -> StageMetricsSummary {
        verdicts.removeAll(keepingCapacity: true)
        confirm(tracker.finish(verdicts: &verdicts))
        for quiet in verdicts { decide(quiet: quiet) }
        if runActive {
            while frameHead < frames.count, frames[frameHead].time <= runLast { takeFrame(inRun: frames[frameHead].time >= runFirst) }
            closeRun()
        }
        frames.removeAll(); frameHead = 0
        for index in lags.indices { lags[index].endSegment() }
        let noise = bestNoise.isEmpty ? [] : Self.meanRemoved(bestNoise)
        var stages: [StageReport] = []
        for (index, stage) in measured.enumerated() {
            let jitterResult = stillSegmentCount > 0 ? jitters[index].result : nil
            stages.append(Self.report(prefix: stage.prefix, signal: stage.signal, name: stage.name,
                                              sampleRate: sampleRate, noise: noise, jitter: jitterResult,
                                              lag: lags[index].result(sampleRate: sampleRate)))
        }
        var whole = stages[stages.count - 1]
        if measured[0].stageIndex == nil {
            stages = []
        } else {
            whole.stage = description
        }
        return StageMetricsSummary(stillSegmentCount: stillSegmentCount, noiseSegment: bestNoise.isEmpty ? nil : bestNoiseTimes,
                                   stages: stages, whole: whole)
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

    /// Jitter of the frames' values on the still segments (frame mode): sensor callback, frame time.
    public var frameJitter: (callback: JitterResult, frameTime: JitterResult) {
        (callbackJitter.result, frameTimeJitter.result)
    }

    // MARK: - Verdicts

    mutating func confirm(_ completed: [StillSegment]) {
        for segment in completed { confirmedStarts.append(segment.indices.lowerBound) }
        stillSegmentCount += completed.count
    }

    /// Handles the verdict of the oldest pending sample.
    mutating func decide(quiet: Bool) {
        let time = pendingTimes[pendingHead]
        let input = pendingInputs[pendingHead]
        let stride = measured.count
        let outputs = pendingHead * stride
        pendingHead += 1
        // Frames before this sample's time: inside the run when it started at or before them and
        // lasts at least until them.
        while frameHead < frames.count, frames[frameHead].time < time {
            let t = frames[frameHead].time
            takeFrame(inRun: runActive && runFirst <= t && (t <= runLast || quiet))
        }
        if quiet {
            if !runActive {
                runActive = true
                runStart = decided
                runFirst = time
                runCount = 0
                runLongEnough = false
                runNoise.removeAll(keepingCapacity: true)
                runNoiseTimes = time ... time
            }
            runLast = time
            runCount += 1
            for index in 0 ..< stride {
                jitters[index].add(time: time, output: pendingOutputs[outputs + index], input: input)
            }
            if runNoise.count < Self.maximumNoiseSamples {
                runNoise.append(input)
                runNoiseTimes = runNoiseTimes.lowerBound ... time
            }
            if !runLongEnough {
                heldInputs.append(input)
                heldOutputs.append(contentsOf: pendingOutputs[outputs ..< outputs + stride])
                // The tracker's own test (`closeRun`): once true, the run is a still segment.
                if runLast - runFirst >= detector.minimumDuration { endMovingSegment() }
            }
        } else {
            if runActive {
                while frameHead < frames.count, frames[frameHead].time <= runLast {
                    takeFrame(inRun: frames[frameHead].time >= runFirst)
                }
                closeRun()
            }
            for index in 0 ..< stride {
                lags[index].add(output: pendingOutputs[outputs + index], input: input)
            }
        }
        decided += 1
    }

    /// The run became a still segment: the moving segment before it ends, its held samples are not moving.
    mutating func endMovingSegment() {
        runLongEnough = true
        for index in lags.indices { lags[index].endSegment() }
        heldInputs.removeAll(keepingCapacity: true)
        heldOutputs.removeAll(keepingCapacity: true)
    }

    mutating func closeRun() {
        let confirmed = confirmedStarts.first == runStart
        if confirmed { confirmedStarts.removeFirst() }
        for index in jitters.indices { jitters[index].endSegment(keep: confirmed) }
        callbackJitter.endSegment(keep: confirmed)
        frameTimeJitter.endSegment(keep: confirmed)
        if confirmed {
            if !runLongEnough { endMovingSegment() }
            if runCount > bestCount {
                bestCount = runCount
                swap(&bestNoise, &runNoise)
                bestNoiseTimes = runNoiseTimes
            }
        } else {
            // Not a still segment: its samples belong to the moving segment, in order.
            let stride = measured.count
            for (offset, input) in heldInputs.enumerated() {
                for index in 0 ..< stride {
                    lags[index].add(output: heldOutputs[offset * stride + index], input: input)
                }
            }
        }
        heldInputs.removeAll(keepingCapacity: true)
        heldOutputs.removeAll(keepingCapacity: true)
        runActive = false
    }

    mutating func takeFrame(inRun: Bool) {
        let frame = frames[frameHead]
        frameHead += 1
        if inRun {
            callbackJitter.add(time: frame.time, output: frame.callback, input: frame.raw)
            frameTimeJitter.add(time: frame.time, output: frame.frameTime, input: frame.raw)
        }
        if frameHead >= 256 && 2 * frameHead >= frames.count {
            frames.removeFirst(frameHead)
            frameHead = 0
        }
    }

    mutating func compactPending() {
        if pendingHead == pendingTimes.count {
            pendingTimes.removeAll(keepingCapacity: true)
            pendingInputs.removeAll(keepingCapacity: true)
            pendingOutputs.removeAll(keepingCapacity: true)
            pendingHead = 0
        } else if pendingHead >= 1024 && 2 * pendingHead >= pendingTimes.count {
            pendingTimes.removeFirst(pendingHead)
            pendingInputs.removeFirst(pendingHead)
            pendingOutputs.removeFirst(pendingHead * measured.count)
            pendingHead = 0
        }
    }
}
