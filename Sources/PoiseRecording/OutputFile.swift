#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered text output that never leaves a half-written file under the destination's name.
///
/// Bytes go to a temporary file next to the destination (`NAME.partial-PID`) through one 64 KiB
/// buffer; `finish()` flushes, closes and renames it onto the destination in one step. A writer
/// that is abandoned, fails, or is dropped without `finish()` deletes its temporary file and leaves
/// the destination as it was. `OutputFile.standardOutput` writes to file descriptor 1 instead (no
/// temporary file). Used by `RecordingWriter`, the replay output and `poise fuse`.
public final class OutputFile {
    /// The destination path (`-` for standard output).
    public let path: String
    /// Where bytes are written until `finish()`: `path + ".partial-PID"` (or `-`).
    public let temporaryPath: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var failure: String?
    private static let flushThreshold = 1 << 16

    /// Creates the temporary file for `path`.
    ///
    /// - Throws: `RecordingError` (line 0) naming the path when it cannot be created.
    public init(path: String) throws {
        self.path = path
        temporaryPath = path + ".partial-\(getpid())"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        ownsDescriptor = true
        if descriptor < 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot create the file (\(systemErrorText()))")
        }
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    private init(standardOutput: Void) {
        path = "-"
        temporaryPath = "-"
        descriptor = 1
        ownsDescriptor = false
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Writes to standard output (flushed every 64 KiB and at `finish()`).
    public static var standardOutput: OutputFile { OutputFile(standardOutput: ()) }

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

    /// Writes the buffer out. A write error is remembered and thrown by `finish()`.
    public func flush() {
        guard descriptor >= 0, failure == nil else { buffer.removeAll(keepingCapacity: true); return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = systemErrorText()
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and renames the temporary file onto `path`.
    ///
    /// - Throws: `RecordingError` (line 0) when writing, closing or renaming failed; the
    ///   temporary file is then removed.
    public func finish() throws {
        guard descriptor >= 0 else { return }
        flush()
        let descriptor = self.descriptor
        self.descriptor = -1
        guard ownsDescriptor else {
            if let failure { throw RecordingError(file: path, line: 0, column: 0, message: "write failed (\(failure))") }
            return
        }
        if systemClose(descriptor) != 0, failure == nil { failure = systemErrorText() }
        if let failure {
            unlink(temporaryPath)
            throw RecordingError(file: path, line: 0, column: 0, message: "write failed (\(failure))")
        }
        if rename(temporaryPath, path) != 0 {
            let reason = systemErrorText()
            unlink(temporaryPath)
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot move \(temporaryPath) to \(path) (\(reason))")
        }
    }

    /// Closes and deletes the temporary file; the destination is left as it was.
    public func abandon() {
        guard descriptor >= 0 else { return }
        buffer.removeAll()
        if ownsDescriptor {
            systemClose(descriptor)
            unlink(temporaryPath)
        }
        descriptor = -1
    }

    deinit { abandon() }
}
