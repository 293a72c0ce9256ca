#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered text output that never leaves a half-written file under the destination's name and
/// never replaces anything that is not a regular file.
///
/// How `path` is written depends on what it names:
/// - `-`, or the file this process's standard output already is (`/dev/stdout`, `/dev/fd/1`):
///   straight to file descriptor 1.
/// - A character device, FIFO (named pipe) or socket (`/dev/null`, `/dev/tty`, `mkfifo` pipes),
///   or anything else under `/dev` or `/proc`: opened and written straight through; the node
///   stays what it was (nothing is ever created or renamed there).
/// - A regular file, or a name that does not exist yet: bytes go to a temporary file
///   `NAME.partial-PID` in the destination's folder; `finish()` flushes, closes and renames it
///   onto the destination in one step (an existing file's permission bits are kept). A writer that
///   is abandoned, fails, or is dropped without `finish()` deletes its temporary file and leaves the
///   destination as it was. The temporary file is also registered with `TemporaryFiles`, so a
///   signal handler can remove it.
/// - In place (`init(path:inPlace: true)`, for a live stream's output): a regular file, or a
///   name that does not exist yet, is created or truncated and written as the run goes, so it
///   holds everything flushed so far whatever ends the run (no temporary file, no rename).
/// - A symbolic link: resolved (link chains, relative targets); the file it points to is written
///   as above and the link stays a link.
/// - A folder: refused.
///
/// Writes go through one 64 KiB buffer. Used by `RecordingWriter`, the replay output and every
/// `poise` command that writes a file.
public final class OutputFile {
    /// How the destination is written.
    public enum Mode: Sendable, Equatable {
        /// File descriptor 1.
        case standardOutput
        /// Opened and written in place (device, FIFO, socket): not atomic.
        case direct
        /// A temporary file renamed onto the destination by `finish()`.
        case atomic
        /// A regular file written in place as the run goes (`init(path:inPlace:)`).
        case inPlace
    }

    /// The destination as given (`-` for standard output).
    public let path: String
    /// The file written after following symbolic links (`path` itself when it is not a link).
    public let destination: String
    /// Where bytes are written until `finish()`: `destination + ".partial-PID"` in atomic mode,
    /// otherwise `destination`.
    public let temporaryPath: String
    /// How the destination is written.
    public let mode: Mode
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: String?
    private var temporarySlot: Int?
    private static let flushThreshold = 1 << 16

    /// Opens `path` for writing as described on the type.
    ///
    /// - Throws: `RecordingError` (line 0) naming the path and saying in plain words what is
    ///   wrong (missing folder, no permission, a folder given, read-only disk…).
    public convenience init(path: String) throws {
        try self.init(path: path, inPlace: false)
    }

