import Poise

/// Samples already in memory, delivered as a `SampleSource` (for code that takes a source and a
/// caller that holds a `Recording`).
public final class ArraySource: SampleSource {
    public let path: String
    public let schema: RecordingSchema
    public let issues: [RecordingIssue] = []
    public private(set) var summary = ReadSummary()
    let samples: [MotionSample]
    var position = 0

    public init(path: String, schema: RecordingSchema, samples: [MotionSample]) {
        self.path = path; self.schema = schema; self.samples = samples
    }

    public convenience init(_ recording: Recording) {
        self.init(path: recording.path, schema: recording.schema, samples: recording.samples)
    }

    public func next() throws -> MotionSample? {
        guard position < samples.count else { return nil }
        defer { position += 1; summary.rowsDelivered += 1 }
        return samples[position]
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        let end = min(self.samples.count, position + max(0, maximumCount))
        samples.append(contentsOf: self.samples[position..<end])
        let count = end - position
        position = end
        summary.rowsDelivered += count
        return count
    }
}
