import Foundation
import PoiseRecording

/// Fixed-size records in an unlinked temporary file, read and written through one buffered
/// block (`pread`/`pwrite`), for work that visits a long array in order, forward or backward:
/// the heap holds one block whatever the number of records.
///
/// The file is made with mode 0600 in the temporary folder (`TMPDIR`, else /tmp) and unlinked
/// at once (`TemporaryFiles.makeUnlinkedFile`), so it is gone when this object is, however the
/// process ends. A record never written reads as zero bytes.
public final class BlockRecordFile {
    /// Bytes per record.
    public let size: Int
    /// Records per block.
    let perBlock: Int
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawPointer
    /// The block in the buffer (-1: none), whether the buffer holds changes not yet written.
    private var current = -1
    /// The indices of the records in the buffer, `current × perBlock ..< (current + 1) × perBlock`
    /// (empty when none): a record there is found without a division.
    private var bufferedFirst = 0, bufferedEnd = 0
    private var dirty = false
    /// The lowest and highest block ever written (blocks outside were never written: zero).
    private var writtenLow = Int.max, writtenHigh = -1
    /// What the file holds, for messages.
    private let purpose: String
    /// Blocks read and written (for tests of the access pattern).
    public private(set) var blockReads = 0, blockWrites = 0

    /// Bytes of the buffered block.
    public static let blockBytes = 1 << 18

    /// Makes the (empty) file for records of `size` bytes; with `reserving` records, the room for
    /// them is taken at once (`posix_fallocate`), so that a full temporary folder shows here.
    ///
    /// - Throws: `RecordingError` naming the temporary folder when the file cannot be made or the
    ///   room is not there.
    public init(size: Int, reserving count: Int = 0, purpose: String) throws {
        precondition(size > 0)
        self.size = size
        self.purpose = purpose
        perBlock = max(1, Self.blockBytes / size)
        descriptor = try TemporaryFiles.makeUnlinkedFile(prefix: "poise-records", purpose: purpose)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: perBlock * size, alignment: 64)
        if count > 0 {
            let result = posix_fallocate(descriptor, 0, off_t(count) * off_t(size))
            // EINVAL/EOPNOTSUPP: the file system cannot reserve; the writes will tell.
            if result != 0 && result != EINVAL && result != EOPNOTSUPP {
                close(descriptor)
                buffer.deallocate()
                throw Self.error(purpose, count * size, result)
            }
        }
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    static func error(_ purpose: String, _ bytes: Int, _ code: Int32) -> RecordingError {
        let megabytes = (Double(bytes) / 1_048_576).rounded(.up)
        return RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0,
                              message: "cannot keep \(purpose) (\(Int(megabytes)) MB) in this temporary folder: \(String(cString: strerror(code))); "
                                  + "set TMPDIR to a folder with more room")
    }

    /// The bytes of record `index`, valid until the next call; `writing`: the caller changes
    /// them (written to the file when another block is needed, or by `flush()`).
    ///
    /// - Throws: `RecordingError` naming the temporary folder when a block cannot be written or
    ///   read (a full disk).
    public func record(_ index: Int, writing: Bool) throws -> UnsafeMutableRawPointer {
        if index < bufferedFirst || index >= bufferedEnd { try load(index / perBlock) }
        if writing {
            dirty = true
            writtenLow = min(writtenLow, current)
            writtenHigh = max(writtenHigh, current)
        }
        return buffer + (index - bufferedFirst) * size
    }

    /// The block that holds record `index`, buffered: the index of its first record and its
    /// bytes (`perBlock` records), valid until the next call; `writing` as for `record`.
    ///
    /// - Throws: as `record(_:writing:)`.
    public func block(containing index: Int, writing: Bool) throws -> (first: Int, bytes: UnsafeMutableRawPointer) {
        _ = try record(index, writing: writing)
        return (bufferedFirst, buffer)
    }

    /// Writes the buffered block if it holds changes.
    public func flush() throws {
        guard dirty, current >= 0 else { return }
        let bytes = perBlock * size
        var offset = 0
        while offset < bytes {
            let n = pwrite(descriptor, buffer + offset, bytes - offset, off_t(current) * off_t(bytes) + off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(purpose, (current + 1) * bytes, errno)
            }
            offset += n
        }
        blockWrites += 1
        dirty = false
    }

    private func load(_ block: Int) throws {
        try flush()
        let bytes = perBlock * size
        current = -1
        (bufferedFirst, bufferedEnd) = (0, 0)
        if block < writtenLow || block > writtenHigh {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        } else {
            var offset = 0
            while offset < bytes {
                let n = pread(descriptor, buffer + offset, bytes - offset, off_t(block) * off_t(bytes) + off_t(offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0,
                                         message: "cannot read back \(purpose) from its temporary file: \(String(cString: strerror(errno)))")
                }
                if n == 0 {
                    // Past the end of the file (a block written only in part): zero.
                    (buffer + offset).initializeMemory(as: UInt8.self, repeating: 0, count: bytes - offset)
                    break
                }
                offset += n
            }
            blockReads += 1
        }
        current = block
        (bufferedFirst, bufferedEnd) = (block * perBlock, (block + 1) * perBlock)
    }
}
