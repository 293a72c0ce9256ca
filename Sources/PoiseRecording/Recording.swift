import Poise

/// Options for reading a recording.
public struct ReadOptions: Sendable {
    /// The file's accelerometer uses Apple's raw convention (−1 g on the up axis at rest).
    /// When true, acceleration is negated to Poise's specific-force convention. Never guessed.
    public var appleAccelerometerSign: Bool
    /// Strict (default) stops at the first error; lenient repairs or drops rows and reports each one.
    public var strict: Bool
    /// Size of the reader's one input buffer in bytes (default 1 MiB). Memory use does not grow
    /// with the file; a line longer than this is an error.
    public var bufferSize: Int
    /// How many issues the reader keeps in `RecordingReader.issues` (all are counted in
    /// `ReadSummary` and passed to `onIssue`). Default 1000.
    public var maximumStoredIssues: Int

    /// Reads regular files through a read-only memory mapping instead of read(2) into the one
    /// buffer (default false). Mapping saves a copy of every byte (measured: within a few % of
    /// read(2), `make bench SUITES=ingest`), but if another process truncates the file while it
    /// is read, touching the lost pages kills the process with SIGBUS — so it is opt-in, for files
    /// nobody is writing. Consumed pages are released as the read advances, so resident memory
    /// stays bounded either way. Pipes and empty files always use read(2).
    public var memoryMap: Bool

    /// Sample rate in Hz of a file without a time column: its n-th data row (from 0, counting
    /// rows that are dropped in lenient mode, not blank lines) gets time n / rate seconds. Nil
    /// (default): such a file is an error. Ignored when the file has a time column.
    public var sampleRate: Double?

    /// The unit of the time column, overriding the one its header names (for `t_s` columns that
    /// hold milliseconds or epoch nanoseconds). Nil (default): the header's unit. The schema then
    /// shows the column with this unit. Ignored for a file without a time column.
    public var timeUnit: TimeUnit?

    /// The field delimiter. Nil (default): detected from the header line (the most frequent of
    /// comma, semicolon and tab outside quotes).
    public var delimiter: CSVDelimiter?

    /// Whether numbers use a decimal comma (`9,81`). Nil (default): for a semicolon- or
    /// tab-separated file, what its first data row shows (a comma: true; a point: false; neither:
    /// true for semicolons), else false. A decimal comma with comma delimiters is an error.
    public var decimalComma: Bool?

    /// The topic to read from a multi-topic container (a ROS bag's `sensor_msgs/Imu` topic, e.g.
    /// `/imu/data_raw`). Nil (default): the first IMU topic. Ignored by CSV files.
    public var topic: String?

    /// An explicit column mapping (`t=time:ns,acc=ax,ay,az:mps2,…`, see `ColumnSpec`) that
    /// replaces the header's recognition; also reads files without a header line. Nil
    /// (default): the header decides. CSV files only.
    public var columns: ColumnSpec?

    /// Lines at the start of a CSV file to skip before the header (or, without a header, the
    /// first data row): a logger's preamble. Line numbers in messages stay the file's. Default 0.
    public var skipLines: Int

    /// How the sensor is mounted: a rotation from the file's sensor axes to the device axes
    /// Poise uses, applied to acceleration, rotation rate and magnetic field (and a ground-truth
    /// attitude) as they are read, by every format (`SensorMount`, the CLI's `--mount`). Nil
    /// (default): the file's axes are the device axes.
    public var mount: SensorMount?

    /// Line prefixes that mark comment lines besides the built-in `//` and `#` (e.g. `%`, `;`),
    /// skipped before the header and between data rows (counted in `ReadSummary.commentLines`);
    /// line numbers in messages stay the file's. Each is non-empty, without spaces, and cannot
    /// start a number. Default none. CSV files (and each file of a session folder).
    public var commentPrefixes: [String]

    public init(appleAccelerometerSign: Bool = false, strict: Bool = true,
                bufferSize: Int = 1 << 20, maximumStoredIssues: Int = 1000, memoryMap: Bool = false,
                sampleRate: Double? = nil, timeUnit: TimeUnit? = nil,
                delimiter: CSVDelimiter? = nil, decimalComma: Bool? = nil, topic: String? = nil,
                columns: ColumnSpec? = nil, skipLines: Int = 0, mount: SensorMount? = nil, commentPrefixes: [String] = []) {
        self.commentPrefixes = commentPrefixes
        self.columns = columns
        self.skipLines = skipLines
        self.mount = mount
        self.delimiter = delimiter
        self.decimalComma = decimalComma
        self.topic = topic
        self.memoryMap = memoryMap
        self.sampleRate = sampleRate
        self.timeUnit = timeUnit
        self.appleAccelerometerSign = appleAccelerometerSign
        self.strict = strict
        self.bufferSize = bufferSize
        self.maximumStoredIssues = maximumStoredIssues
    }
}

/// A recording held in memory: its schema and samples in core units.
public struct Recording: Sendable {
    /// The path it was read from.
    public var path: String
    /// The column layout.
    public var schema: RecordingSchema
    /// Samples in file order.
    public var samples: [MotionSample]
    /// Issues found while reading (the first `ReadOptions.maximumStoredIssues`).
    public var issues: [RecordingIssue]
    /// Row and issue counts of the read.
    public var summary: ReadSummary

    public init(path: String, schema: RecordingSchema, samples: [MotionSample],
                issues: [RecordingIssue] = [], summary: ReadSummary = ReadSummary()) {
        self.path = path; self.schema = schema; self.samples = samples
        self.issues = issues; self.summary = summary
    }

    /// Reads a whole recording into memory (use `RecordingReader` to stream instead).
    ///
    /// - Throws: `RecordingError` naming file, line and column for anything it cannot read (in
    ///   strict mode the first problem; in lenient mode only unreadable files and headers).
    public static func load(path: String, options: ReadOptions = ReadOptions()) throws -> Recording {
        let reader = try RecordingSources.open(path: path, options: options)
        var samples: [MotionSample] = []
        // Reserve for the whole file from the size of the first rows, so the array is not
        // regrown and copied (about 40 % of the load time of a 1M-row file).
        try reader.read(into: &samples, maximumCount: 1024)
        if let csv = reader.unmounted as? RecordingReader, let size = csv.fileSize, samples.count == 1024, csv.bytesConsumed > 0 {
            let bytesPerRow = Double(csv.bytesConsumed) / Double(samples.count)
            let estimate = Double(size) / bytesPerRow * 1.03 + 1024
            if estimate < 1e9 { samples.reserveCapacity(Int(estimate)) }
        }
        while try reader.read(into: &samples, maximumCount: 1 << 16) > 0 {}
        return Recording(path: path, schema: reader.schema, samples: samples,
                         issues: reader.issues, summary: reader.summary)
    }
}

extension ReadOptions {
    /// Throws when options that describe one CSV file's layout (`columns`, `skipLines`, and
    /// `commentPrefixes` unless `allowsComments`) are set for a source that is not such a file,
    /// so they are refused rather than dropped. `reason` says how that source is chosen instead.
    func refuseCSVLayout(path: String, allowsComments: Bool = false, _ reason: String) throws {
        let comments = !allowsComments && !commentPrefixes.isEmpty
        guard columns != nil || skipLines > 0 || comments else { return }
        let names = allowsComments ? "--columns and --skip-lines" : "--columns, --skip-lines and --comment"
        throw RecordingError(file: path, line: 0, column: 0, message: "\(names) describe one CSV file; \(reason)")
    }
}
