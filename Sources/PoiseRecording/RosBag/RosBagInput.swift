#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sequential, buffered reading of a seekable file, by absolute byte offset, in bounded memory:
/// one buffer of a fixed capacity. Also reads bytes already in memory (a decompressed chunk).
/// Every request is checked against the bytes the file has, so a length field read from the file
/// can never make it read past the end or allocate without bound.
final class RosBagInput {
    let path: String
    /// Size of the file in bytes, taken when it was opened.
    let fileSize: Int
    /// Size of the buffer: the largest span `bytes(count:)` can return.
    let capacity: Int

    /// How an offset is named in messages: `record at byte N` of the file, or of a chunk.
    let place: (Int) -> String

    private let descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    /// File offset of `buffer[0]`.
    private var bufferStart = 0
    private var position = 0
    private var filled = 0

    /// Opens `path` read-only.
    ///
    /// - Throws: `RecordingError` when it cannot be opened or is not a regular file.
    init(path: String, capacity: Int) throws {
        self.path = path
        descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot open the file (\(systemErrorText()))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            systemClose(descriptor)
            throw RecordingError(file: path, line: 0, column: 0, message: "a ROS bag or MCAP file must be a regular file (its index is read first)")
        }
        fileSize = Int(info.st_size)
        self.capacity = max(4096, capacity)
        buffer = .allocate(capacity: self.capacity)
        place = { "record at byte \($0)" }
    }

    /// Reads the bytes that `fill` writes into a buffer of `size` bytes (a decompressed chunk; it
    /// returns how many it wrote); offsets count from its start and are named with `place`.
    ///
    /// - Throws: what `fill` throws (the buffer is released).
    init(path: String, size: Int, place: @escaping (Int) -> String, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Int) throws {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, size))
        let written: Int
        do {
            written = min(size, try fill(UnsafeMutableBufferPointer(start: buffer, count: size)))
        } catch {
            buffer.deallocate()
            throw error
        }
        self.buffer = buffer
        self.path = path
        self.place = place
        descriptor = -1
        fileSize = written
        capacity = written
        filled = written
    }

    /// The error for the record at `offset`: "record at byte N: message".
    func failure(at offset: Int, _ message: String) -> RecordingError {
        RecordingError(file: path, line: 0, column: 0, message: "\(place(offset)): \(message)")
    }

    deinit {
        if descriptor >= 0 { systemClose(descriptor) }
        buffer.deallocate()
    }

    /// Whether `path` names a regular file (checked without opening it, so a pipe is left alone).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a regular file whose first bytes are `magic` (false for `-`, pipes and
    /// unreadable files, which are left unopened).
    static func regularFile(_ path: String, startsWith magic: [UInt8]) -> Bool {
        guard path != "-", isRegularFile(path), let input = try? RosBagInput(path: path, capacity: 4096),
              input.fileSize >= magic.count, let head = try? input.bytes(count: magic.count) else { return false }
        return head.elementsEqual(magic)
    }

    /// Whether this reads a file (not bytes in memory).
    var descriptorIsFile: Bool { descriptor >= 0 }

    /// The file offset of the next byte.
    var offset: Int { bufferStart + position }

    /// Bytes between the next byte and the end of the file.
    var remaining: Int { fileSize - offset }

    /// Moves to the absolute `offset` (0…`fileSize`), keeping buffered bytes when it falls inside them.
    func seek(to target: Int) {
        if target >= bufferStart && target <= bufferStart + filled {
            position = target - bufferStart
        } else {
            bufferStart = min(max(0, target), fileSize)
            position = 0
            filled = 0
        }
    }

    /// Skips `count` bytes (at most `remaining`).
    func skip(_ count: Int) { seek(to: offset + min(count, remaining)) }

    /// The next `count` bytes (`count` ≤ `capacity` and ≤ `remaining`, checked by the caller),
    /// valid until the next call; the position moves past them.
    ///
    /// - Throws: `RecordingError` when the read fails or the file shrank.
    func bytes(count: Int) throws -> UnsafeBufferPointer<UInt8> {
        guard count >= 0, count <= capacity, count <= remaining else {
            throw RecordingError(file: path, line: 0, column: 0,
                                 message: "byte \(offset): \(count) bytes asked for, \(remaining) left in the file (buffer \(capacity))")
        }
        if filled - position < count { try refill(atLeast: count) }
        let start = buffer + position
        position += count
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// The next `count` bytes (≤ `remaining`, may exceed `capacity`) copied into an array,
    /// read through the buffer a buffer-full at a time.
    func copy(count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var left = count
        while left > 0 {
            let piece = min(left, capacity)
            bytes.append(contentsOf: try self.bytes(count: piece))
            left -= piece
        }
        return bytes
    }

    private func refill(atLeast count: Int) throws {
        guard descriptor >= 0 else { throw failure(at: offset, "\(count) bytes asked for past the end") }
        let kept = filled - position
        if kept > 0 && position > 0 { (buffer).update(from: buffer + position, count: kept) }
        bufferStart += position
        position = 0
        filled = kept
        if lseek(descriptor, off_t(bufferStart + filled), SEEK_SET) < 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "byte \(bufferStart + filled): cannot seek (\(systemErrorText()))")
        }
        while filled < count {
            let got = systemRead(descriptor, buffer + filled, capacity - filled)
            if got < 0 {
                if errno == EINTR { continue }
                throw RecordingError(file: path, line: 0, column: 0, message: "byte \(bufferStart + filled): cannot read (\(systemErrorText()))")
            }
            if got == 0 {
                throw RecordingError(file: path, line: 0, column: 0, message: "byte \(bufferStart + filled): the file ended early (was it truncated while being read?)")
            }
            filled += got
        }
    }
}
