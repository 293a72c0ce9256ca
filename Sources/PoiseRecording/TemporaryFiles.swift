#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files `OutputFile` is writing, so that a signal handler can delete them before
/// the process exits (`removeAll()` is async-signal-safe: it only reads fixed memory and calls
/// `unlink(2)`).
///
/// Holds up to 64 paths at once; an output opened beyond that still works, its temporary file is
/// just not removed by a signal.
public enum TemporaryFiles {
    private static let capacity = 64
    // One C string per slot (nil = free). A released name is never freed, so a handler that reads
    // a slot while another thread releases it still reads valid memory (a few bytes per output).
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    nonisolated(unsafe) private static var lockReady: Bool = {
        pthread_mutex_init(&lock, nil)
        return true
    }()

    /// Touches the storage so that its one-time set-up never runs inside a signal handler.
    public static func prepare() {
        _ = lockReady
        _ = slots
    }

    /// Records `path`; returns its slot for `unregister`, or nil when all slots are taken.
    public static func register(_ path: String) -> Int? {
        prepare()
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for slot in 0..<capacity where slots[slot] == nil {
            slots[slot] = strdup(path)
            return slot
        }
        return nil
    }

    /// Forgets the path in `slot` (renamed or deleted).
    public static func unregister(_ slot: Int) {
        pthread_mutex_lock(&lock)
        slots[slot] = nil
        pthread_mutex_unlock(&lock)
    }

    /// Deletes every registered temporary file. Async-signal-safe.
    public static func removeAll() {
        for slot in 0..<capacity {
            if let name = slots[slot] { unlink(name) }
        }
    }
}
