import Poise

/// A source whose samples are also appended to a ``SampleSpool`` as they are read; the spool is
/// finished when the source ends.
public final class SpoolingSource: SampleSource {
    let source: any SampleSource
    /// Where the samples go.
    public let spool: SampleSpool

    public init(_ source: any SampleSource, into spool: SampleSpool) {
        self.source = source
        self.spool = spool
    }

    public var path: String { source.path }
    public var schema: RecordingSchema { source.schema }
    public var issues: [RecordingIssue] { source.issues }
    public var summary: ReadSummary { source.summary }

    public func next() throws -> MotionSample? {
        guard let sample = try source.next() else { spool.finish(); return nil }
        spool.append(sample)
        return sample
    }

    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        let start = samples.count
        let count = try source.read(into: &samples, maximumCount: maximumCount)
        if count == 0 && maximumCount > 0 { spool.finish() }
        for k in start..<samples.count { spool.append(samples[k]) }
        return count
    }
}
