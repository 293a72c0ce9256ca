import Foundation
import Poise
import PoiseRecording

/// Everything `poise live` asks for, in library terms.
public struct LiveRequest: Sendable {
    /// `-` (standard input) or `udp://[HOST]:PORT` to listen on (see `LiveFeed`).
    public var source: String
    /// Pipeline spec (`fusion:9d | tilt`); `none` for no stages.
    public var pipeline: String
    /// The stream's sample rate in Hz for the stages' coefficients; `nil`: the median interval
    /// of the first `LiveSession.rateSamples` samples.
    public var sampleRate: Double?
    /// Output CSV path (`-`: standard output), or `nil`. Written in place as the samples come (a
    /// regular file is created or truncated when the stream's header has been read, and flushed
    /// about every 0.25 s, when the stream pauses for 0.1 s and at the end; anything else is
    /// flushed after every sample), so
    /// whatever ends the run, it holds every sample processed until then.
    public var outputPath: String?
    /// Where to send every processed sample (`udp://HOST:PORT`), and in which format.
    public var sendTarget: String?
    public var sendFormat: UDPSender.Format
    /// How to read the stream's rows (time unit, Apple sign).
    public var readOptions: ReadOptions
    /// For a UDP source, poll without sleeping through a bounded window around each datagram's
    /// predicted arrival (`LiveFeed`'s `spin`): lower latency for some CPU.
    public var spin: Bool
    /// Ends the run after this much wall time from its start, s (`nil`: no limit).
    public var duration: Double?
    /// Ends the run once this many bad inputs were left out (lines and datagrams the feed left
    /// out, `LiveBadInput`, plus rows the reader dropped); `nil`: never (bad input is counted and
    /// skipped).
    public var maximumBadInputs: Int?

    public init(source: String, pipeline: String = "none", sampleRate: Double? = nil, outputPath: String? = nil,
                sendTarget: String? = nil, sendFormat: UDPSender.Format = .csv, readOptions: ReadOptions = ReadOptions(),
                spin: Bool = true, duration: Double? = nil, maximumBadInputs: Int? = nil) {
        self.source = source; self.pipeline = pipeline; self.sampleRate = sampleRate; self.outputPath = outputPath
        self.sendTarget = sendTarget; self.sendFormat = sendFormat; self.readOptions = readOptions; self.spin = spin
        self.duration = duration; self.maximumBadInputs = maximumBadInputs
    }
}

/// What ended a live run.
public enum LiveEnd: String, Sendable, Codable, Equatable {
    /// The source ended (standard input closed, a serial device gone).
    case inputEnded = "input_ended"
    /// Ctrl-C or SIGTERM (`shouldStop`).
    case stopped
    /// `LiveRequest.duration` passed.
    case duration
    /// `LiveRequest.maximumBadInputs` bad inputs were left out.
    case tooManyBadInputs = "max_bad"
    /// The output could not be written (`LiveReport.failure` says why).
    case outputFailed = "output_failed"
    /// The source failed (`LiveReport.failure` says why).
    case failed
}

/// A snapshot for the live status line.
public struct LiveProgress: Sendable, Equatable {
    /// Samples processed so far and the rate they arrived at over the last snapshot, Hz.
    public var samples: Int
    public var rate: Double
    /// Time from the latest sample's arrival to the end of its sinks, µs.
    public var latencyMicroseconds: Double
    /// Bad inputs left out so far: lines and datagrams the feed left out plus rows the reader
    /// dropped.
    public var badInputs = 0
}

