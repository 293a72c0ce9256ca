import Poise
import PoiseRecording

/// What a replay needs to know about a recording before delivering it, found by one streaming pass
/// over the file that keeps no samples: every row is read and checked (so a bad row is reported,
/// with file, line and column, before anything runs), samples are counted, and the first and last
/// timestamps and the median rate of a bounded prefix are kept.
///
/// The nominal rate is the median positive interval of the first `rateSampleCount` samples (65,536:
/// about 11 minutes at 100 Hz, 3.8 minutes at 285.7 Hz), so it equals `nominalSampleRate(of:)` of
/// the whole recording for any recording up to that length, and memory stays bounded (512 KiB of
/// intervals) for longer ones.
public struct RecordingScan: Sendable {
    /// Samples the median rate is measured on (the first ones of the recording).
    public static let rateSampleCount = 1 << 16

    /// The path read.
    public var path: String
    /// The column layout.
    public var schema: RecordingSchema
    /// Samples delivered by the reader.
    public var sampleCount: Int
    /// Time of the first and last sample, s (`nil` without samples).
    public var firstTime: Double?
    public var lastTime: Double?
    /// Median rate of the first `rateSampleCount` samples, Hz (1 / median positive interval);
    /// `nil` when their timestamps never increase.
    public var nominalRate: Double?
    /// The reader's stored issues (lenient mode; the first `ReadOptions.maximumStoredIssues`) and counts.
    public var issues: [RecordingIssue]
    public var summary: ReadSummary

    /// Reads `path` once with `RecordingReader`.
    ///
    /// - Throws: `RecordingError` (file, line, column) for anything the reader rejects.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        let reader = try RecordingReader(path: path, options: options)
        self.path = path
        schema = reader.schema
        var intervals: [Double] = []
        var count = 0
        var first: Double?
        var previous = 0.0
        while let sample = try reader.next() {
            if count == 0 {
                first = sample.time
            } else if count < Self.rateSampleCount {
                let interval = sample.time - previous
                if interval > 0, interval.isFinite { intervals.append(interval) }
            }
            previous = sample.time
            count += 1
        }
        sampleCount = count
        firstTime = first
        lastTime = count > 0 ? previous : nil
        if intervals.isEmpty {
            nominalRate = nil
        } else {
            intervals.sort()
            nominalRate = 1 / intervals[intervals.count / 2]
        }
        issues = reader.issues
        summary = reader.summary
    }
}

/// A recording read as a `Sequence` of samples, streamed from disk in constant memory (one
/// `RecordingReader` per iteration). A sequence cannot throw, so a read error ends the iteration
/// and is kept in `error`: check it after the loop.
public final class RecordingStream: Sequence, @unchecked Sendable {
    /// The path and options read with.
    public let path: String
    public let options: ReadOptions
    /// The first error met while iterating (the iteration ended there), or `nil`.
    public private(set) var error: (any Error)?

    /// - Throws: `RecordingError` when the file cannot be opened or its header is unusable (checked
    ///   once here; each iteration reopens the file).
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        _ = try RecordingReader(path: path, options: options)
    }

    public struct Iterator: IteratorProtocol {
        let stream: RecordingStream
        var reader: RecordingReader?

        public mutating func next() -> MotionSample? {
            guard let reader else { return nil }
            do {
                if let sample = try reader.next() { return sample }
            } catch {
                if stream.error == nil { stream.error = error }
            }
            self.reader = nil
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        do {
            return Iterator(stream: self, reader: try RecordingReader(path: path, options: options))
        } catch {
            if self.error == nil { self.error = error }
            return Iterator(stream: self, reader: nil)
        }
    }
}
