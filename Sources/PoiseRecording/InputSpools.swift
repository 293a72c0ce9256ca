#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs that can be read only once — a FIFO, a process substitution (`<(zcat x.gz)`, which
/// names a pipe under `/dev/fd`), a character device, a socket — copied once to a temporary file,
/// so that every reader and every pass over the input (a pre-scan, the median's passes, a
/// schema read before the data) reads the same bytes from a regular file.
///
/// `RecordingSources.open(path:)` asks for `regularFile(for:)` before it looks at a file: the
/// first time a process opens such an input it is read to its end into `TMPDIR/poise-input-*`
/// (registered with `TemporaryFiles`, removed at exit and by SIGINT/SIGTERM); every later open
/// of the same path in the process reads that copy. The open and the copy run inside
/// `TemporaryFiles.exitingOnSignal`, so a pipe whose writer never comes cannot hold the process
/// past a signal. Regular files, folders, block devices and `-` (standard input, read by the
/// commands themselves) are returned as they are. Messages about the copy name the input as given
/// (`RecordingError.description` asks `name(of:)`).
public enum InputSpools {
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    nonisolated(unsafe) private static var lockReady: Bool = {
        pthread_mutex_init(&lock, nil)
        return true
    }()
    /// Input path → its copy, and copy → input path.
    nonisolated(unsafe) private static var copies: [String: String] = [:]
    nonisolated(unsafe) private static var originals: [String: String] = [:]

    /// Whether `path` names something that can be read only once (FIFO, character device,
    /// socket), following links.
    public static func isReadOnce(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
    }

    /// `path` itself, or for an input that can be read only once the path of its copy (made on
    /// the first call for that path, see the type).
    ///
    /// - Throws: `RecordingError` naming `path` when it cannot be read or the copy cannot be
    ///   made or written (a full disk).
    public static func regularFile(for path: String) throws -> String {
        guard isReadOnce(path) else { return path }
        _ = lockReady
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if let copy = copies[path] { return copy }
        let copy = try makeCopy(of: path)
        copies[path] = copy
        originals[copy] = path
        return copy
    }

    /// A path from which standard input (`-`) can be read more than once: `/dev/stdin` itself when
    /// it is a regular file (a redirect, `< file`; every open reads the file from its start), or a
    /// copy made on the first call (a pipe). Messages about either name the input `-`.
    ///
    /// - Throws: `RecordingError` naming `-` when standard input cannot be read or the copy cannot
    ///   be made or written (a full disk).
    public static func standardInput() throws -> String {
        let path = "/dev/stdin"
        _ = lockReady
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if let copy = copies["-"] { return copy }
        var copy = path
        if isReadOnce(path) {
            do { copy = try makeCopy(of: path) } catch var error as RecordingError {
                error.file = "-"
                throw error
            }
        }
        copies["-"] = copy
        originals[copy] = "-"
        return copy
    }

    /// The input a copy was made of, or `file` itself.
    public static func name(of file: String) -> String {
        _ = lockReady
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return originals[file] ?? file
    }

    private static func makeCopy(of path: String) throws -> String {
        func failure(_ message: String) -> RecordingError { RecordingError(file: path, line: 0, column: 0, message: message) }
        let (output, copy, slot) = try TemporaryFiles.makeFile(prefix: "poise-input", purpose: "a copy of \(path) (a pipe is read once)")
        defer { close(output) }
        do {
            try TemporaryFiles.exitingOnSignal {
                let input = open(path, O_RDONLY | O_CLOEXEC)
                guard input >= 0 else { throw failure("cannot open the file (\(String(cString: strerror(errno))))") }
                defer { close(input) }
                let size = 1 << 20
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let count = read(input, buffer, size)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw failure("read failed (\(String(cString: strerror(errno))))")
                    }
                    if count == 0 { break }
                    var offset = 0
                    while offset < count {
                        let written = write(output, buffer + offset, count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw failure("cannot keep a copy in \(TemporaryFiles.temporaryFolder) (the input is a pipe, read once): \(FileProblem.describe(errno: errno, path: copy))")
                        }
                        offset += written
                    }
                }
            }
        } catch {
            TemporaryFiles.remove(copy, slot: slot)
            throw error
        }
        return copy
    }
}
