import ArgumentParser
import Foundation
import PoiseRecording
import PoiseReplay

/// `poise report FILE --out report.html`: one self-contained HTML page (inline SVG and CSS, no
/// scripts, no network) with the recording's signals, step responses, the latency–jitter plane,
/// spectra and attitude, and a narrative generated from the numbers.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report (inline SVG plots and a generated narrative) of a recording.",
        discussion: """
        Sections: raw vs filtered acceleration (overview and zoomed panels), tilt and shake step responses, the \
        latency–jitter plane of a sweep over the filter kinds (poise bench --compare) with its Pareto front, Welch PSD \
        and spectrogram, attitude from device-motion fusion and its error against gt_q* ground truth. Without \
        --pipeline the filtered signal is the sweep's recommendation. See docs/reports.md.
        """)

    @Argument(help: "Recording CSV (Poise/BROAD names or the x-io export).")
    var file: String

    @Option(help: "Pipeline shown as filtered, e.g. \"lowpass:cutoff=5\" (default: the sweep's recommendation).")
    var pipeline: String?

    @Option(help: "Output HTML file (written to a temporary file, then renamed).")
    var out: String

    @Option(help: "Recommend the lowest jitter with latency at most this many milliseconds.")
    var targetLatencyMs: Double = 100

    @Option(help: "Filter kinds to sweep, comma-separated (default: all: \(SweepKind.allCases.map(\.rawValue).joined(separator: ",")))).")
    var kinds: String?

    @Option(help: "Page title (default: \"Poise report: FILE NAME\").")
    var title: String?

    @Option(help: "Sweep worker threads (default: the number of active processors).")
    var threads: Int?

    func validate() throws {
        guard targetLatencyMs > 0, targetLatencyMs.isFinite else {
            throw ValidationError("--target-latency-ms must be a positive number of milliseconds, got \(targetLatencyMs)")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    func run() throws {
        let recording: Recording
        do { recording = try Recording.load(path: file) } catch let error as RecordingError {
            throw CommandError(error.description)
        }
        var options = ReportOptions(pipeline: pipeline)
        options.target = .latencyMilliseconds(targetLatencyMs)
        options.title = title
        if let threads { options.threads = threads }
        if let kinds {
            options.kinds = try kinds.split(separator: ",").map { name in
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let kind = SweepKind(rawValue: trimmed) else {
                    throw CommandError("--kinds: unknown kind '\(trimmed)'; available: \(SweepKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return kind
            }
        }
        let report: RecordingReport
        do { report = try RecordingReport(recording: recording, options: options) } catch let error as CustomStringConvertible {
            throw CommandError(error.description)
        }
        let html = report.html()
        let temporary = out + ".partial-\(getpid())"
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, out) == 0 else {
                throw CommandError("\(out): cannot rename \(temporary) onto it: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        print("\(out): \(html.utf8.count / 1024) KiB; pipeline \(report.pipeline) (\(report.pipelineOrigin))")
    }
}
