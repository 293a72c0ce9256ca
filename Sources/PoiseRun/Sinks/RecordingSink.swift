import Poise
import PoiseRecording

/// Writes each record as a row of Poise's canonical recording CSV (`RecordingWriter`: Poise
/// column names, core units, every number in its shortest exact form), so the output is itself a
/// recording: `convert` (no pipeline) and `remap` (a remapping pipeline).
///
/// A row holds the input's time and movement, the record's current acceleration, rotation rate
/// and magnetic field (as the pipeline left them), and the ground truth: where the input has
/// one, the record's attitude when the pipeline writes an attitude (`truth | remap:…` carries
/// the truth into the remapped frame; never put an estimating stage such as fusion in such a
/// pipeline), else the input's own. The columns are those the source's schema has.
///
/// The file is written atomically (`OutputFile`): `finish(_:)` renames it into place after a
/// complete run and abandons it after a stopped one; `-` is standard output.
public struct RecordingSink: Sink {
    /// The writer (its `path` and `options`).
    public let writer: RecordingWriter
    private var truthFromAttitude = false

    /// Creates the output (its temporary file) and writes the header.
    ///
    /// - Parameters:
    ///   - path: the destination (`-`: standard output).
    ///   - schema: the source's schema; its sensors, truth and movement are the columns.
    /// - Throws: `RecordingError` when the file cannot be created.
    public init(path: String, schema: RecordingSchema) throws {
        writer = try RecordingWriter(path: path, options: WriteOptions(schema: schema))
    }

    public mutating func begin(_ schema: RunSchema) {
        truthFromAttitude = schema.outputs.contains(.attitude)
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        var sample = record.input
        sample.acceleration = record.acceleration
        sample.rotationRate = record.rotationRate
        sample.magneticField = record.magneticField
        if truthFromAttitude, sample.truth != nil { sample.truth = record.attitude }
        try writer.write(sample)
    }

    /// Renames the file into place, or after a stopped run removes it.
    ///
    /// - Throws: `RecordingError` when a write, the close or the rename failed.
    public mutating func finish(_ end: RunEnd) throws {
        if end.stopped { writer.abandon() } else { try writer.close() }
    }
}
