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

/// Opens recordings with the reader for their format.
public enum RecordingSources {
    /// The source for `path` (`-`: standard input), chosen by its content: a ROS 1 bag
    /// (`RosBagReader`, first line `#ROSBAG V2.0`), else Poise's CSV dialects
    /// (`RecordingReader`: Poise/BROAD names, x-io Fusion, phyphox, EuRoC). Standard input is
    /// always read as CSV (a bag's index is read first, which needs a seekable file).
    ///
    /// - Throws: `RecordingError` naming the file and what is wrong with it.
    public static func open(path: String, options: ReadOptions = ReadOptions()) throws -> any SampleSource {
        if RosBagReader.recognizes(path: path) { return try RosBagReader(path: path, options: options) }
        return try RecordingReader(path: path, options: options)
    }
}
