import Poise

/// Latency to 90 % for the two standard steps of conventions.md, in samples (k) at the rate the
/// stage runs at; `nil` when the output never reached 90 % within the measured window.
public struct StepLatencySamples: Sendable, Codable, Equatable {
    /// Tilt step: (0, 0, 1 g) → (0, 1 g, 0).
    public var tilt: Int?
    /// Shake step: (0, 0, 1 g) → (0, 0, 1.5 g).
    public var shake: Int?
    public init(tilt: Int?, shake: Int?) { self.tilt = tilt; self.shake = shake }
}

/// Jitter on still segments (conventions.md): RMS of |y − ȳ| with ȳ the centred 1 s moving average.
public struct JitterMeasurement: Sendable, Codable, Equatable {
    /// Output jitter in the signal's unit (g).
    public var output: Double
    /// The raw input's jitter on the same samples, g.
    public var input: Double
    /// input / output (> 1 means the stage smooths).
    public var attenuation: Double
    /// Still time measured, s, and the number of still segments.
    public var stillSeconds: Double
    public var segments: Int

    public init(output: Double, input: Double, stillSeconds: Double, segments: Int) {
        self.output = output; self.input = input
        self.attenuation = output > 0 ? input / output : .infinity
        self.stillSeconds = stillSeconds; self.segments = segments
    }

    /// The measurement of a jitter result, `nil` when no sample was evaluated.
    init?(measured result: JitterResult) {
        guard result.evaluatedSamples > 0 else { return nil }
        self.init(output: result.jitter, input: result.rawJitter, stillSeconds: result.stillSeconds,
                  segments: result.segmentCount)
    }

    enum CodingKeys: String, CodingKey {
        case output, input, attenuation, segments
        case stillSeconds = "still_s"
    }
}

/// The responsiveness and steadiness of one filtering stage (or of the whole pipeline).
public struct StageReport: Sendable, Codable, Equatable {
    /// The stage as written (`lowpass:cutoff=5`), or the whole pipeline.
    public var stage: String
    /// The signal measured.
    public var signal: StageSignal
    /// Latency to 90 % without noise, samples at the replay rate.
    public var latency90Samples: StepLatencySamples
    /// The same with noise from the recording's still segments added to the step input
    /// (`nil` without a still segment).
    public var latency90NoisySamples: StepLatencySamples?
    /// Jitter on the recording's still segments (`nil` without one).
    public var jitter: JitterMeasurement?
    /// Lag on moving segments, ms (`nil` when there is no moving segment).
    public var lagMilliseconds: Double?

    public init(stage: String, signal: StageSignal, latency90Samples: StepLatencySamples,
                latency90NoisySamples: StepLatencySamples?, jitter: JitterMeasurement?, lagMilliseconds: Double?) {
        self.stage = stage; self.signal = signal; self.latency90Samples = latency90Samples
        self.latency90NoisySamples = latency90NoisySamples; self.jitter = jitter; self.lagMilliseconds = lagMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case stage, signal, jitter
        case latency90Samples = "latency90_samples"
        case latency90NoisySamples = "latency90_noisy_samples"
        case lagMilliseconds = "lag_ms"
    }
}

/// Game-loop results in frame mode.
public struct FrameReport: Sendable, Codable, Equatable {
    /// Frame rate, Hz, and frames run.
    public var frameRate: Double
    public var frames: Int
    /// Mean and largest number of samples that arrived between two frames.
    public var meanStackedSamples: Double
    public var maximumStackedSamples: Int
    /// Frame lateness, µs (`nil` at `--speed max`).
    public var latenessMicroseconds: DistributionSummary?
    /// Smoothing in the sensor callback against smoothing at frame time.
    public var comparison: FrameComparison

    enum CodingKeys: String, CodingKey {
        case frames
        case frameRate = "frame_rate_hz"
        case meanStackedSamples = "mean_stacked"
        case maximumStackedSamples = "max_stacked"
        case comparison
        case latenessMicroseconds = "lateness_us"
    }
}

