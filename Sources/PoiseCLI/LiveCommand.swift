import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// `poise live SOURCE`: processes a live stream (standard input, a serial port or UDP) through a pipeline as the
/// samples arrive, writes and sends every processed sample, and reports at the end.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Process a live stream (standard input, a serial port or UDP) through a pipeline as it arrives; write or send every sample.",
        discussion: """
        SOURCE is '-' (CSV on standard input: a header line, then rows as they come), \
        serial:///dev/ttyUSB0?baud=115200 (a serial port in raw mode, CSV lines) or \
        udp://:PORT / udp://HOST:PORT to listen on (CSV lines with a header first, as poise replay \
        --send sends them, flat JSON objects keyed by Poise column names, or the lines of the \
        Sensorstream IMU+GPS app: time, 3, ax, ay, az, 4, gx, gy, gz, 5, mx, my, mz). A live source has no \
        end: Ctrl-C or SIGTERM stops it, completes --out and prints the report (exit 130 or 143). \
        Bad input never ends a session: a malformed row, a line with a NUL byte, a line over 64 KiB, \
        bad JSON or an oversized datagram is counted by reason and skipped (--max-bad N stops after N). \
        --out is written as the samples come. See docs/replay.md "Live streams".
        """)

    @Argument(help: ArgumentHelp("'-' (standard input), serial:///dev/DEVICE?baud=N, or udp://[HOST]:PORT to listen on.", valueName: "source"))
    var source: String

    @Option(help: ArgumentHelp("Stages separated by '|', e.g. 'fusion:9d | tilt'; 'none' for none.", valueName: "spec"))
    var pipeline: String = "none"

    @Option(parsing: .unconditional, help: ArgumentHelp("The stream's sample rate in Hz, for the stages' coefficients (default: estimated from the first 16 samples).", valueName: "HZ"))
    var rate: Double?

    @Option(help: ArgumentHelp("Write every processed sample to this CSV file ('-': standard output, flushed per sample; the report then goes to standard error).", valueName: "file"))
    var out: String?

    @OptionGroup var sending: SendOptions

    @Flag(inversion: .prefixedNo, help: ArgumentHelp("For a UDP source: wake shortly before each datagram is due (predicted from the last ones) and poll for it without sleeping through a window of at most ±0.5 ms and ±10 % of the period (streams up to 500 Hz), so a sample's latency does not include the thread's wake-up; costs about that share of a core (the report says how long it spun). --no-spin sleeps until each datagram wakes the reader."))
    var spin = true

    @Option(name: .customLong("max-bad"), help: ArgumentHelp("Stop after N bad inputs (malformed rows, binary or over-long lines, bad JSON, oversized datagrams); default: count and skip them all.", valueName: "N"))
    var maximumBad: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds of wall time (default: run until the input ends, Ctrl-C or SIGTERM).", valueName: "seconds"))
    var duration: Double?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(name: .customLong("apple-accelerometer-sign"), help: "The stream uses Apple's raw accelerometer sign (−1 g on the up axis at rest).")
    var appleAccelerometerSign = false

    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
        try OptionRange("--max-bad", 1, 1e15).check(maximumBad.map(Double.init))
        try OptionRange("--duration", 1e-3, 1e9, unit: "s").check(duration)
    }

    func run() throws {
        // --out is written in place: never the file standard input reads.
        try FileIdentity.requireDistinct(outputs: [out], inputs: [source == "-" ? "-" : nil])
        let interrupt = InterruptFlag()
        defer { interrupt.restore() }
        let request = LiveRequest(source: source, pipeline: pipeline, sampleRate: rate, outputPath: out,
                                  sendTarget: sending.send, sendFormat: sending.sendFormat,
                                  readOptions: reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign)),
                                  spin: spin, duration: duration, maximumBadInputs: maximumBad)
        let status = LiveStatusLine()
        let report: LiveReport
        do {
            report = try LiveSession.run(request, shouldStop: { interrupt.isSet },
                                         note: { StandardError.write("poise live: \($0)\n") },
                                         waiting: { status.show($0) },
                                         progress: { status.show($0) })
        } catch let error as RecordingError where interrupt.isSet {
            status.clear()
            StandardError.write("poise live: \(interrupt.verb) before the stream started (\(error.description))\n")
            throw ExitCode(interrupt.exitCode)
        }
        status.clear()
        let text: String
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            text = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        } else {
            text = Self.render(report)
        }
        if let out, OutputFile.isStandardOutput(out) { StandardError.write(text) } else { print(text, terminator: "") }
        if interrupt.isSet { throw ExitCode(interrupt.exitCode) }
        switch report.ended {
        case .tooManyBadInputs:
            throw CommandError("\(source): stopped after \(maximumBad ?? 0) bad inputs (--max-bad)\(out.map { "; \($0) holds the \(report.samples) samples processed" } ?? "")")
        case .failed, .outputFailed:
            throw CommandError("\(report.failure ?? "the session failed")\(out.map { "; \($0) holds the \(report.samples) samples processed" } ?? "")")
        case .inputEnded, .stopped, .duration:
            break
        }
    }

    static func render(_ report: LiveReport) -> String {
        func number(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["live \(report.source)", "  pipeline  \(report.pipeline)"]
        lines.append("  samples   \(report.samples) over \(number(report.streamSeconds, 2)) s of stream time, \(number(report.wallSeconds, 2)) s wall; stages built for \(number(report.sampleRate)) Hz\(report.rateEstimated ? " (estimated from the first samples)" : "")")
        switch report.ended {
        case .stopped: lines.append("  stopped   by Ctrl-C or SIGTERM")
        case .duration: lines.append("  stopped   after --duration")
        case .tooManyBadInputs: lines.append("  stopped   after --max-bad bad inputs")
        case .outputFailed: lines.append("  stopped   the output failed: \(report.failure ?? "")")
        case .failed: lines.append("  stopped   the source failed: \(report.failure ?? "")")
        case .inputEnded: break
        }
        if let latency = report.latencyNanoseconds {
            lines.append("  latency   arrival → processed → written/sent: median \(number(latency.p50 / 1000)) µs, p90 \(number(latency.p90 / 1000)) µs, p99 \(number(latency.p99 / 1000)) µs, max \(number(latency.max / 1000)) µs")
        }
        if let whole = report.whole {
            func steps(_ value: Int?) -> String { value.map(String.init) ?? "never" }
            var filtering = "  filtering latency to 90 %: tilt \(steps(whole.latency90Samples.tilt)), shake \(steps(whole.latency90Samples.shake)) samples"
            if let jitter = whole.jitter {
                filtering += "; jitter \(String(format: "%.5f", jitter.output)) g (input \(String(format: "%.5f", jitter.input)) g) on \(report.stillSegments) still segment\(report.stillSegments == 1 ? "" : "s")"
            }
            lines.append(filtering)
        }
        if report.spin {
            let share = report.wallSeconds > 0 ? 100 * report.spinSeconds / report.wallSeconds : 0
            lines.append("  waiting   spun \(number(report.spinSeconds, 2)) s (\(number(share)) % of the wall time) polling for datagrams shortly before they were due (--no-spin: sleep)"
                         + (report.preemptedSpins > 0 ? "; \(report.preemptedSpins) spins lost the CPU to other tasks and paused spinning" : ""))
        }
        if report.silences > 0 {
            lines.append("  silences  \(report.silences) pause\(report.silences == 1 ? "" : "s") longer than \(number(LiveSession.silence, 0)) s between samples, the longest \(number(report.longestSilenceSeconds, 2)) s (the sender stopped or stalled)")
        }
        if report.rowsDropped + report.rowsRepaired + report.datagramsDropped + report.kernelDrops > 0 {
            lines.append("  problems  \(report.rowsDropped) rows left out, \(report.rowsRepaired) repaired, \(report.datagramsDropped) datagrams over \(LiveFeed.maximumDatagram) bytes dropped, \(report.kernelDrops) dropped by the kernel (socket buffer full)")
            for problem in report.problems { lines.append("            \(problem)") }
        }
        var skipped = report.badInput
        skipped.oversizedDatagrams = 0   // on the problems line
        if skipped.total > 0 {
            lines.append("  skipped   \(skipped.description) line\(skipped.total == 1 ? "" : "s") (not rows; the stream went on)")
        }
        if report.rowsWithHeldSensor > 0 {
            lines.append("  multi-rate  \(report.rowsWithHeldSensor) rows without a new reading of a slower sensor (its previous value held)")
        }
        if let send = report.send {
            lines.append("  sent      \(send.sent) \(send.format) datagrams to \(send.target)\(send.failed > 0 ? ", \(send.failed) not sent (\(send.firstError ?? "refused"))" : "")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The live status on standard error: a status line only when it is a terminal, and a line of
/// its own when the sender pauses (no sample for more than a second) and when data resumes.
/// Called from the run's thread and from its silence watch, so it takes a lock.
final class LiveStatusLine: @unchecked Sendable {
    private let enabled = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var shown = false

    func show(_ progress: LiveProgress) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        StandardError.write(String(format: "\r%d samples  %6.1f Hz  latency %7.1f µs", progress.samples, progress.rate, progress.latencyMicroseconds)
                            + (progress.badInputs > 0 ? "  \(progress.badInputs) bad skipped" : "") + "\u{1B}[K")
        shown = true
    }

    func show(_ wait: LiveWait) {
        lock.lock(); defer { lock.unlock() }
        let text = switch wait.kind {
        case .waiting: String(format: "waiting for data: no sample for %.1f s", wait.seconds)
        case .resumed: String(format: "data resumed after %.1f s without a sample", wait.seconds)
        }
        if wait.announce {
            if shown { StandardError.write("\r\u{1B}[K"); shown = false }
            StandardError.write("poise live: \(text)\n")
        } else if enabled {
            StandardError.write("\r\(text)\u{1B}[K")
            shown = true
        }
    }

    func clear() {
        lock.lock(); defer { lock.unlock() }
        if shown { StandardError.write("\r\u{1B}[K") }
        shown = false
    }
}
