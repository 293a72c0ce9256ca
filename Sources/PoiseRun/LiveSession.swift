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
    /// Output CSV path (`-`: standard output), or `nil`. Flushed after every sample unless it is a
    /// regular file.
    public var outputPath: String?
    /// Where to send every processed sample (`udp://HOST:PORT`), and in which format.
    public var sendTarget: String?
    public var sendFormat: UDPSender.Format
    /// How to read the stream's rows (time unit, Apple sign).
    public var readOptions: ReadOptions
    /// For a UDP source, poll without sleeping through a bounded window around each datagram's
    /// predicted arrival (`LiveFeed`'s `spin`): lower latency for some CPU.
    public var spin: Bool

    public init(source: String, pipeline: String = "none", sampleRate: Double? = nil, outputPath: String? = nil,
                sendTarget: String? = nil, sendFormat: UDPSender.Format = .csv, readOptions: ReadOptions = ReadOptions(),
                spin: Bool = true) {
        self.source = source; self.pipeline = pipeline; self.sampleRate = sampleRate; self.outputPath = outputPath
        self.sendTarget = sendTarget; self.sendFormat = sendFormat; self.readOptions = readOptions; self.spin = spin
    }
}

/// A snapshot for the live status line.
public struct LiveProgress: Sendable, Equatable {
    /// Samples processed so far and the rate they arrived at over the last snapshot, Hz.
    public var samples: Int
    public var rate: Double
    /// Time from the latest sample's arrival to the end of its sinks, µs.
    public var latencyMicroseconds: Double
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
        case source, pipeline, samples, stopped, send, whole = "pipeline_metrics"
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
/// as samples arrive.
public enum LiveSession {
    /// Samples used to estimate the rate when none is given.
    public static let rateSamples = 16

    /// A pause between two samples' arrivals longer than this (s, wall time) counts as a
    /// silence; it is also how long the live status waits before saying it is waiting for data.
    public static let silence = 1.0

    /// Problems quoted in the report (all are counted).
    public static let quotedProblems = 5

    /// Runs until the source ends or `shouldStop` (polled by the feed about every 100 ms and
    /// between samples) says so. The stream is read leniently: a malformed row is counted,
    /// quoted (the first few) and left out, and the stream goes on.
    ///
    /// - Parameters:
    ///   - note: called once at the start with anything the user should know (a UDP source
    ///     listening beyond the loopback address).
    ///   - waiting: called from another thread while no sample has arrived for more than
    ///     `silence` (every `SilenceWatch.tick`; `announce` at first and every 10 s), and once
    ///     when samples resume after such a pause; never after `run` returns.
    ///   - progress: called about every 0.25 s while samples arrive.
    /// - Throws: `RecordingError` for the source (bad address, a bad row with its line and
    ///   column), `SpecError` for the pipeline, `ReplayError` for `--send`.
    public static func run(_ request: LiveRequest, shouldStop: @escaping @Sendable () -> Bool,
                           note: (String) -> Void = { _ in },
                           waiting: @escaping @Sendable (LiveWait) -> Void = { _ in },
                           progress: (LiveProgress) -> Void = { _ in }) throws -> LiveReport {
        let clock = MonotonicClock()
        let feed = try LiveFeed(source: request.source, shouldStop: shouldStop, spin: request.spin)
        defer { feed.stop() }
        if let listening = feed.listeningNote { note(listening) }
        let watch = SilenceWatch(start: clock.now(), limit: silence, report: waiting)
        defer { watch.stop() }
        var options = request.readOptions
        options.strict = false
        // The reader reads the socket, port or standard input itself, in this thread.
        let reader = try RecordingSources.open(stream: feed, name: request.source, options: options)
        let rows = reader.unmounted as? RecordingReader
        /// The next sample and its arrival (ns): the feed's stamp of the read that completed its
        /// row, or now when the feed no longer knows it.
        func next() throws -> (sample: MotionSample, arrival: Int64)? {
            guard let sample = try reader.next() else { return nil }
            let arrival = rows.flatMap { feed.arrivalTime(throughByte: $0.bytesConsumed) } ?? clock.now()
            watch.sampleArrived(at: arrival)
            return (sample, arrival)
        }
        let schema = reader.schema
        var first: [(sample: MotionSample, arrival: Int64)] = []
        if request.sampleRate == nil {
            while first.count < rateSamples, let next = try next() { first.append(next) }
        }
        let estimated = request.sampleRate == nil
        let rate = request.sampleRate ?? nominalSampleRate(of: first.map(\.sample)) ?? 100
        let context = StageContext(sampleRate: rate, hasMagnetometer: schema.hasMagnetometer, hasGyroscope: schema.hasGyroscope)
        var pipeline = try StageCatalog.standard.pipeline(request.pipeline, context: context)
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: schema.hasMagnetometer, gyroscope: schema.hasGyroscope)
        columns.magneticFieldIsArbitrary = schema.magneticFieldIsArbitrary
        var writer: RecordCSVWriter? = nil
        var flushEachSample = false
        if let path = request.outputPath {
            let opened = try RecordCSVWriter(path: path, columns: columns)
            flushEachSample = opened.mode != .atomic
            writer = consume opened
        }
        var sender = try request.sendTarget.map {
            try UDPSender(target: $0, format: request.sendFormat, lines: RecordLines(columns: columns))
        }
        var metrics = StageMetricsAccumulator(pipeline: pipeline, sampleRate: rate, hasGyroscope: schema.hasGyroscope)
        var latency = ValueCollector()
        var count = 0
        var firstTime: Double?, lastTime = 0.0
        var firstWall: Int64?, lastWall: Int64 = 0, lastArrival: Int64 = 0
        var lastProgress: Int64 = 0, progressCount = 0
        var silences = 0, longestSilence: Int64 = 0

