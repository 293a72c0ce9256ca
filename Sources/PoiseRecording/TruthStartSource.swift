import Poise

/// A source that starts at the first sample with a ground-truth attitude (`MotionSample.truth`):
/// the samples before it are left out and counted (`skipped`); every later sample is passed on
/// as it is, with or without truth. For a pipeline that starts with the recorded attitude
/// (`TruthAttitudeStage`), which has nothing to hold before the first one.
public final class TruthStartSource: SampleSource {
    /// The source read.
    public let base: any SampleSource
    /// Samples left out before the first with truth (all of them when none has truth).
    public private(set) var skipped = 0
    private var started = false

    public init(_ base: any SampleSource) { self.base = base }

    public var path: String { base.path }
    public var schema: RecordingSchema { base.schema }
    public var issues: [RecordingIssue] { base.issues }
    public var summary: ReadSummary { base.summary }

    public func next() throws -> MotionSample? {
        while let sample = try base.next() {
            if started || sample.truth != nil { started = true; return sample }
            skipped += 1
        }
        return nil
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        let start = samples.count
        while !started {
            guard try base.read(into: &samples, maximumCount: maximumCount) > 0 else { return 0 }
            if let first = samples[start...].firstIndex(where: { $0.truth != nil }) {
                skipped += first - start
                samples.removeSubrange(start..<first)
                started = true
                return samples.count - start
            }
            skipped += samples.count - start
            samples.removeSubrange(start...)
        }
        return try base.read(into: &samples, maximumCount: maximumCount)
    }
}
