import Poise
import PoiseRecording

/// Everything `poise replay` asks for, in library terms.
public struct ReplayRequest: Sendable {
    /// Recording path (any format `Recording.load` reads).
    public var path: String
    /// Pipeline spec (`lowpass:cutoff=5 | gravity`); `none` or empty for no stages.
    public var pipeline: String
    /// Delivery rate (default: the recording's own timestamps).
    public var rate: ReplayRate
    /// Pacing speed (default real time).
    public var speed: ReplaySpeed
    /// Game-loop frame rate in Hz, or `nil`.
    public var frameRate: Double?
    /// Output CSV path, or `nil` for no output file.
    public var outputPath: String?
    /// How to read the recording.
    public var readOptions: ReadOptions
    /// The stages the spec may name.
    public var catalog: StageCatalog
    /// Run the paced loop at real-time priority (`SCHED_FIFO`) when permitted (default true).
    public var realTimePriority: Bool
    /// Skip gaps longer than this many seconds of recording time (`GapPolicy`); `nil` (default):
    /// `GapPolicy.defaultLimit` for the delivery rate, `.infinity`: replay every gap in full.
    public var gapLimit: Double?
    /// Where to send every processed sample (`udp://HOST:PORT`), or `nil`; and in which format.
    public var sendTarget: String?
    public var sendFormat: UDPSender.Format
    /// Passes over the recording (1 … `ReplaySession.maximumLoops`); each pass continues the
    /// time line (`LoopedSamples`).
    public var loops: Int

    public init(path: String, pipeline: String = "none", rate: ReplayRate = .native,
                speed: ReplaySpeed = .realTime(1), frameRate: Double? = nil, outputPath: String? = nil,
                readOptions: ReadOptions = ReadOptions(), catalog: StageCatalog = .standard,
                realTimePriority: Bool = true, gapLimit: Double? = nil, sendTarget: String? = nil,
                sendFormat: UDPSender.Format = .csv, loops: Int = 1) {
        self.loops = loops
        self.gapLimit = gapLimit
        self.sendTarget = sendTarget; self.sendFormat = sendFormat
        self.path = path; self.pipeline = pipeline; self.rate = rate; self.speed = speed
        self.frameRate = frameRate; self.outputPath = outputPath
        self.readOptions = readOptions; self.catalog = catalog
        self.realTimePriority = realTimePriority
    }
}

/// A snapshot for a live status line.
public struct ReplayProgress: Sendable, Equatable {
    /// Samples delivered so far and in total.
    public var delivered: Int
    public var total: Int
    /// Recording time replayed and the recording's duration, s.
    public var recordingSeconds: Double
    public var durationSeconds: Double
    /// Delivered samples per wall-clock second since the last snapshot.
    public var rate: Double
    /// Lateness of the latest sample, µs (`nil` at `--speed max`).
    public var latenessMicroseconds: Double?
    /// Late samples so far.
    public var lateSamples: Int
}

/// A prepared replay: recording checked, plan made and pipelines built, so every user error in the
/// file or the request is reported before anything runs. `run` does the replay and returns the
/// report.
///
/// Nothing holds the recording. `init` runs the pre-scan (`RecordingScan`): pacing, resampling and
/// the filters' coefficients need the recording's median rate before the first sample is
/// delivered, and a paced replay should not fail halfway on a bad row, so every row is checked
/// up front. `run` then reads the file once more and feeds every sink in that one pass: the output
/// file, the progress line and the report's metrics (`StageMetricsAccumulator`). Memory does not
/// grow with the recording's length.
public struct ReplaySession: Sendable {
    /// The request as given.
    public let request: ReplayRequest
    /// The recording's layout, sample count, time span and median rate.
    public let scan: RecordingScan
    /// Rate, resampling and checks.
    public let plan: ReplayPlan
    /// The sensor-callback pipeline (built for `plan.sampleRate`).
    public let pipeline: Pipeline
    /// The frame-time pipeline (built for the frame rate), in frame mode.
    public let framePipeline: Pipeline?
    /// How long gaps are shortened (`nil` when every gap is replayed in full).
    public let gapPolicy: GapPolicy?
    /// The options the file is read with (the request's, with `--rate` as the row rate of a file
    /// without a time column).
    let readOptions: ReadOptions
    /// The path read: the request's, or for `-` the copy of standard input (`InputSpools`), which
    /// the pre-scan and the delivery both read.
    let readPath: String