        /// Processes one sample; `timed`: its latency counts (it did not wait for the rate estimate).
        func handle(_ sample: MotionSample, arrival: Int64, timed: Bool) {
            var record = ProcessedSample(sample)
            pipeline.process(&record) { index, stage in metrics.observe(stage: index, stage) }
            writer?.write(record)
            if flushEachSample { writer?.flush() }
            sender?.send(record)
            let end = clock.now()
            if firstWall != nil {
                let pause = arrival - lastArrival
                if Double(pause) * 1e-9 > silence { silences += 1 }
                longestSilence = Swift.max(longestSilence, pause)
            }
            if timed { latency.add(end - arrival) }
            metrics.add(record)
            count += 1
            firstTime = firstTime ?? sample.time
            lastTime = sample.time
            firstWall = firstWall ?? arrival
            lastWall = end
            lastArrival = arrival
            if end - lastProgress >= 250_000_000 {
                let seconds = Double(end - lastProgress) * 1e-9
                progress(LiveProgress(samples: count, rate: lastProgress == 0 ? 0 : Double(count - progressCount) / seconds,
                                      latencyMicroseconds: Double(end - arrival) * 1e-3))
                lastProgress = end
                progressCount = count
            }
        }
        for (sample, arrival) in first { handle(sample, arrival: arrival, timed: false) }
        do {
            while !shouldStop(), let (sample, arrival) = try next() { handle(sample, arrival: arrival, timed: true) }
        } catch where shouldStop() {
            // Stopped in the middle of a row: the rows before it were processed.
        }
        if let finished = writer.take() { try finished.finish() }
        let summary = metrics.finish()
        var report = LiveReport(source: request.source, pipeline: pipeline.description, sampleRate: rate, rateEstimated: estimated,
                          samples: count, streamSeconds: lastTime - (firstTime ?? lastTime),
                          wallSeconds: Double(lastWall - (firstWall ?? lastWall)) * 1e-9,
                          latencyNanoseconds: latency.summary(), whole: count > 0 ? summary.whole : nil,
                          stillSegments: summary.stillSegmentCount, send: sender.take()?.report, stopped: shouldStop())
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
        report.silences = silences
        report.longestSilenceSeconds = Double(longestSilence) * 1e-9
        report.spin = request.spin && feed.isDatagramSource
        report.spinSeconds = feed.spinSeconds
        report.preemptedSpins = feed.preemptedSpins
        return report
    }
}
