import Poise
import PoiseRecording

/// Samples from any sequence (generated, resampled, looped) delivered as a `SampleSource`, so a
/// `Run` can pull them. A sequence cannot throw: a sequence that fails (a `RecordingSamples`)
/// ends early and keeps its error for its owner to check after the run.
public final class SequenceSource<Samples: Sequence>: SampleSource where Samples.Element == MotionSample {
    public let path: String
    public let schema: RecordingSchema
    public let issues: [RecordingIssue] = []
    public private(set) var summary = ReadSummary()
    var iterator: Samples.Iterator

    /// - Parameters:
    ///   - path: the name used in messages.
    ///   - schema: what the samples hold (default: time and acceleration, `RecordingSchema.generated`).
    public init(_ samples: Samples, path: String = "samples",
                schema: RecordingSchema = .generated()) {
        self.path = path; self.schema = schema; iterator = samples.makeIterator()
    }

    public func next() throws -> MotionSample? {
        guard let sample = iterator.next() else { return nil }
        summary.rowsDelivered += 1
        return sample
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        var count = 0
        while count < maximumCount, let sample = iterator.next() {
            samples.append(sample)
            count += 1
        }
        summary.rowsDelivered += count
        return count
    }
}
