import Poise

/// How fast to replay.
public enum ReplaySpeed: Sendable, Equatable {
    /// Paced in real time, `factor` times faster than recorded (1 = as recorded; > 0).
    case realTime(Double)
    /// As fast as possible: no waiting, no lateness statistics.
    case maximum
}

/// How the replay engine paces samples and frames. Configuration only; the engine keeps its state
/// elsewhere.
public struct ReplayOptions: Sendable, Equatable {
    /// Pacing speed (default real time, factor 1).
    public var speed: ReplaySpeed
    /// Game-loop frame rate in Hz, or `nil` for no frames. Frames run on the recording's time
    /// line: frame j (j ≥ 1) is due at recording time t₀ + j / frameRate, so a frame simulation
    /// gives the same frames at any speed, `maximum` included.
    public var frameRate: Double?
    /// A sample later than this many seconds counts as late (default 0.01 s, one period at
    /// 100 Hz; set it to the replay's sample period).
    public var lateThreshold: Double
    /// Longest single wait in seconds (default 0.05 s): long gaps are waited for in slices so a
    /// stop request is noticed quickly.
    public var waitSlice: Double
    /// Seconds between starting the replay and the first sample's deadline (default 0.001 s), so
    /// the first sample is waited for like every other one and its lateness is comparable (drift
    /// = e_last − e_first would otherwise include one wake-up delay).
    public var leadTime: Double
    /// Gaps longer than its limit are shortened to its replacement interval, at any speed: not
    /// waited for, and no frames run in them (frame times stay on the recording's clock). `nil`
    /// (default): every interval is replayed as recorded.
    public var gapPolicy: GapPolicy?

    public init(speed: ReplaySpeed = .realTime(1), frameRate: Double? = nil,
                lateThreshold: Double = 0.01, waitSlice: Double = 0.05, leadTime: Double = 0.001,
                gapPolicy: GapPolicy? = nil) {
        self.speed = speed; self.frameRate = frameRate
        self.lateThreshold = lateThreshold; self.waitSlice = waitSlice; self.leadTime = leadTime
        self.gapPolicy = gapPolicy
    }
}

/// When one sample was delivered. Times in ns on the engine clock's time line.
public struct SampleDelivery: Sendable, Equatable {
    /// 0-based sample index.
    public var index: Int
    /// Scheduled delivery time s_i, ns (equal to `delivered` for `--speed max`).
    public var scheduled: Int64
    /// Actual delivery time a_i, ns (when the sample was handed to the pipeline).
    public var delivered: Int64
    /// Pipeline processing time, ns.
    public var cost: Int64
    /// Lateness e_i = a_i − s_i, ns.
    public var lateness: Int64 { delivered - scheduled }

    public init(index: Int, scheduled: Int64, delivered: Int64, cost: Int64) {
        self.index = index; self.scheduled = scheduled; self.delivered = delivered; self.cost = cost
    }
}

/// One game-loop frame: the latest state when the frame ran.
public struct FrameDelivery: Sendable, Equatable {
    /// 1-based frame number.
    public var index: Int
    /// Recording time the frame represents, s (t₀ + index / frameRate).
    public var time: Double
    /// Scheduled and actual wall time, ns.
    public var scheduled: Int64
    public var delivered: Int64
    /// Samples that arrived since the previous frame (0 when the frame rate exceeds the sample
    /// rate; more than 1 when samples stack up).
    public var stackedSamples: Int
    /// The latest record of the sensor-callback pipeline (smoothing on every sample), `nil`
    /// before the first sample.
    public var latest: ProcessedSample?
    /// The frame-time pipeline's output: the latest raw sample run once per frame through the
    /// frame pipeline (smoothing at frame time), `nil` without a frame pipeline or sample.
    public var frameSmoothed: ProcessedSample?
}

/// What a replay produced besides the per-sample callbacks.
public struct ReplayResult: Sendable, Equatable {
    /// Delivery timing statistics.
    public var timing: ReplayTiming
    /// Frames run (0 without `frameRate`).
    public var frames: Int
    /// Mean and largest number of samples stacked up between frames.
    public var meanStackedSamples: Double
    public var maximumStackedSamples: Int
    /// Frame lateness in µs (`nil` without frames or for `--speed max`).
    public var frameLatenessMicroseconds: DistributionSummary?
    /// True when `shouldStop` ended the replay early.
    public var stopped: Bool
    /// Gaps shortened by `ReplayOptions.gapPolicy` (the first `GapPolicy.keptGaps`), how many
    /// there were, and the recording time they spanned in all, s.
    public var gaps: [GapPolicy.Gap] = []
    public var gapCount = 0
    public var skippedSeconds = 0.0
}

