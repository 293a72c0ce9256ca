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

/// The real-time clock of a run: delivers sample i at s_i = start + (t_i − t₀)/speed, computed
/// from absolute deadlines (never by accumulating sleeps, so there is no drift), and optionally
/// runs a game loop at its own frame rate on the recording's time line.
///
/// Nothing is ever dropped: a late sample is delivered as soon as possible and counted as late.
/// Timestamps that go backwards or repeat are delivered in file order at once (their deadline has
/// passed). Gaps longer than `ReplayOptions.gapPolicy`'s limit are shortened (`gaps`). At
/// `ReplaySpeed.maximum` nothing is waited for, but frames still run on the recording's time line.
/// The timer is a generic parameter: `MonotonicClock` for real pacing, a scripted clock in tests.
/// The stop request is polled before every sample and frame and after every wait slice.
public struct PacedClock<Timer: PacingClock>: RunClock {
    /// The timer used for waiting and for all timing.
    public var timer: Timer
    /// Pacing configuration (`lateThreshold` is the timing sink's, `ReplayTimingSink`).
    public let options: ReplayOptions
    /// Gaps shortened so far (the first `GapPolicy.keptGaps`), how many, and the recording time
    /// they spanned, s.
    public private(set) var gaps: [GapPolicy.Gap] = []
    public private(set) var gapCount = 0
    public private(set) var gapSeconds = 0.0
    /// Frames run so far.
    public private(set) var frames = 0

    let isPaced: Bool
    let speed: Double
    let slice: Int64
    /// `timer.now()` at `start()`, and the deadline of recording offset 0 (one lead time later).
    var begin: Int64 = 0
    var origin: Int64 = 0
    var t0: Double?
    /// Recording time taken out of the time line by gaps so far, the previous sample's time, and
    /// the latest sample's offset on the shortened time line, s.
    var skipped = 0.0
    var previousTime: Double?
    var lastOffset = 0.0

    public init(timer: Timer, options: ReplayOptions = ReplayOptions()) {
        self.timer = timer; self.options = options
        switch options.speed {
        case .realTime(let factor): isPaced = true; speed = factor
        case .maximum: isPaced = false; speed = 1
        }
        slice = Swift.max(Int64(1_000_000), Int64(saturating: options.waitSlice * 1e9))
    }

    public var hasFrames: Bool { options.frameRate != nil }
    public var paces: Bool { isPaced }
    public var pollsStop: Bool { true }

    public mutating func start() {
        begin = timer.now()
        origin = isPaced ? Self.adding(begin, Int64(saturating: (Swift.max(0, options.leadTime) * 1e9).rounded())) : begin
    }

    public mutating func now() -> Int64 { timer.now() }

    public mutating func elapsed() -> Int64 { timer.now() - begin }

    /// Scheduled time for recording-time offset `offset` s (clamped: an offset of decades, e.g.
    /// nanoseconds read as seconds, is due at `deadlineLimit`).
    func deadline(_ offset: Double) -> Int64 { Self.adding(origin, Int64(saturating: (offset / speed * 1e9).rounded())) }

    /// The sample's deadline; notes a gap before it. The offset is kept for `deliver`.
    public mutating func due(_ sample: MotionSample, index: Int) -> Int64 {
        deadline(offset(of: sample).offset)
    }

    /// The sample's offset on the shortened time line and the gap shift that applies from it on.
    mutating func offset(of sample: MotionSample) -> (offset: Double, shift: Double) {
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
        return (offset, shift)
    }

    /// Waits for `deadline` in slices; false when a stop was requested meanwhile.
    mutating func wait(until deadline: Int64, shouldStop: () -> Bool) -> Bool {
        while true {
            let now = timer.now()
            if deadline - now > slice {
                timer.sleep(until: now + slice)
                if shouldStop() { return false }
            } else {
                timer.sleep(until: deadline)
                return true
            }
        }
    }

    /// Runs the next frame (waiting for it when paced); false when stopped.
    mutating func nextFrame(rate: Double, first: Double, shouldStop: () -> Bool,
                            frame: (FrameTick) throws -> Void) rethrows -> Bool {
        if shouldStop() { return false }
        let frameOffset = Double(frames + 1) / rate
        let scheduled = deadline(frameOffset)
        if isPaced, !wait(until: scheduled, shouldStop: shouldStop) { return false }
        frames += 1
        try frame(FrameTick(index: frames, time: first + skipped + frameOffset, scheduled: scheduled, delivered: timer.now()))
        return true
    }

    public mutating func deliver(_ sample: MotionSample, index: Int, shouldStop: () -> Bool,
                                 frame: (FrameTick) throws -> Void) rethrows -> Int64? {
        if shouldStop() { return nil }
        let (offset, shift) = offset(of: sample)
        // Frames due before this sample's time run first (a sample stamped exactly at a frame's
        // time is delivered before that frame).
        if let frameRate = options.frameRate, let first = t0 {
            while Double(frames + 1) / frameRate < offset {
                guard try nextFrame(rate: frameRate, first: first, shouldStop: shouldStop, frame: frame) else { return nil }
            }
        }
        skipped = shift
        let scheduled = deadline(offset)
        if isPaced, !wait(until: scheduled, shouldStop: shouldStop) { return nil }
        return scheduled
    }

    /// Frames up to the last sample's time, then one more if samples are still stacked up.
    public mutating func finish(pending: Bool, shouldStop: () -> Bool, frame: (FrameTick) throws -> Void) rethrows -> Bool {
        guard let frameRate = options.frameRate, let first = t0 else { return true }
        var pending = pending
        while Double(frames + 1) / frameRate <= lastOffset || pending {
            guard try nextFrame(rate: frameRate, first: first, shouldStop: shouldStop, frame: frame) else { return false }
            pending = false
        }
        return true
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
