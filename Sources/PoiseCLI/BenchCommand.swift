import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// `poise bench`: sweeps a filter's parameters on recordings and reports the latency–jitter
/// trade-off, the Pareto front and a recommendation; or compares the filter kinds at their best.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Sweep a filter's parameters on recordings: latency to 90 % (tilt, shake), jitter, attenuation, lag; Pareto front and a recommendation.",
        discussion: """
        Kinds: \(SweepKind.allCases.map(\.rawValue).joined(separator: ", ")). --filter takes a kind, optionally with fixed \
        items (butter:lowpass,order=4 or accelgraph:adaptive). Grid items: name=v, name=a:b:step, name=a:b:*ratio or \
        name=v1/v2/…, comma-separated; default grids: \(SweepKind.allCases.map { "\($0.rawValue) \($0.defaultGrid)" }.joined(separator: "; ")). \
        Latency is the worse of the tilt and shake steps at each recording's rate; jitter is pooled over all recordings' \
        still segments. The recommendation is the lowest jitter with latency within --target-latency (default 100 ms), \
        or the lowest latency with jitter within --target-jitter. See docs/bench.md.
        """
    )

    @Argument(help: "Recording CSV files (Poise/BROAD names or the x-io export).")
    public var files: [String] = []

    @Option(name: .long, help: "Filter kind, optionally with fixed items, e.g. factor, butter:lowpass,order=4, accelgraph:adaptive.")
    public var filter: String?

    @Option(name: .long, help: "Grid, e.g. k=0.02:0.3:0.02 or mincutoff=0.05:3.2:*2,beta=0/0.1/1 (default: the kind's grid).")
    public var grid: String?

    @Option(name: .long, parsing: .unconditional, help: "Recommend the lowest jitter with latency at most N samples, or N ms with an 'ms' suffix (default 100ms).")
    public var targetLatency: String?

    @Option(name: .long, parsing: .unconditional, help: "Recommend the lowest latency with jitter at most this many g.")
    public var targetJitter: Double?

    @Flag(name: .long, help: "Compare all kinds at their best points on their default grids.")
    public var compare = false

    @Flag(name: .long, help: "Print JSON.")
    public var json = false

    @Flag(name: .long, help: "Print CSV (one row per point).")
    public var csv = false

    @Option(name: .long, parsing: .unconditional, help: "Worker threads (default: the number of active processors).")
    public var threads: Int?

    @Option(name: .long, help: "Write the report to this file (atomically) instead of standard output ('-': standard output).")
    public var output: String?

    @OptionGroup var reading: ReadingOptions

    public init() {}

    public mutating func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one recording CSV") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given only once") }
        if json && csv { throw ValidationError("choose one of --json and --csv") }
        if compare {
            if grid != nil { throw ValidationError("--compare uses each kind's default grid; drop --grid") }
            if filter != nil { throw ValidationError("--compare sweeps every kind; drop --filter") }
        } else if filter == nil {
            throw ValidationError("give --filter KIND (\(SweepKind.allCases.map(\.rawValue).joined(separator: ", "))) or --compare")
        }
        if targetLatency != nil && targetJitter != nil { throw ValidationError("choose one of --target-latency and --target-jitter") }
        _ = try target()
        try OptionRange("--target-jitter", 0, 16, unit: "g", includesLower: false).check(targetJitter)
        try OptionRange.threads("--threads").check(threads)
    }

    static let latencySamples = OptionRange("--target-latency", 1, 100_000, unit: "samples")
    static let latencyMilliseconds = OptionRange("--target-latency", 0, 60_000, unit: "ms", includesLower: false)

    /// The recommendation target from the options.
    func target() throws -> SweepTarget {
        if let targetJitter { return .jitter(targetJitter) }
        guard let text = targetLatency?.trimmingCharacters(in: .whitespaces) else { return .default }
        if text.lowercased().hasSuffix("ms") {
            if let ms = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces)), ms > 0, ms.isFinite {
                try Self.latencyMilliseconds.check(ms)
                return .latencyMilliseconds(ms)
            }
        } else if let samples = Int(text), samples >= 1 {
            try Self.latencySamples.check(samples)
            return .latencySamples(samples)
        }
        throw ValidationError("--target-latency must be a whole number of samples (\(Self.latencySamples.text)) or milliseconds like 80ms (\(Self.latencyMilliseconds.text)), got '\(text)'")
    }

    /// What `run()` prints (or writes to --output).
    public func output(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> String {
        let target = try target()
        var recordings: [SweepRecording] = []
        for file in files {
            let recording: Recording
            do {
                recording = try reading.load(file)
                try recording.schema.require([.accelerometer], file: file, for: "bench (the filters run on the acceleration)")
            } catch let error as RecordingError {
                throw CommandError(error.description)  // a data error (exit 1), not a usage error
            }
            var detector = RestDetector()
            detector.useGyroscope = recording.schema.hasGyroscope
            recordings.append(try SweepRecording(name: file, samples: recording.samples, detector: detector))
        }
        let threadCount = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let format: BenchReport.Format = json ? .json : csv ? .csv : .table
        if compare {
            let sweeps = try SweepKind.allCases.map { try FilterSweep(filter: $0.rawValue) }
            let comparison = try Sweeper.compare(sweeps, on: recordings, target: target, threads: threadCount, progress: progress)
            return try BenchReport(recordings: recordings).render(comparison, format: format)
        }
        let sweep = try FilterSweep(filter: filter ?? "", grid: grid)
        let result = try Sweeper.run(sweep.settings, on: recordings, target: target, threads: threadCount, progress: progress)
        return try BenchReport(recordings: recordings).render(result, sweep: sweep, format: format)
    }

    public func run() throws {
        try FileIdentity.requireDistinct(outputs: [output, "-"], inputs: files)
        // Opened before the sweep, so a bad destination is reported before the work.
        let file = try output.flatMap { OutputFile.isStandardOutput($0) ? nil : try OutputFile(path: $0) }
        let bar = ProgressLine.forStandardError(label: "sweeping", minimumInterval: 0.05)
        let text: String
        do {
            var progress: (@Sendable (Int, Int) -> Void)? = nil
            if let bar { progress = { done, total in bar.show(done: done, total: total) } }
            text = try output(progress: progress)
            bar?.finish()
        } catch let error as SweepError {
            bar?.finish()
            switch error {
            case .spec: throw ValidationError(error.description)  // a bad --filter or --grid: usage
            case .recording: throw CommandError(error.description)  // a recording that cannot be swept: data
            }
        } catch {
            bar?.finish()  // recording errors and the like: data errors (exit 1, no usage text)
            throw error
        }
        if let file {
            file.append(text + "\n")
            try file.finish()
        } else {
            print(text)
        }
    }
}
