import Foundation
import Poise

/// `body(0) … body(count − 1)` computed on `threads` worker threads; results in index order.
/// `progress` is called with (done, count) after each index, under a lock.
public func parallelMap<T: Sendable>(count: Int, threads: Int, progress: (@Sendable (Int, Int) -> Void)? = nil,
                              _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let shared = ParallelMapState<T>(count: count)
    let workers = max(1, min(threads, count))
    let work: @Sendable (Int) -> Void = { _ in
        while true {
            shared.lock.lock()
            let index = shared.next
            shared.next += 1
            shared.lock.unlock()
            guard index < count else { return }
            let value = body(index)
            shared.lock.lock()
            shared.results[index] = value
            shared.done += 1
            progress?(shared.done, count)
            shared.lock.unlock()
        }
    }
    if workers == 1 {
        work(0)
    } else {
        DispatchQueue.concurrentPerform(iterations: workers, execute: work)
    }
    return shared.results.map { $0! }
}

/// Work counter and result slots of ``parallelMap(count:threads:progress:_:)``, guarded by `lock`.
private final class ParallelMapState<T>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var done = 0
    var results: [T?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
}
