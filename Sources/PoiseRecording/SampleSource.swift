import Poise

/// Where samples come from: a recording file today, and any other format or live stream that
/// delivers `MotionSample`s in the core's units (seconds, g, rad/s, µT) with the schema of what
/// it has. Commands, drivers and scans take a source, never a particular reader.
///
/// A source is read once, in order. Errors are `RecordingError`s that say where (file, line or
/// record, column) and what.
public protocol SampleSource: AnyObject {
    /// The path (or address) the samples come from, for messages.
    var path: String { get }
    /// Which quantities the source has, with their original names and units.
    var schema: RecordingSchema { get }
    /// Problems met and repaired so far (lenient reading), and their counts.
    var issues: [RecordingIssue] { get }
    var summary: ReadSummary { get }
    /// The next sample, or `nil` at the end.
    func next() throws -> MotionSample?
    /// Appends up to `maximumCount` samples to `samples`; returns how many (0 at the end).
    @discardableResult
    func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int
}

extension RecordingReader: SampleSource {}

extension SampleSource {
    /// `read(into:maximumCount:)` for sources that make one sample at a time (the ROS bag, MCAP
    /// and session readers): appends `next()` until `maximumCount` samples or the end; returns
    /// how many.
    public func readByNext(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        var count = 0
        while count < maximumCount, let sample = try next() {
            samples.append(sample)
            count += 1
        }
        return count
    }
}

/// Opens recordings with the reader for their format.
public enum RecordingSources {
    /// The source for `path` (`-`: standard input), chosen by its content: a ROS 1 bag
    /// (`RosBagReader`, first line `#ROSBAG V2.0`), an MCAP file (`McapReader`, ROS 2 messages;
    /// the MCAP magic), else Poise's CSV dialects
    /// (`RecordingReader`: Poise/BROAD names, x-io Fusion, phyphox, EuRoC). Standard input is
    /// always read as CSV (a bag's index or an MCAP summary is read first, which needs a seekable file).
    ///
    /// - Throws: `RecordingError` naming the file and what is wrong with it.
    ///
    /// A folder is a session (`SessionReader`: Sensor Logger, x-IMU3). With `options.mount` the
    /// source is wrapped in a `MountedSource`. A FIFO, process substitution or character device
    /// is read once, into a temporary copy that this and every later open reads
    /// (`InputSpools`).
    public static func open(path: String, options: ReadOptions = ReadOptions()) throws -> any SampleSource {
        if let mount = options.mount { return MountedSource(try open(path: path, options: options.withoutMount), mount: mount) }
        // A pipe or device is read once, into a copy every pass reads (`InputSpools`).
        let path = try InputSpools.regularFile(for: path)
        if SessionReader.recognizes(path: path) { return try SessionReader(path: path, options: options) }
        if RosBagReader.recognizes(path: path) { return try RosBagReader(path: path, options: options) }
        if McapReader.recognizes(path: path) { return try McapReader(path: path, options: options) }
        return try RecordingReader(path: path, options: options)
    }

    /// CSV rows from a live stream (`LiveFeed`), named `name` in messages, read in the calling
    /// thread; `options.mount` applies as for files.
    public static func open(stream: any ByteStream, name: String, options: ReadOptions = ReadOptions()) throws -> any SampleSource {
        if let mount = options.mount { return MountedSource(try open(stream: stream, name: name, options: options.withoutMount), mount: mount) }
        return try RecordingReader(stream: stream, name: name, options: options)
    }
}

extension ReadOptions {
    /// These options without `mount` (for the source a `MountedSource` wraps).
    var withoutMount: ReadOptions {
        var options = self
        options.mount = nil
        return options
    }
}