/// The replay report: what was replayed, how each filtering stage responds, and delivery timing.
/// JSON keys are snake_case with units in the names.
public struct ReplayReport: Sendable, Codable, Equatable {
    public var file: String
    public var pipeline: String
    /// Delivery rate in recording time, Hz; the recording's own rate (`nominalSampleRate`); resampling.
    public var sampleRate: Double
    public var recordedRate: Double?
    public var resampled: Bool
    public var antiAliasCutoff: Double?
    /// Speed factor, `nil` for `--speed max`.
    public var speed: Double?
    /// True when the replay was stopped (Ctrl-C) before the end.
    public var stopped: Bool
    /// True when the paced loop ran at real-time priority (`SCHED_FIFO`).
    public var realTimeScheduling = false
    /// The whole pipeline's filtering figures (its last filtering stage in the chain, or the raw
    /// acceleration when there is none): latency to 90 %, jitter, lag.
    public var whole: StageReport
    /// Still segments found in the delivered samples.
    public var stillSegments: Int
    /// The still segment whose noise was added to the noisy steps, [first, last] seconds.
    public var noiseSegment: ClosedRange<Double>?
    /// Per filtering stage, in pipeline order.
    public var stages: [StageReport]
    /// Delivery timing.
    public var timing: ReplayTiming
    /// Game-loop results, in frame mode.
    public var frames: FrameReport?
    /// Gaps longer than `gapLimit` seconds that were shortened to one period (the first
    /// `GapPolicy.keptGaps`), their number and the recording time they spanned, s. `gapLimit` is
    /// nil when gaps were replayed in full.
    public var gapLimit: Double?
    public var gaps: [GapPolicy.Gap] = []
    public var gapCount = 0
    public var skippedSeconds = 0.0
    /// The UDP sink's figures when samples were sent (`--send`).
    public var send: SendReport?
    /// Passes over the recording (`--loop`).
    public var loops = 1

    /// Samples delivered.
    public var samples: Int { timing.samples }
    /// Latency to 90 % of the whole pipeline, samples at `sampleRate`.
    public var latency90Samples: StepLatencySamples { whole.latency90Samples }
    /// Jitter of the whole pipeline on still segments.
    public var jitter: JitterMeasurement? { whole.jitter }

    public init(file: String, pipeline: String, sampleRate: Double, recordedRate: Double?, resampled: Bool,
                antiAliasCutoff: Double?, speed: Double?, stopped: Bool, whole: StageReport, stillSegments: Int,
                noiseSegment: ClosedRange<Double>?, stages: [StageReport], timing: ReplayTiming, frames: FrameReport?) {
        self.file = file; self.pipeline = pipeline; self.sampleRate = sampleRate; self.recordedRate = recordedRate
        self.resampled = resampled; self.antiAliasCutoff = antiAliasCutoff; self.speed = speed
        self.stopped = stopped; self.whole = whole; self.stillSegments = stillSegments; self.noiseSegment = noiseSegment
        self.stages = stages; self.timing = timing; self.frames = frames
    }

    /// The report of a finished replay: the session's plan, the driver's result and the metric
    /// sink's figures (no I/O here).
    init(session: ReplaySession, result: ReplayResult, metrics: StageMetricsSummary, comparison: FrameComparison?) {
        var speed: Double?
        if case .realTime(let factor) = session.request.speed { speed = factor }
        var frames: FrameReport?
        if let frameRate = session.request.frameRate, let comparison {
            frames = FrameReport(frameRate: frameRate, frames: result.frames, meanStackedSamples: result.meanStackedSamples,
                                 maximumStackedSamples: result.maximumStackedSamples,
                                 latenessMicroseconds: result.frameLatenessMicroseconds, comparison: comparison)
        }
        self.init(file: session.request.path, pipeline: session.pipeline.description,
                  sampleRate: session.plan.sampleRate, recordedRate: session.plan.recordedRate,
                  resampled: session.plan.resampled, antiAliasCutoff: session.plan.antiAliasCutoff,
                  speed: speed, stopped: result.stopped, whole: metrics.whole,
                  stillSegments: metrics.stillSegmentCount, noiseSegment: metrics.noiseSegment,
                  stages: metrics.stages, timing: result.timing, frames: frames)
        gapLimit = session.gapPolicy?.limit
        gaps = result.gaps
        gapCount = result.gapCount
        skippedSeconds = result.skippedSeconds
    }

