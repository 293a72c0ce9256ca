#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes a `RecordingReader` reads that do not come from a file descriptor: a live feed read
/// in the reader's own thread (`LiveFeed`), so a row is parsed in the thread that received it.
public protocol ByteStream: AnyObject {
    /// Reads up to `count` bytes into `buffer` like `read(2)`: the number read, blocking until
    /// some arrive; 0 at the end of the stream; −1 with `errno` set on a failure.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int
    /// After `read` returned −1: the error to report instead of `errno`'s text (a ZIP entry's
    /// CRC-32 that differs, say), or nil.
    var failure: (any Error)? { get }
}

extension ByteStream {
    public var failure: (any Error)? { nil }
}

/// Where a `RecordingReader` gets its bytes.
enum ReaderInput {
    /// A file, pipe or terminal (owned: closed with the reader).
    case descriptor(Int32)
    /// A stream read through its own `read` (not owned).
    case stream(any ByteStream)

    /// `read(2)` on the descriptor, or the stream's `read`.
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        switch self {
        case .descriptor(let descriptor): return systemRead(descriptor, buffer, count)
        case .stream(let stream): return stream.read(into: buffer, count: count)
        }
    }

    /// The stream's own error after a failed read, or nil.
    var failure: (any Error)? {
        if case .stream(let stream) = self { return stream.failure }
        return nil
    }

    /// The descriptor, for what only a file allows (mapping it, `pread`, `fstat`).
    var descriptor: Int32? {
        if case .descriptor(let descriptor) = self { return descriptor }
        return nil
    }

    /// Closes an owned descriptor.
    func close() {
        if case .descriptor(let descriptor) = self, descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
