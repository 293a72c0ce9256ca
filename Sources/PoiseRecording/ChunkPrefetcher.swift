import Foundation
import Poise

/// Reads a source ahead in its own thread: while the caller works on one chunk of samples, the
/// next ones are parsed (at most `depth` chunks wait), so a pass over a file costs about the
/// larger of parsing and processing rather than their sum. The samples, their order and the
/// error (at the chunk where the source raised it, after every chunk before it) are exactly what
/// reading the source in the caller's thread gives.
///
/// The source is read only by the prefetching thread until `stop()`, which waits for that thread;
/// the caller must not use the source meanwhile, and must call `stop()` when done (a thread
/// waiting to hand on a chunk holds the prefetcher).
public final class ChunkPrefetcher: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`; the source is touched by the
    // prefetching thread only, until `stop()` has joined it.
    private let source: any SampleSource
    private let chunkSize: Int
    private let depth: Int
    private let condition = NSCondition()
    private var ready: [[MotionSample]] = []
    private var failure: (any Error)?
    private var finished = false
    private var stopped = false
    private let exited = DispatchSemaphore(value: 0)

    /// Starts reading `source` in chunks of up to `chunkSize` samples, holding at most `depth`
    /// chunks not yet taken.
    public init(_ source: any SampleSource, chunkSize: Int, depth: Int = 2) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        self.depth = max(1, depth)
        let thread = Thread { [self] in run() }
        thread.name = "poise prefetch"
        thread.start()
    }

    deinit { stop() }

    /// The next chunk in order, `nil` at the end of the source.
    ///
    /// - Throws: the source's error, after every chunk read before it.
    public func next() throws -> [MotionSample]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            let chunk = ready.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops reading and waits for the prefetching thread to leave the source.
    public func stop() {
        condition.lock()
        let wasStopped = stopped
        stopped = true
        condition.broadcast()
        condition.unlock()
        if !wasStopped { exited.wait() }
    }

    private func run() {
        defer { exited.signal() }
        while true {
            var chunk: [MotionSample] = []
            chunk.reserveCapacity(chunkSize)
            let count: Int
            do {
                count = try source.read(into: &chunk, maximumCount: chunkSize)
            } catch {
                condition.lock()
                failure = error   // as in the caller's loop, samples appended by the failing read are not handed on
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.lock()
            if count == 0 || stopped {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            while ready.count >= depth && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            ready.append(chunk)
            condition.broadcast()
            condition.unlock()
        }
    }
}
