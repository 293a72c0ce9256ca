import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// `poise replay`: paces a recording through a pipeline in real time and reports latency, jitter
/// and delivery timing.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording through a processing pipeline in real time and report latency, jitter and timing.",
        discussion: """
        Samples are delivered at their recorded times (or resampled to --rate, with an anti-alias \
        filter when decimating), at most 100 Hz in real time. Ctrl-C stops cleanly and still \
        prints the report. A status line is shown only when standard error is a terminal.

        Stages: \(StageCatalog.standard.entries.map(\.usage).joined(separator: ", ")).
        """)

    /// The recording replayed when no file is given.
    static let defaultRecording = "data/phone-tilt-steer-100hz.csv"
    /// The pipeline used when none is given (also `make demo`'s): Poise's adaptive low-pass.
    static let defaultPipeline = "adaptive"

    @Argument(help: "Recording (CSV, or ROS 1 bag with a sensor_msgs/Imu topic; '-': standard input, copied once to a temporary file for the pre-scan and the delivery).")
    var file: String = defaultRecording

    @Option(help: ArgumentHelp("Stages separated by '|', e.g. 'lowpass:cutoff=5 | oneeuro:mincutoff=0.1,beta=2'; 'none' for none.",
                               valueName: "spec"))
    var pipeline: String = defaultPipeline

    @Option(parsing: .unconditional, help: ArgumentHelp("Delivery rate: 'native' (the recording's timestamps) or a rate in Hz (resampled, 1–100000).",
                               valueName: "HZ|native"))
    var rate: String = "native"

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Speed factor ('2' = twice as fast; 0.001–1000) or 'max' (no pacing).", valueName: "X|max"))
    var speed: String = "1"

    @Option(name: .customLong("frame-rate"), parsing: .unconditional,
            help: ArgumentHelp("Simulate a game loop at this rate (Hz, 1–1000) that consumes the latest state.", valueName: "HZ"))
    var frameRate: Double?

    @Option(help: ArgumentHelp("Write the output stream to this CSV file while replaying ('-': standard output; the report then goes to standard error).", valueName: "file"))
    var out: String?

    @OptionGroup var sending: SendOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Play the recording this many times in a row (1–1000000), the time line continuing across the seams, for long tests; Ctrl-C stops early.", valueName: "N"))
    var loop: Int = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(name: .customLong("normal-priority"),
          help: "Pace at normal priority (default: real-time priority, SCHED_FIFO, when permitted).")
    var normalPriority = false

    @Flag(name: .customLong("apple-accelerometer-sign"),
          help: "The file uses Apple's raw accelerometer sign (−1 g on the up axis at rest).")
    var appleAccelerometerSign = false

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var gaps: GapOptions

    func validate() throws {
        _ = try parsedRate()
        _ = try parsedSpeed()
        try OptionRange.frameRate("--frame-rate").check(frameRate)
        try OptionRange("--loop", 1, Double(ReplaySession.maximumLoops)).check(loop)
    }

    static let rateRange = OptionRange.sampleRate("--rate")
    static let speedRange = OptionRange("--speed", 0.001, 1000)

    func parsedRate() throws -> ReplayRate {
        if rate == "native" { return .native }
        guard let hz = Double(rate), Self.rateRange.contains(hz) else {
            throw ValidationError("--rate must be 'native' or \(Self.rateRange.text), got '\(rate)'")
        }
        return .fixed(hz)
    }

    func parsedSpeed() throws -> ReplaySpeed {
        if speed == "max" { return .maximum }
        let text = speed.hasSuffix("x") ? String(speed.dropLast()) : speed
        guard let factor = Double(text), Self.speedRange.contains(factor) else {
            throw ValidationError("--speed must be 'max' or a factor \(Self.speedRange.text), got '\(speed)'")
        }
        return .realTime(factor)
    }

    /// The report goes to standard output, or to standard error when the output stream does
    /// (`--out -`). Interrupted (SIGINT or SIGTERM during delivery), the report is printed and the
    /// exit status is then 130 or 143.
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        let request = ReplayRequest(path: file, pipeline: pipeline, rate: try parsedRate(), speed: try parsedSpeed(),
                                    frameRate: frameRate, outputPath: out,
                                    readOptions: reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign)),
                                    realTimePriority: !normalPriority, gapLimit: gaps.requestLimit,
                                    sendTarget: sending.send, sendFormat: sending.sendFormat, loops: loop)
        let session = try ReplaySession(request)
        let interrupt = InterruptFlag()
        let status = StatusLine()
        // Ctrl-C or SIGTERM stops delivery and still reports; once delivery is over (output
        // complete), a signal quits at once, also while the report is computed.
        let report = try session.run(clock: MonotonicClock(), shouldStop: { interrupt.isSet },
                                     progress: { status.show($0) },
                                     delivered: { status.clear(); interrupt.restore() })
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            show(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            show(ReplayReportText.render(report))
        }
        if interrupt.isSet { throw ExitCode(interrupt.exitCode) }
    }

    /// Prints the report where it does not mix with the output stream.
    private func show(_ text: String) {
        if let out, OutputFile.isStandardOutput(out) { StandardError.write(text) } else { print(text, terminator: "") }
    }
}

/// A one-line live status on standard error, only when it is a terminal (nothing on a pipe).
final class StatusLine {
    private let enabled = isatty(STDERR_FILENO) != 0
    private var shown = false

    func show(_ progress: ReplayProgress) {
        guard enabled else { return }
        let percent = progress.total > 0 ? 100 * Double(progress.delivered) / Double(progress.total) : 0
        var line = String(format: "\r%7.1f / %.1f s  %3.0f%%  %d/%d samples  %6.1f Hz",
                          progress.recordingSeconds, progress.durationSeconds, percent,
                          progress.delivered, progress.total, progress.rate)
        if let lateness = progress.latenessMicroseconds {
            line += String(format: "  lateness %7.1f µs  late %d", lateness, progress.lateSamples)
        }
        StandardError.write(line + "\u{1B}[K")
        shown = true
    }

    func clear() {
        if shown { StandardError.write("\r\u{1B}[K") }
    }
}