    /// Most game-loop frames per recorded sample beyond the first `minimumFrameAllowance`.
    public static let framesPerSample = 20
    public static let minimumFrameAllowance = 1_000_000
    /// Most passes `loops` may ask for.
    public static let maximumLoops = 1_000_000

    /// Reads the recording through once (keeping no samples), plans the delivery and builds the
    /// pipelines.
    ///
    /// - Throws: `RecordingError` (file, line, column), `ReplayError`, `SpecError`.
    public init(_ request: ReplayRequest) throws {
        if let frameRate = request.frameRate, !(frameRate > 0 && frameRate.isFinite) {
            throw ReplayError("frame rate \(frameRate) Hz must be a positive number")
        }
        guard (1 ... Self.maximumLoops).contains(request.loops) else {
            throw ReplayError("loop count \(request.loops) must be 1–\(Self.maximumLoops)")
        }
        self.request = request
        var readOptions = request.readOptions
        if case .fixed(let hz) = request.rate, readOptions.sampleRate == nil, hz > 0, hz.isFinite {
            readOptions.sampleRate = hz  // times the rows of a file without a time column
        }
        self.readOptions = readOptions
        readPath = request.path == "-" ? try InputSpools.standardInput() : request.path
        scan = try RecordingScan(path: readPath, options: readOptions)
        // The report measures the acceleration (filter latency, jitter): a file without an
        // accelerometer would be measured as zeros.
        try scan.schema.require([.accelerometer], file: request.path, for: "replay (its report measures the acceleration)")
        try SampleRateCheck.check(rate: scan.nominalRate, schema: scan.schema, file: request.path)
        plan = try ReplayPlan(recordedRate: scan.schema.hasTime ? scan.nominalRate : nil, sampleCount: scan.sampleCount,
                              hasTimestamps: scan.schema.hasTime, rate: request.rate, speed: request.speed)
        if let frameRate = request.frameRate, let first = scan.firstTime, let last = scan.lastTime {
            // The game loop runs over the whole time span: checked before it runs, so a span of
            // nanoseconds read as seconds is an error, not hours of frames.
            let frames = ((last - first) * frameRate).rounded(.down) * Double(request.loops)
            let allowed = Swift.max(Self.minimumFrameAllowance, Self.framesPerSample * scan.sampleCount * request.loops)
            guard frames.isFinite, frames <= Double(allowed) else {
                throw ReplayError("\(request.path): a \(frameRate) Hz game loop over \(last - first) s of recording runs \(frames) frames, more than the \(allowed) allowed for \(scan.sampleCount) samples; are the times in seconds?")
            }
        }
        if let limit = request.gapLimit, !(limit > 0) {
            throw ReplayError("gap limit \(limit) s must be a positive number of seconds")
        }
        let limit = request.gapLimit ?? GapPolicy.defaultLimit(rate: plan.sampleRate)
        gapPolicy = limit.isFinite && scan.schema.hasTime ? GapPolicy(limit: limit, replacement: 1 / plan.sampleRate) : nil
        let magnetometer = scan.schema.hasMagnetometer, gyroscope = scan.schema.hasGyroscope
        pipeline = try request.catalog.pipeline(request.pipeline,
                                                context: StageContext(sampleRate: plan.sampleRate, hasMagnetometer: magnetometer,
                                                                      hasGyroscope: gyroscope))
        framePipeline = try request.frameRate.map {
            try request.catalog.pipeline(request.pipeline, context: StageContext(sampleRate: $0, hasMagnetometer: magnetometer,
                                                                                 hasGyroscope: gyroscope))
        }
    }