/// What a live run did (JSON keys snake_case with units).
public struct LiveReport: Sendable, Codable, Equatable {
    public var source: String
    public var pipeline: String
    /// The rate the stages were built for, Hz, and whether it was estimated from the stream.
    public var sampleRate: Double
    public var rateEstimated: Bool
    /// Samples processed, and the stream's own time span (last − first `t`), s.
    public var samples: Int
    public var streamSeconds: Double
    /// Wall time from the first to the last sample, s.
    public var wallSeconds: Double
    /// Per sample, the time from its arrival to the end of its sinks (processed, written, sent),
    /// ns. Arrival is the kernel's receive time of the datagram that brought the row's last byte
    /// (UDP), or when the read of standard input or the serial port that brought it returned;
    /// samples held for the rate estimate (without `--rate`) are not counted.
    public var latencyNanoseconds: DistributionSummary?
    /// The whole pipeline's filtering figures on the stream (latency to 90 %, jitter on its still
    /// segments, lag), as in the replay report.
    public var whole: StageReport?
    public var stillSegments: Int
    /// The UDP sink's figures, with `--send`.
    public var send: SendReport?
    /// True when Ctrl-C or SIGTERM ended the run (a live source has no end of its own).
    public var stopped: Bool
    /// What ended the run, and for `outputFailed` and `failed` the error in words.
    public var ended: LiveEnd = .inputEnded
    public var failure: String?
    /// Inputs the feed left out before the reader, by reason (binary, too long, bad JSON,
    /// oversized datagrams); `rowsDropped` counts the rows the reader left out.
    public var badInput = LiveBadInput()
    /// Rows left out as malformed, rows delivered with repaired values, the first few problems
    /// (with their line and column in the stream), and datagrams dropped for their size.
    public var rowsDropped = 0
    public var rowsRepaired = 0
    public var problems: [String] = []
    /// Rows in which a slower sensor had no new reading (its fields empty): its previous value
    /// was held (a multi-rate stream; not a problem).
    public var rowsWithHeldSensor = 0
    public var datagramsDropped = 0
    /// Datagrams the kernel dropped on the UDP socket because its receive buffer was full
    /// (`SO_RXQ_OVFL`, as last reported with a received datagram; 0 for other sources).
    public var kernelDrops = 0
    /// Pauses in the stream longer than `LiveSession.silence` (wall time between two samples'
    /// arrivals): how many, and the longest, s. A sender that stopped for a while shows here.
    public var silences = 0
    public var longestSilenceSeconds = 0.0
    /// Whether the reader spun for datagrams (`LiveRequest.spin` on a UDP source), and the time
    /// it spent polling without sleeping, s (its CPU cost).
    public var spin = false
    public var spinSeconds = 0.0
    /// Spins that lost the CPU to another task (each pauses spinning for a while: a busy machine).
    public var preemptedSpins = 0

    enum CodingKeys: String, CodingKey {
        case source, pipeline, samples, stopped, send, whole = "pipeline_metrics", ended, failure, badInput = "bad_input"
        case sampleRate = "sample_rate_hz", rateEstimated = "rate_estimated"
        case streamSeconds = "stream_s", wallSeconds = "wall_s", latencyNanoseconds = "latency_ns"
        case stillSegments = "still_segments"
        case rowsDropped = "rows_dropped", rowsRepaired = "rows_repaired", problems
        case rowsWithHeldSensor = "rows_with_held_sensor"
        case datagramsDropped = "datagrams_dropped", kernelDrops = "kernel_drops"
        case silences, longestSilenceSeconds = "longest_silence_s"
        case spin, spinSeconds = "spin_s", preemptedSpins = "preempted_spins"
    }
}

/// A live run: source → pipeline → sinks (output CSV, UDP, metrics, status), one sample at a time
/// as samples arrive: `Run` with a `LiveClock` over the stream's reader (`LiveSource`), into
/// `RecordOutputs`, `LiveStatusSink` and `StageMetricsSink`.
public enum LiveSession {
    /// Samples used to estimate the rate when none is given.
    public static let rateSamples = 16

    /// A pause between two samples' arrivals longer than this (s, wall time) counts as a
    /// silence; it is also how long the live status waits before saying it is waiting for data.
    public static let silence = 1.0

    /// Problems quoted in the report (all are counted).
    public static let quotedProblems = 5

