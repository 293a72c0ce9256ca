import Poise

/// What a command needs to know about a recording before it processes it, found by one streaming
/// pass that keeps no samples: every row is read and checked (so a bad row is reported, with file,
/// line and column, before anything runs), samples are counted, and the first and last timestamps
/// and the recording's rate (`nominalSampleRate(of:)`: the median interval of the first
/// `NominalRate.rowCount` rows) are kept.
public struct RecordingScan: Sendable {
    /// The path read.
    public var path: String
    /// The column layout.
    public var schema: RecordingSchema
    /// Samples delivered by the reader.
    public var sampleCount: Int
    /// Time of the first and last sample, s (`nil` without samples).
    public var firstTime: Double?
    public var lastTime: Double?
    /// The recording's rate, Hz: `nominalSampleRate(of:)`, the one rule every command uses;
    /// `nil` when the first rows' timestamps never increase.
    public var nominalRate: Double?
    /// The reader's stored issues (lenient mode; the first `ReadOptions.maximumStoredIssues`) and counts.
    public var issues: [RecordingIssue]
    public var summary: ReadSummary

    /// Reads `path` once with `RecordingSources.open`.
    ///
    /// - Throws: `RecordingError` (file, line, column) for anything the reader rejects.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        try self.init(path: path, reading: try RecordingSources.open(path: path, options: options))
    }

    /// Scans `source`, a recording just opened (a caller that keeps the samples some other way,
    /// `SpoolingSource`, passes its own source).
    ///
    /// - Throws: what the source throws.
    public init(path: String, reading reader: any SampleSource) throws {
        self.path = path
        schema = reader.schema
        var rate = NominalRate.Estimator()
        var count = 0
        var first: Double?
        var previous = 0.0
        while let sample = try reader.next() {
            if count == 0 { first = sample.time }
            if count < NominalRate.rowCount { rate.add(time: sample.time) }
            previous = sample.time
            count += 1
        }
        sampleCount = count
        firstTime = first
        lastTime = count > 0 ? previous : nil
        nominalRate = rate.rate
        issues = reader.issues
        summary = reader.summary
    }
}
