import Poise

/// A source read ahead in another thread (`ChunkPrefetcher`): while the caller works on the
/// samples it has, the next chunks of `base` are parsed, so a pass costs about the larger of
/// parsing and processing rather than their sum. The samples, their order and the error (after
/// every sample before it) are those of `base`.
///
/// `base` belongs to the prefetching thread until `stop()`: `schema` is taken when the source is
/// made; read `issues` and `summary` only after the end or `stop()`.
public final class PrefetchedSource: SampleSource {
    /// The source read ahead.
    public let base: any SampleSource
    public let schema: RecordingSchema
    private let ahead: ChunkPrefetcher
    private var pending: [MotionSample] = []
    private var offset = 0

    /// Starts reading `base` in chunks of up to `chunkSize` samples.
    public init(_ base: any SampleSource, chunkSize: Int) {
        self.base = base
        schema = base.schema
        ahead = ChunkPrefetcher(base, chunkSize: chunkSize)
    }

    deinit { ahead.stop() }

    public var path: String { base.path }
    public var issues: [RecordingIssue] { base.issues }
    public var summary: ReadSummary { base.summary }

    /// Stops reading ahead and waits for the prefetching thread to leave `base`.
    public func stop() { ahead.stop() }

    /// Whether samples are waiting (taking the next chunk when the held one is used up).
    private func fill() throws -> Bool {
        if offset < pending.count { return true }
        guard let chunk = try ahead.next() else { return false }
        pending = chunk
        offset = 0
        return !pending.isEmpty
    }

    public func next() throws -> MotionSample? {
        guard try fill() else { return nil }
        offset += 1
        return pending[offset - 1]
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        guard maximumCount > 0, try fill() else { return 0 }
        let count = min(maximumCount, pending.count - offset)
        samples.append(contentsOf: pending[offset..<(offset + count)])
        offset += count
        return count
    }
}
