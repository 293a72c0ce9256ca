#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every temporary file and folder a `poise` process makes — the temporary files of outputs
/// being written (`OutputFile`), spools of standard input and of pipes (`InputSpools`), sample
/// spools — so that they are removed however the process ends: by their
/// owner, at exit (an `atexit` handler), and by the SIGINT/SIGTERM handler before it exits
/// (`removeAll()` is async-signal-safe: it only reads fixed memory and calls `unlink(2)` and
/// `rmdir(2)`; a registered folder is removed after the registered files, so the files put in it
/// must be registered too).
///
/// Holds up to 256 paths at once; a file made beyond that still works, it is just not removed by
/// a signal.
///
/// `exitingOnSignal(_:)` marks a call that may block without end (opening or reading a FIFO
/// whose writer never comes): a signal that arrives during it removes the temporary files and
/// ends the process at once, even while a command polls its interrupt flag.
public enum TemporaryFiles {
    private static let capacity = 256
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

    /// Whether each slot holds a folder (removed after the files).
    nonisolated(unsafe) private static let folderSlots: UnsafeMutablePointer<Bool> = {
        let slots = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        slots.initialize(repeating: false, count: capacity)
        return slots
    }()
    /// Calls in progress that may block without end (`exitingOnSignal`).
    nonisolated(unsafe) private static var blockingCalls: Int32 = 0
    nonisolated(unsafe) private static var exitHandlerInstalled: Bool = {
        atexit { TemporaryFiles.removeAll() }
        return true
    }()

    /// Touches the storage so that its one-time set-up never runs inside a signal handler.
    public static func prepare() {
        _ = lockReady
        _ = slots
        _ = folderSlots
        pthread_mutex_lock(&lock)
        _ = exitHandlerInstalled
        pthread_mutex_unlock(&lock)
    }

    /// True while a call marked by `exitingOnSignal` runs (read by the signal handler).
    public static var inBlockingCall: Bool { blockingCalls > 0 }

    /// Runs `body`, a call that may block without end (opening a FIFO, reading one to its end),
    /// such that SIGINT or SIGTERM during it removes the temporary files and ends the process at
    /// once (exit 130 or 143) instead of waiting for it to return.
    public static func exitingOnSignal<T>(_ body: () throws -> T) rethrows -> T {
        prepare()
        pthread_mutex_lock(&lock); blockingCalls += 1; pthread_mutex_unlock(&lock)
        defer { pthread_mutex_lock(&lock); blockingCalls -= 1; pthread_mutex_unlock(&lock) }
        return try body()
    }

    /// Makes an empty file `TMPDIR/PREFIX-XXXXXX` (mode 0600, `/tmp` without `TMPDIR`) and
    /// registers it; returns its descriptor, path and slot.
    ///
    /// - Throws: `RecordingError` naming the folder when no file can be made there.
    public static func makeFile(prefix: String, purpose: String) throws -> (descriptor: Int32, path: String, slot: Int?) {
        var descriptor: Int32 = -1
        let path = try make(prefix: prefix, what: "file", purpose: purpose) { descriptor = mkstemp($0); return descriptor >= 0 }
        return (descriptor, path, register(path))
    }

    /// Makes a file as `makeFile` does and unlinks it at once: only the returned descriptor keeps
    /// it, so it is gone when the descriptor is closed or the process ends, however it ends.
    ///
    /// - Throws: `RecordingError` naming the folder when no file can be made there.
    public static func makeUnlinkedFile(prefix: String, purpose: String) throws -> Int32 {
        let made = try makeFile(prefix: prefix, purpose: purpose)
        remove(made.path, slot: made.slot)
        return made.descriptor
    }

    /// Makes an empty folder `TMPDIR/PREFIX-XXXXXX` (mode 0700, `/tmp` without `TMPDIR`) and
    /// registers it; returns its path and slot. Register the files put in it too (`register`), so
    /// that `removeAll()` can remove the folder after them.
    ///
    /// - Throws: `RecordingError` naming the parent folder when no folder can be made there.
    public static func makeFolder(prefix: String, purpose: String) throws -> (path: String, slot: Int?) {
        let path = try make(prefix: prefix, what: "folder", purpose: purpose) { mkdtemp($0) != nil }
        return (path, register(path, isFolder: true))
    }

    /// Fills the template `TMPDIR/PREFIX-XXXXXX` with `create` (mkstemp, mkdtemp); the path made.
    private static func make(prefix: String, what: String, purpose: String,
                             _ create: (UnsafeMutablePointer<CChar>) -> Bool) throws -> String {
        let folder = temporaryFolder
        var template = Array("\(folder)/\(prefix)-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ create($0.baseAddress!) }) else {
            throw RecordingError(file: folder, line: 0, column: 0, message: "cannot make a temporary \(what) for \(purpose): \(String(cString: strerror(errno)))")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `TMPDIR`, or `/tmp` when it is not set.
    public static var temporaryFolder: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        return String(cString: value)
    }

    /// Removes the file (or empty folder) in `slot` and forgets it.
    public static func remove(_ path: String, slot: Int?) {
        if let slot, folderSlots[slot] { rmdir(path) } else { unlink(path) }
        if let slot { unregister(slot) }
    }

    /// Records `path`; returns its slot for `unregister`, or nil when all slots are taken.
    public static func register(_ path: String, isFolder: Bool = false) -> Int? {
        prepare()
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for slot in 0..<capacity where slots[slot] == nil {
            folderSlots[slot] = isFolder
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

    /// Deletes every registered temporary file, then every registered folder. Async-signal-safe.
    public static func removeAll() {
        for slot in 0..<capacity where !folderSlots[slot] {
            if let name = slots[slot] { unlink(name) }
        }
        for slot in 0..<capacity where folderSlots[slot] {
            if let name = slots[slot] { rmdir(name) }
        }
    }
}

