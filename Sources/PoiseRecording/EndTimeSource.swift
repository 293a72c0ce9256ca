import Poise

/// A source that ends before its first sample later than `end` (seconds, on the recording's
/// clock): that sample is read (its time is what tells) but nothing after it, so a command given
/// an end time (`--end`) does not parse, or fail on, the rest of a long file. Reads its source one
/// sample at a time. A sample whose time is not a number does not end it.
public final class EndTimeSource: SampleSource {
    /// The source read.
    public let base: any SampleSource
    /// The last time passed on, s.
    public let end: Double
    private var ended = false

    public init(_ base: any SampleSource, end: Double) {
        self.base = base
        self.end = end
    }

    public var path: String { base.path }
    public var schema: RecordingSchema { base.schema }
    public var issues: [RecordingIssue] { base.issues }
    public var summary: ReadSummary { base.summary }

    public func next() throws -> MotionSample? {
        guard !ended, let sample = try base.next() else { return nil }
        if sample.time > end {
            ended = true
            return nil
        }
        return sample
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        try readByNext(into: &samples, maximumCount: maximumCount)
    }
}
