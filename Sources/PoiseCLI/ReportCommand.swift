import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun
import PoiseReports

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

    @Option(help: "Pipeline shown as filtered, e.g. \"lowpass:cutoff=5\" (default: the report's recommendation).")
    var pipeline: String?

    @Option(help: "Output HTML file (written to a temporary file, then renamed; '-': standard output).")
    var out: String

    @Option(parsing: .unconditional, help: "Recommend the lowest jitter with latency at most this many milliseconds.")
    var targetLatencyMs: Double = 100

    @Option(help: "Filter kinds to sweep, comma-separated (default: all: \(SweepKind.allCases.map(\.rawValue).joined(separator: ",")))).")
    var kinds: String?

    @Option(help: "Page title (default: \"Poise report: FILE NAME\").")
    var title: String?

    @Option(parsing: .unconditional, help: "Sweep worker threads (default: the number of active processors).")
    var threads: Int?

    @Option(help: ArgumentHelp("JSON of a real-time replay of the same recording (poise replay FILE --json > replay.json; '-': standard input): adds lateness and processing-cost histograms; its pipeline is the page's unless --pipeline is given.",
                               valueName: "replay.json"))
    var replay: String?

    @OptionGroup var reading: ReadingOptions

    @Option(help: ArgumentHelp("Where the recording comes from and its licence, shown on the page (e.g. \"BROAD trial 27, CC BY 4.0\").",
                               valueName: "text"))
    var dataSource: String?

    func validate() throws {
        try OptionRange("--target-latency-ms", 0, 60_000, unit: "ms", includesLower: false).check(targetLatencyMs)
        try OptionRange.threads("--threads").check(threads)
        for name in (kinds ?? "").split(separator: ",") where SweepKind(rawValue: name.trimmingCharacters(in: .whitespaces)) == nil {
            throw ValidationError("--kinds: unknown kind '\(name)'; available: \(SweepKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// `FILE` or `--replay` (not both) may be `-` (standard input). With `--out -` the page goes
    /// to standard output and the one-line summary to standard error.
    func run() throws {
        if file == "-" && replay == "-" {
            throw ValidationError("only one of FILE and --replay can be '-' (standard input)")
        }
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file, replay])
        let page = try OutputFile(path: out)  // a bad destination is reported before the work
        let progress = ProgressLine.forStandardError(label: "report", minimumInterval: 0.1)
        progress?.show("reading \(file)", 0)
        // The report reads its recording in several streaming passes; standard input is kept
        // in a temporary file for them (removed at the end).
        try StandardInputSpool.withFile(file) { path in try write(page, reading: path, progress: progress) }
    }

    func write(_ page: OutputFile, reading path: String, progress: ProgressLine?) throws {
        var input = ReportInput(path: path, options: reading.applied(to: ReadOptions()))
        input.path = file
        input.check = { schema, rate in
            try schema.require([.accelerometer], file: path, for: "the report (filters, jitter and spectra of the acceleration)")
            try SampleRateCheck.check(rate: rate, schema: schema, file: path)
        }
        var options = ReportOptions(pipeline: pipeline)
        if let replay { options.replay = try Self.loadReplay(replay) }
        options.target = .latencyMilliseconds(targetLatencyMs)
        options.title = title
        options.dataSource = dataSource
        if let progress { options.progress = { stage, fraction in progress.show(stage, fraction) } }
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
        do { report = try RecordingReport(input: input, options: options) } catch let error as RecordingError {
            throw error
        } catch let error as SpecError {
            throw error   // a bad --pipeline: usage (exit 64)
        } catch let error as CustomStringConvertible {
            throw CommandError(error.description)
        }
        progress?.show("writing the page", 0.99)
        let html = report.html()
        progress?.finish()
        page.append(html)
        try page.finish()
        let summary = "\(out): \(html.utf8.count / 1024) KiB; pipeline \(report.pipeline) (\(report.pipelineOrigin))"
        if page.mode == .standardOutput { StandardError.write(summary + "\n") } else { print(summary) }
    }

    /// Why a file could not be read, in plain words.
    static func readProblem(_ error: Error) -> String {
        let nsError = error as NSError
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(underlying.code))) }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "no permission to read it"
        default: return nsError.localizedDescription
        }
    }

    /// Reads the JSON written by `poise replay --json`; errors name the file and what is wrong.
    static func loadReplay(_ path: String) throws -> ReplayReport {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw CommandError("--replay \(path): cannot read the file: \(Self.readProblem(error))")
            }
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(ReplayReport.self, from: data)
        } catch let error as DecodingError {
            let problem: String
            switch error {
            case .keyNotFound(let key, let context):
                problem = "missing key '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                problem = "wrong value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
            case .dataCorrupted(let context):
                problem = context.codingPath.isEmpty ? "not valid JSON (\(context.underlyingError.map { ($0 as NSError).localizedDescription } ?? context.debugDescription))"
                    : "bad value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
            @unknown default:
                problem = String(describing: error)
            }
            throw CommandError("--replay \(path): not the JSON of `poise replay --json`: \(problem)")
        }
    }
}