    enum CodingKeys: String, CodingKey {
        case file, pipeline, resampled, speed, stopped, jitter, stages, frames
        case realTimeScheduling = "realtime_scheduling"
        case sampleRate = "sample_rate_hz"
        case recordedRate = "recorded_rate_hz"
        case antiAliasCutoff = "anti_alias_hz"
        case latency90Samples = "latency90_samples"
        case latency90Milliseconds = "latency90_ms"
        case latency90NoisySamples = "latency90_noisy_samples"
        case lagMilliseconds = "lag_ms"
        case whole = "pipeline_metrics"
        case stillSegments = "still_segments"
        case noiseSegment = "noise_segment_s"
        case cpuFraction = "cpu_fraction"
        case gapLimit = "gap_limit_s"
        case gaps
        case gapCount = "gaps_skipped"
        case skippedSeconds = "gap_skipped_s"
        case send, loops
    }

    // Timing fields sit at the top level of the JSON (`lateness_us`, `drift_us`, `samples`): the
    // timing encodes its own keys into the report's object.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(pipeline, forKey: .pipeline)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encodeIfPresent(recordedRate, forKey: .recordedRate)
        try c.encode(resampled, forKey: .resampled)
        try c.encodeIfPresent(antiAliasCutoff, forKey: .antiAliasCutoff)
        if let speed { try c.encode(speed, forKey: .speed) } else { try c.encode("max", forKey: .speed) }
        try c.encode(stopped, forKey: .stopped)
        try c.encode(realTimeScheduling, forKey: .realTimeScheduling)
        try c.encode(latency90Samples, forKey: .latency90Samples)
        try c.encode(["tilt": latency90Samples.tilt.map { Double($0) / sampleRate * 1000 },
                      "shake": latency90Samples.shake.map { Double($0) / sampleRate * 1000 }], forKey: .latency90Milliseconds)
        try c.encodeIfPresent(whole.latency90NoisySamples, forKey: .latency90NoisySamples)
        try c.encodeIfPresent(jitter, forKey: .jitter)
        try c.encodeIfPresent(whole.lagMilliseconds, forKey: .lagMilliseconds)
        try c.encode(whole, forKey: .whole)
        try c.encode(stillSegments, forKey: .stillSegments)
        try c.encodeIfPresent(noiseSegment.map { [$0.lowerBound, $0.upperBound] }, forKey: .noiseSegment)
        try c.encode(stages, forKey: .stages)
        try c.encode(timing.cpuFraction, forKey: .cpuFraction)
        try c.encodeIfPresent(frames, forKey: .frames)
        try c.encodeIfPresent(gapLimit, forKey: .gapLimit)
        try c.encode(gaps, forKey: .gaps)
        try c.encode(gapCount, forKey: .gapCount)
        try c.encode(skippedSeconds, forKey: .skippedSeconds)
        try c.encodeIfPresent(send, forKey: .send)
        try c.encode(loops, forKey: .loops)
        try timing.encode(to: encoder)   // merges its keys into the same object
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = try c.decode(String.self, forKey: .file)
        pipeline = try c.decode(String.self, forKey: .pipeline)
        sampleRate = try c.decode(Double.self, forKey: .sampleRate)
        recordedRate = try c.decodeIfPresent(Double.self, forKey: .recordedRate)
        resampled = try c.decode(Bool.self, forKey: .resampled)
        antiAliasCutoff = try c.decodeIfPresent(Double.self, forKey: .antiAliasCutoff)
        speed = try? c.decode(Double.self, forKey: .speed)
        stopped = try c.decode(Bool.self, forKey: .stopped)
        realTimeScheduling = try c.decodeIfPresent(Bool.self, forKey: .realTimeScheduling) ?? false
        whole = try c.decode(StageReport.self, forKey: .whole)
        stillSegments = try c.decode(Int.self, forKey: .stillSegments)
        noiseSegment = try c.decodeIfPresent([Double].self, forKey: .noiseSegment).flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0] ... $0[1] : nil }
        stages = try c.decode([StageReport].self, forKey: .stages)
        timing = try ReplayTiming(from: decoder)
        frames = try c.decodeIfPresent(FrameReport.self, forKey: .frames)
        gapLimit = try c.decodeIfPresent(Double.self, forKey: .gapLimit)
        gaps = try c.decodeIfPresent([GapPolicy.Gap].self, forKey: .gaps) ?? []
        gapCount = try c.decodeIfPresent(Int.self, forKey: .gapCount) ?? gaps.count
        skippedSeconds = try c.decodeIfPresent(Double.self, forKey: .skippedSeconds) ?? 0
        send = try c.decodeIfPresent(SendReport.self, forKey: .send)
        loops = try c.decodeIfPresent(Int.self, forKey: .loops) ?? 1
    }
}