/// The real-time replay engine: delivers samples to a pipeline at s_i = start + (t_i − t₀)/speed,
/// computed from absolute deadlines (never by accumulating sleeps, so there is no drift), and
/// optionally runs a game loop at its own frame rate.
///
/// Nothing is ever dropped: a late sample is delivered as soon as possible and counted as late.
/// Timestamps that go backwards or repeat are delivered in file order at once (their deadline has
/// passed). The clock is a generic parameter: `MonotonicClock` for real pacing, a scripted clock
/// in tests.
public struct Replayer<Clock: PacingClock> {
    /// The clock used for waiting and for all timing.
    public var clock: Clock
    /// Pacing configuration.
    public var options: ReplayOptions

    public init(clock: Clock, options: ReplayOptions = ReplayOptions()) {
        self.clock = clock; self.options = options
    }

    /// Replays `samples` through `pipeline`.
    ///
    /// - Parameters:
    ///   - samples: in delivery order, times in seconds.
    ///   - pipeline: the sensor-callback pipeline, run on every sample.
    ///   - framePipeline: with `frameRate`, a pipeline run once per frame on the latest raw sample
    ///     (smoothing at frame time; build it with the frame rate as its sample rate).
    ///   - expectedCount: samples to reserve statistics room for (0 if unknown).
    ///   - shouldStop: polled before each sample and during long waits; `true` ends the replay
    ///     (the statistics cover what was delivered).
    ///   - observe: called after each stage of `pipeline` with the stage's index and the record
    ///     as that stage left it (metric sinks read intermediate signals here, so the pipeline
    ///     runs once per sample); its time counts in the processing cost.
    ///   - onSample: called with each processed record and its delivery timing.
    ///   - onFrame: called with each frame (pass `{ _ in }` without frames; no default, because a
    ///     defaulted closure would make every call count as throwing).
    public mutating func run<Samples: Sequence>(
        _ samples: Samples,
        through pipeline: inout Pipeline,
        framePipeline: inout Pipeline?,
        expectedCount: Int = 0,
        shouldStop: () -> Bool = { false },
        observe: (Int, ProcessedSample) -> Void = { _, _ in },
        onSample: (ProcessedSample, SampleDelivery) throws -> Void,
        onFrame: (FrameDelivery) throws -> Void
    ) rethrows -> ReplayResult where Samples.Element == MotionSample {
        let paced: Bool
        let speed: Double
        switch options.speed {
        case .realTime(let factor): paced = true; speed = factor
        case .maximum: paced = false; speed = 1
        }
        var timing = TimingAccumulator(lateThreshold: Int64(saturating: (options.lateThreshold * 1e9).rounded()),
                                       scheduled: paced, expected: expectedCount)
        var frameLateness = ValueCollector(expected: 0)
        let slice = Swift.max(Int64(1_000_000), Int64(saturating: options.waitSlice * 1e9))

        let cpuStart = processCPUTime()
        let begin = clock.now()
        let start = paced ? Self.adding(begin, Int64(saturating: (Swift.max(0, options.leadTime) * 1e9).rounded())) : begin
        var t0: Double?
        var lastOffset = 0.0
        var index = 0
        var stopped = false
        var frames = 0
        var stacked = 0
        var stackedTotal = 0
        var stackedMaximum = 0
        var latest: ProcessedSample?
        var latestRaw: MotionSample?
        // Gaps: recording time taken out of the time line so far, and the previous sample's time.
        var skipped = 0.0
        var previousTime: Double?
        var gaps: [GapPolicy.Gap] = []
        var gapCount = 0
        var gapSeconds = 0.0

        /// Scheduled wall time for recording-time offset `offset` seconds (clamped: an offset
        /// of decades, e.g. nanoseconds read as seconds, is due at `deadlineLimit`).
        func deadline(_ offset: Double) -> Int64 { Self.adding(start, Int64(saturating: (offset / speed * 1e9).rounded())) }

        /// Waits for `deadline` in slices; false when a stop was requested meanwhile.
        func wait(until deadline: Int64) -> Bool {
            while true {
                let now = clock.now()
                if deadline - now > slice {
                    clock.sleep(until: now + slice)
                    if shouldStop() { return false }
                } else {
                    clock.sleep(until: deadline)
                    return true
                }
            }
        }

        /// Runs frame `frames + 1`.
        func runFrame(_ time: Double, scheduled: Int64) throws {
            frames += 1
            let delivered = clock.now()
            var smoothed: ProcessedSample?
            if let raw = latestRaw, framePipeline != nil {
                var record = ProcessedSample(raw)
                framePipeline!.process(&record)
                smoothed = record
            }
            if paced { frameLateness.add(delivered - scheduled) }
            stackedTotal += stacked
            stackedMaximum = Swift.max(stackedMaximum, stacked)
            try onFrame(FrameDelivery(index: frames, time: time, scheduled: paced ? scheduled : delivered,
                                      delivered: delivered, stackedSamples: stacked,
                                      latest: latest, frameSmoothed: smoothed))
            stacked = 0
        }

        for sample in samples {
            if shouldStop() { stopped = true; break }
            let first = t0 ?? sample.time
            t0 = first
            var shift = skipped
            if let policy = options.gapPolicy, let previous = previousTime, sample.time - previous > policy.limit {
                shift += sample.time - previous - policy.replacement
                gapCount += 1
                gapSeconds += sample.time - previous
                if gaps.count < GapPolicy.keptGaps { gaps.append(GapPolicy.Gap(start: previous, end: sample.time)) }
            }
            previousTime = sample.time
            let offset = sample.time - first - shift
            lastOffset = offset
            // Frames due before this sample's time run first (a sample stamped exactly at a
            // frame's time is delivered before that frame).
            if let frameRate = options.frameRate {
                while Double(frames + 1) / frameRate < offset {
                    if shouldStop() { stopped = true; break }
                    let frameOffset = Double(frames + 1) / frameRate
                    let due = deadline(frameOffset)
                    if paced, !wait(until: due) { stopped = true; break }
                    try runFrame(first + skipped + frameOffset, scheduled: due)
                }
                if stopped { break }
            }
            skipped = shift
            var scheduled = deadline(offset)
            if paced, !wait(until: scheduled) { stopped = true; break }
            let delivered = clock.now()
            if !paced { scheduled = delivered }
            var record = ProcessedSample(sample)
            pipeline.process(&record, observe: observe)
            let cost = clock.now() - delivered
            timing.record(scheduled: scheduled, delivered: delivered, cost: cost)
            latest = record
            latestRaw = sample
            stacked += 1
            try onSample(record, SampleDelivery(index: index, scheduled: scheduled, delivered: delivered, cost: cost))
            index += 1
        }
        // Frames up to the last sample's time, then one more if samples are still stacked up.
        if let frameRate = options.frameRate, !stopped, let first = t0 {
            while !stopped, Double(frames + 1) / frameRate <= lastOffset || stacked > 0 {
                if shouldStop() { stopped = true; break }
                let frameOffset = Double(frames + 1) / frameRate
                let due = deadline(frameOffset)
                if paced, !wait(until: due) { stopped = true; break }
                try runFrame(first + skipped + frameOffset, scheduled: due)
            }
        }
        let wall = clock.now() - begin
        let cpu = processCPUTime() - cpuStart
        return ReplayResult(timing: timing.timing(wall: wall, cpu: cpu),
                            frames: frames,
                            meanStackedSamples: frames > 0 ? Double(stackedTotal) / Double(frames) : 0,
                            maximumStackedSamples: stackedMaximum,
                            frameLatenessMicroseconds: frameLateness.summary(scale: 1e-3),
                            stopped: stopped, gaps: gaps, gapCount: gapCount, skippedSeconds: gapSeconds)
    }

    /// Latest (and, negated, earliest) deadline, ns: about 73 years from the clock's origin, so
    /// differences of deadlines and clock readings (lateness, drift) cannot overflow either.
    static var deadlineLimit: Int64 { Int64.max / 4 }

    /// `a + b` clamped to ±`deadlineLimit` instead of trapping.
    static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { return b < 0 ? -deadlineLimit : deadlineLimit }
        return Swift.min(Swift.max(sum, -deadlineLimit), deadlineLimit)
    }
}
