import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// Where a report reads its recording: a file, streamed once per pass (see ``RecordingReport``),
/// or samples already in memory.
public struct ReportInput {
    /// The path shown on the page and in the commands it suggests.
    public var path: String
    let open: () throws -> any SampleSource
    let scan: () throws -> Scan
    /// Called with the recording's schema and rate (`nominalSampleRate`) (Hz, `nil` when the timestamps never
    /// increase) after the scan, before any other pass: a caller's checks (for example that the
    /// recording has an accelerometer, or a plausible rate) throw from here.
    public var check: ((RecordingSchema, Double?) throws -> Void)?

    /// The scan, then `check`.
    func scanRecording() throws -> Scan {
        let result = try scan()
        try check?(result.schema, result.rate)
        return result
    }

    /// What the report needs to know before its first pass.
    struct Scan {
        var schema: RecordingSchema
        var count: Int
        var firstTime: Double
        var lastTime: Double
        /// The recording's rate, Hz (`nominalSampleRate`; `nil`: the first rows' timestamps never increase).
        var rate: Double?
    }

    /// A recording file in any format `RecordingSources` reads, streamed (a pre-scan finds the
    /// count, the time span and the recording's rate without keeping samples: `RecordingScan`).
    ///
    /// The scan parses the file once and keeps the parsed samples in a `SampleSpool` (a
    /// temporary binary file, unlinked at once); every later pass reads them from there. When
    /// the spool cannot be made or written (a full temporary folder), each pass parses the file
    /// again instead.
    public init(path: String, options: ReadOptions = ReadOptions()) {
        self.path = path
        let parsed = Parsed()
        open = {
            if let spool = parsed.spool, let reader = parsed.reader,
               let source = spool.source(path: path, schema: reader.schema, issues: reader.issues, summary: reader.summary) {
                return source
            }
            return try RecordingSources.open(path: path, options: options)
        }
        scan = {
            let reader = try RecordingSources.open(path: path, options: options)
            parsed.reader = reader
            parsed.spool = try? SampleSpool(schema: reader.schema)
            let source: any SampleSource = parsed.spool.map { SpoolingSource(reader, into: $0) } ?? reader
            let scan = try RecordingScan(path: path, reading: source)
            return Scan(schema: scan.schema, count: scan.sampleCount, firstTime: scan.firstTime ?? 0,
                        lastTime: scan.lastTime ?? 0, rate: scan.nominalRate)
        }
    }

    /// The reader of a file's scan and the samples it parsed.
    final class Parsed {
        var reader: (any SampleSource)?
        var spool: SampleSpool?
    }

    /// Samples in memory.
    public init(recording: Recording) {
        path = recording.path
        open = { ArraySource(recording) }
        scan = {
            Scan(schema: recording.schema, count: recording.samples.count, firstTime: recording.samples.first?.time ?? 0,
                 lastTime: recording.samples.last?.time ?? 0, rate: nominalSampleRate(of: recording.samples))
        }
    }

    /// Rows read at a time in each pass. A chunk is held several times at once (parsed ahead,
    /// waiting, in the run, gathered for a chunk pass), at about 200 bytes a sample.
    static let chunkSize = 4096

    /// One pass: a `Run` of `pipeline` over the recording into `sink`, whose summary it returns;
    /// the next samples are parsed in another thread while the sinks work (`PrefetchedSource`).
    func run<S: Sink>(_ pipeline: Pipeline = Pipeline(), into sink: S) throws -> S.Summary {
        let source = PrefetchedSource(try open(), chunkSize: Self.chunkSize)
        defer { source.stop() }
        var run = Run(source: source, pipeline: pipeline, clock: AsFastAsPossible())
        var sink = sink
        return try run.run(into: &sink).summary
    }
}