    /// Runs until the source ends or `shouldStop` (polled by the feed about every 100 ms and
    /// between samples) says so, `request.duration` passes or `request.maximumBadInputs` bad
    /// inputs were left out. The stream is read leniently: a malformed row is counted, quoted
    /// (the first few) and left out, a line or datagram that cannot be a row (binary, too long,
    /// bad JSON, oversized) is counted by reason and left out, and the stream goes on. Once the
    /// stream's header has been read, nothing the source sends ends the run: a failure of the
    /// source or of the output ends it with a report (`ended`, `failure`), the output holding
    /// every sample processed until then.
    ///
    /// - Parameters:
    ///   - note: called once at the start with anything the user should know (a UDP source
    ///     listening beyond the loopback address).
    ///   - waiting: called from another thread while no sample has arrived for more than
    ///     `silence` (every `SilenceWatch.tick`; `announce` at first and every 10 s), and once
    ///     when samples resume after such a pause; never after `run` returns.
    ///   - progress: called about every 0.25 s while samples arrive.
    /// - Throws: before the first sample: `RecordingError` for the source (bad address, a header
    ///   that cannot be mapped), `SpecError` for the pipeline, `ReplayError` for `--send`,
    ///   `RecordingError` when the output cannot be created.
    public static func run(_ request: LiveRequest, shouldStop: @escaping @Sendable () -> Bool,
                           note: (String) -> Void = { _ in },
                           waiting: @escaping @Sendable (LiveWait) -> Void = { _ in },
                           progress: (LiveProgress) -> Void = { _ in }) throws -> LiveReport {
        let clock = MonotonicClock()
        let limits = LiveLimits(maximumBadInputs: request.maximumBadInputs,
                                deadline: request.duration.map { clock.now() + Int64(($0 * 1e9).rounded()) })
        let userStop = shouldStop
        let shouldStop: @Sendable () -> Bool
        if limits.isTimed {
            shouldStop = { @Sendable in userStop() || limits.reached(now: clock.now()) }
        } else if request.maximumBadInputs != nil {
            shouldStop = { @Sendable in userStop() || limits.reached(now: 0) }
        } else {
            shouldStop = userStop
        }
        let feed = try LiveFeed(source: request.source, shouldStop: shouldStop, spin: request.spin)
        if request.maximumBadInputs != nil { feed.onBadInput = { limits.noteFeed($0.total) } }
        defer { feed.stop() }
        if let listening = feed.listeningNote { note(listening) }
        let watch = SilenceWatch(start: clock.now(), limit: silence, report: waiting)
        defer { watch.stop() }
        var options = request.readOptions
        options.strict = false
        // The reader reads the socket, port or standard input itself, in this thread.
        let reader = try RecordingSources.open(stream: feed, name: request.source, options: options)
        let rows = reader.unmounted as? RecordingReader
        if request.maximumBadInputs != nil {
            rows?.onIssue = { issue in if issue.action == .dropped { limits.noteDroppedRow() } }
        }
        let live = LiveSource(reader, stopRequested: shouldStop)
        let schema = reader.schema
        var first: [MotionSample] = []
        var early: [Int64] = []
        if request.sampleRate == nil {
            while first.count < rateSamples, !shouldStop(), try live.read(into: &first, maximumCount: 1) > 0 {
                early.append(LiveClock.arrival(feed: feed, rows: rows, watch: watch))
            }
        }
        let estimated = request.sampleRate == nil
        let rate = request.sampleRate ?? nominalSampleRate(of: first) ?? 100
        let context = StageContext(sampleRate: rate, hasMagnetometer: schema.hasMagnetometer, hasGyroscope: schema.hasGyroscope)
        let pipeline = try StageCatalog.standard.pipeline(request.pipeline, context: context)
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: schema.hasMagnetometer, gyroscope: schema.hasGyroscope)
        columns.magneticFieldIsArbitrary = schema.magneticFieldIsArbitrary
        var writer: RecordCSVWriter? = nil
        var flushEachSample = false
        if let path = request.outputPath {
            let opened = try RecordCSVWriter(path: path, columns: columns, inPlace: true)
            flushEachSample = opened.mode != .inPlace
            writer = consume opened
        }
        let sender = try request.sendTarget.map {
            try UDPSender(target: $0, format: request.sendFormat, lines: RecordLines(columns: columns))
        }
        let outputs = RecordOutputs(writer: writer, sender: sender, flushEachRecord: flushEachSample)
        if !flushEachSample { feed.onIdle = { outputs.flush() } }
        let metrics = StageMetricsSink(StageMetricsAccumulator(pipeline: pipeline, sampleRate: rate,
                                                               hasGyroscope: schema.hasGyroscope))
        var run = Run(source: live, first: first, pipeline: pipeline,
                      clock: LiveClock(feed: feed, rows: rows, watch: watch, early: early))
        let ran = try withoutActuallyEscaping(progress) { progress in
            var sinks = SinkPair(outputs, SinkPair(
                LiveStatusSink(outputs: outputs, source: live, feed: feed, early: early.count,
                               flushedEachRecord: flushEachSample, progress: progress),
                metrics))
            return try run.run(into: &sinks, shouldStop: shouldStop)
        }
        var failure = live.failure
        do { try outputs.finishFile() } catch { failure = failure ?? (.outputFailed, "\(error)") }
        let status = ran.summary.1.0
        var accumulator = ran.summary.1.1
        let count = status.count
        let summary = accumulator.finish()
        var report = LiveReport(source: request.source, pipeline: pipeline.description, sampleRate: rate, rateEstimated: estimated,
                          samples: count, streamSeconds: status.lastTime - (status.firstTime ?? status.lastTime),
                          wallSeconds: Double(status.lastWall - (status.firstWall ?? status.lastWall)) * 1e-9,
                          latencyNanoseconds: status.latency.summary(), whole: count > 0 ? summary.whole : nil,
                          stillSegments: summary.stillSegmentCount, send: outputs.takeSendReport(), stopped: userStop())
        report.ended = failure?.end ?? (userStop() ? .stopped : limits.tooManyBad ? .tooManyBadInputs
                                        : limits.isTimed && limits.reached(now: clock.now()) ? .duration : .inputEnded)
        report.failure = failure?.message
        report.badInput = feed.badInput
        report.rowsDropped = reader.summary.rowsDropped
        report.rowsRepaired = reader.summary.rowsRepaired
        report.rowsWithHeldSensor = reader.summary.issueCounts[.heldSensor] ?? 0
        report.problems = reader.issues.filter { $0.kind != .heldSensor }.prefix(quotedProblems).map { issue in
            var issue = issue
            issue.location.file = request.source
            return issue.description
        }
        report.datagramsDropped = feed.droppedDatagrams
        report.kernelDrops = feed.kernelDrops
        report.silences = status.silences
        report.longestSilenceSeconds = Double(status.longestSilence) * 1e-9
        report.spin = request.spin && feed.isDatagramSource
        report.spinSeconds = feed.spinSeconds
        report.preemptedSpins = feed.preemptedSpins
        return report
    }
}