    /// Replays the recording through the pipeline, writing the output file if asked.
    ///
    /// - Parameters:
    ///   - clock: the pacing clock (`MonotonicClock()` for real time).
    ///
    /// Sinks fed as samples are delivered: the output CSV (`outputPath`), the UDP sender
    /// (`sendTarget`, one datagram per sample or frame), the progress callback and the metrics.
    ///   - shouldStop: polled often; `true` stops cleanly (Ctrl-C). The report covers what was
    ///     delivered and the output file is still completed.
    ///   - progress: called about every 0.25 s of wall time.
    ///   - delivered: called once delivery is over and the output file is complete, before the
    ///     report's step responses are computed. The CLI gives Ctrl-C its default meaning back
    ///     here, so a second Ctrl-C quits at once.
    /// - Throws: `ReplayError` when the output file cannot be written; `RecordingError` when the
    ///   file fails to read during delivery (it changed since `init` checked it). The output file is then not created (its temporary file is removed).
    @_specialize(exported: true, where Timer == MonotonicClock)
    public func run<Timer: PacingClock>(clock timer: Timer, shouldStop: () -> Bool = { false },
                                        progress: (ReplayProgress) -> Void = { _ in },
                                        delivered: () -> Void = {}) throws -> ReplayReport {
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: scan.schema.hasMagnetometer,
                                    gyroscope: scan.schema.hasGyroscope)
        columns.magneticFieldIsArbitrary = scan.schema.magneticFieldIsArbitrary
        var writer: RecordCSVWriter? = nil
        if let path = request.outputPath {
            do { writer = try RecordCSVWriter(path: path, columns: columns, frameOutputs: framePipeline?.outputs) }
            catch let error as RecordingError { throw ReplayError(error.description) }
        }
        let sender = try request.sendTarget.map {
            try UDPSender(target: $0, format: request.sendFormat,
                          lines: RecordLines(columns: columns, frameOutputs: self.framePipeline?.outputs))
        }
        let outputs = RecordOutputs(writer: writer, sender: sender, frameMode: framePipeline != nil)
        let total = plan.deliveredCount(sampleCount: scan.sampleCount, firstTime: scan.firstTime, lastTime: scan.lastTime)
            * request.loops
        // The delivery pass: the file's second and last read (the first was the pre-scan).
        let recording = RecordingSamples(try RecordingSources.open(path: readPath, options: readOptions),
                                         path: readPath, options: readOptions)
        let samples = LoopedSamples(plan.deliveredSamples(recording, gapLimit: gapPolicy?.limit), passes: request.loops,
                                    period: 1 / plan.sampleRate)
        let first = scan.firstTime ?? 0
        let duration = ((scan.lastTime ?? first) - first + 1 / plan.sampleRate) * Double(request.loops) - 1 / plan.sampleRate
        let options = ReplayOptions(speed: request.speed, frameRate: request.frameRate, lateThreshold: 1 / plan.sampleRate,
                                    gapPolicy: gapPolicy)
        var run = Run(source: SequenceSource(samples, path: request.path, schema: scan.schema), pipeline: pipeline,
                      framePipeline: framePipeline, clock: PacedClock(timer: timer, options: options))
        // The metric sink reads every filtering stage's output as the one pipeline runs, then
        // takes the finished record; frames run on the recording's time line, so a paced replay's
        // frames are those of a `--speed max` one.
        let signal = pipeline.stages.last { $0.measuredSignal != nil }?.measuredSignal ?? .acceleration
        let metrics = StageMetricsSink(StageMetricsAccumulator(pipeline: pipeline, sampleRate: plan.sampleRate,
                                                               hasGyroscope: scan.schema.hasGyroscope),
                                       frameSignal: signal)
        let paced = request.speed != .maximum
        // Real-time priority only while pacing, never for `--speed max`.
        let scheduling = paced && request.realTimePriority ? RealTimeScheduling.raise() : nil
        let ran = try withoutActuallyEscaping(progress) { progress in
            var sinks = SinkPair(outputs, SinkPair(metrics, SinkPair(
                ReplayTimingSink(options: options, expectedCount: total),
                ReplayProgressSink(total: total, first: first, duration: duration, paced: paced,
                                   lateThreshold: Int64(saturating: (1e9 / plan.sampleRate).rounded()), report: progress))))
            return try run.run(into: &sinks, shouldStop: shouldStop)
        }
        scheduling?.restore()
        if let error = recording.error { outputs.abandonFile(); throw error }
        do { try outputs.finishFile() } catch let error as RecordingError { throw ReplayError(error.description) }
        delivered()
        var accumulator = ran.summary.1.0
        let summary = accumulator.finish()
        var comparison: FrameComparison?
        if let frameRate = request.frameRate, let frameTemplate = self.framePipeline {
            let jitter = accumulator.frameJitter
            comparison = FrameComparison(pipeline: self.pipeline, framePipeline: frameTemplate, signal: signal,
                                         sampleRate: plan.sampleRate, frameRate: frameRate,
                                         callbackJitter: jitter.callback, frameTimeJitter: jitter.frameTime)
        }
        var report = ReplayReport(session: self, result: ran.summary.1.1.0.withGaps(of: run.clock), metrics: summary,
                                  comparison: comparison)
        report.realTimeScheduling = scheduling != nil
        report.send = outputs.takeSendReport()
        report.loops = request.loops
        return report
    }
}