    /// Opens `path` for writing; `inPlace`: a regular file is written in place as it goes
    /// (`Mode.inPlace`) instead of atomically.
    ///
    /// - Throws: as `init(path:)`.
    public init(path: String, inPlace: Bool) throws {
        self.path = path
        buffer.reserveCapacity(Self.flushThreshold + 4096)
        if OutputFile.isStandardOutput(path) {
            destination = path
            temporaryPath = path
            mode = .standardOutput
            descriptor = STDOUT_FILENO
            fflush(nil)  // text printed before stays before
            return
        }
        let resolved = try OutputFile.resolvingLinks(path)
        let system = OutputFile.isSystemPath(path) || OutputFile.isSystemPath(resolved)
        var info = stat()
        if stat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                throw RecordingError(file: path, line: 0, column: 0, message: "cannot write: it is a folder; give a file name")
            }
            if kind != S_IFREG || system {
                // Devices, FIFOs, sockets, anything in /dev or /proc: write through, never
                // replace the node.
                destination = path
                temporaryPath = path
                mode = .direct
                // A FIFO without a reader blocks the open: a signal ends the process meanwhile.
                descriptor = TemporaryFiles.exitingOnSignal { open(path, O_WRONLY | O_CLOEXEC | (kind == S_IFREG ? O_TRUNC : 0)) }
                if descriptor < 0 {
                    throw RecordingError(file: path, line: 0, column: 0, message: "cannot write: \(FileProblem.describe(errno: errno, path: path))")
                }
                return
            }
        }
        if system {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot write: no such device (Poise creates no files in /dev or /proc)")
        }
        destination = resolved
        if inPlace {
            temporaryPath = destination
            mode = .inPlace
            descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if descriptor < 0 {
                throw RecordingError(file: path, line: 0, column: 0, message: "cannot create the file: \(FileProblem.describe(errno: errno, path: destination))")
            }
            return
        }
        temporaryPath = destination + ".partial-\(getpid())"
        mode = .atomic
        unlink(temporaryPath)  // a leftover of an earlier process with the same id
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot create the file: \(FileProblem.describe(errno: errno, path: destination))")
        }
        temporarySlot = TemporaryFiles.register(temporaryPath)
        if stat(destination, &info) == 0 { fchmod(descriptor, info.st_mode & 0o7777) }
    }

    /// Writes to standard output (flushed every 64 KiB and at `finish()`).
    public static var standardOutput: OutputFile {
        // "-" never fails to open.
        try! OutputFile(path: "-")
    }

    /// Appends UTF-8 text.
    public func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Appends bytes.
    public func append<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Appends one byte.
    @inline(__always)
    public func append(byte: UInt8) {
        buffer.append(byte)
    }

    /// Flushes when the buffer is full (for callers that append bytes one at a time).
    @inline(__always)
    public func flushIfFull() {
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Called, when set, as soon as a write finds the reading end of its pipe closed (EPIPE, with
    /// SIGPIPE ignored: `poise fuse … --out - | head -1`). The `poise` command sets it to end the
    /// process there (status 141, `ExitPolicy`); without it the failure is kept and thrown by
    /// `finish()` like any other write error.
    nonisolated(unsafe) public static var onClosedPipe: (() -> Void)?

    /// The first write error in words, or `nil` while every write succeeded.
    public var writeFailure: String? { failure }

    /// Writes the buffer out. A write error is remembered (`writeFailure`) and thrown by `finish()`.
    public func flush() {
        guard descriptor >= 0, failure == nil else { buffer.removeAll(keepingCapacity: true); return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE, let closed = Self.onClosedPipe { closed() }
                failure = FileProblem.describe(errno: errno, path: destination)
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; in atomic mode renames the temporary file onto the destination.
    ///
    /// - Throws: `RecordingError` (line 0) when writing, closing or renaming failed; the
    ///   temporary file is then removed and the destination left as it was.
    public func finish() throws {
        guard descriptor >= 0 else { return }
        flush()
        let descriptor = self.descriptor
        self.descriptor = -1
        let name = mode == .standardOutput ? "standard output" : path
        if mode != .standardOutput, systemClose(descriptor) != 0, failure == nil {
            failure = FileProblem.describe(errno: errno, path: destination)
        }
        if let failure {
            if mode == .atomic { removeTemporaryFile() }
            throw RecordingError(file: name, line: 0, column: 0, message: "write failed: \(failure)")
        }
        guard mode == .atomic else { return }
        if rename(temporaryPath, destination) != 0 {
            let reason = FileProblem.describe(errno: errno, path: destination)
            removeTemporaryFile()
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot replace the file: \(reason)")
        }
        releaseSlot()
    }

    /// Stops writing. In atomic mode the temporary file is deleted and the destination left as it
    /// was; bytes already written to a device, pipe or standard output stay written.
    public func abandon() {
        guard descriptor >= 0 else { return }
        buffer.removeAll()
        if mode != .standardOutput { systemClose(descriptor) }
        if mode == .atomic { removeTemporaryFile() }
        descriptor = -1
    }

    deinit { abandon() }

    private func removeTemporaryFile() {
        unlink(temporaryPath)
        releaseSlot()
    }

    private func releaseSlot() {
        if let slot = temporarySlot { TemporaryFiles.unregister(slot) }
        temporarySlot = nil
    }

    /// True for paths in `/dev` and `/proc`, which are only ever written in place.
    static func isSystemPath(_ path: String) -> Bool {
        path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
    }

    /// True when `OutputFile(path:)` writes standard output: `-`, or the very file (device and
    /// inode) standard output is open on named through `/dev` or `/proc` (`/dev/stdout`,
    /// `/dev/fd/1`, `/proc/self/fd/1`). Commands use it to send their summaries elsewhere.
    public static func isStandardOutput(_ path: String) -> Bool {
        if path == "-" { return true }
        guard isSystemPath(path) else { return false }
        guard let named = FileIdentity(path: path), let output = FileIdentity(descriptor: STDOUT_FILENO) else { return false }
        return named == output
    }

    /// Follows a chain of symbolic links to the file it ends at (which may not exist yet).
    static func resolvingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &target, target.count - 1)
            guard count >= 0 else { return current }
            let link = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        throw RecordingError(file: path, line: 0, column: 0, message: "cannot write: too many levels of symbolic links")
    }
}