/// The limits a live run ends on besides the user: a deadline and a count of bad inputs. Read
/// by the feed's stop condition (any thread), raised by the feed's and the reader's callbacks.
final class LiveLimits: @unchecked Sendable {
    private let maximumBadInputs: Int?
    private let deadline: Int64?
    private let lock = NSLock()
    private var feedBad = 0
    private var droppedRows = 0
    private var badReached = false

    init(maximumBadInputs: Int?, deadline: Int64?) {
        self.maximumBadInputs = maximumBadInputs
        self.deadline = deadline
    }

    /// Whether there is a deadline (the stop condition then reads the clock).
    var isTimed: Bool { deadline != nil }

    /// True once the bad inputs reached the maximum.
    var tooManyBad: Bool { lock.lock(); defer { lock.unlock() }; return badReached }

    /// True once the bad inputs reached the maximum or `now` (ns, `CLOCK_MONOTONIC`) is past
    /// the deadline.
    func reached(now: Int64) -> Bool {
        if let deadline, now >= deadline { return true }
        return tooManyBad
    }

    /// The feed's count of inputs it left out so far.
    func noteFeed(_ total: Int) {
        lock.lock(); feedBad = total; check(); lock.unlock()
    }

    /// One more row the reader dropped.
    func noteDroppedRow() {
        lock.lock(); droppedRows += 1; check(); lock.unlock()
    }

    private func check() {
        if let maximumBadInputs, feedBad + droppedRows >= maximumBadInputs { badReached = true }
    }
}
