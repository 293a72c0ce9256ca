#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// The uncompressed bytes of one ZIP entry, read from the archive at the entry's offset as they
/// are asked for: stored bytes as they are, deflate data inflated by the system zlib (raw
/// deflate, RFC 1951) through a 64 KiB input buffer. Memory stays bounded whatever the entry's
/// size: the entry is never held whole nor written anywhere.
///
/// Checked as it goes: the entry may not produce more bytes than the central directory declares
/// (a decompression bomb stops there, before the bytes are handed out), and at its end the size
/// and the CRC-32 must match the directory's. A failure makes `read` return −1 with `failure`
/// naming the archive, the entry and what is wrong; `RecordingReader` throws it.
final class ZipEntryStream: ByteStream {
    let archive: ZipArchive
    let entry: ZipArchive.Entry
    /// File offset of the next compressed (or stored) byte, and how many are left.
    private var offset: Int
    private var left: Int
    private var produced = 0
    private var crc = Crc32()
    private var ended = false
    /// Why reading stopped, or nil.
    private(set) var failure: (any Error)?
    /// The inflate state (deflate entries only) and its input buffer.
    private let stream: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutablePointer<UInt8>?
    static let inputSize = 64 << 10

    init(archive: ZipArchive, entry: ZipArchive.Entry, dataStart: Int) throws {
        self.archive = archive
        self.entry = entry
        offset = dataStart
        left = entry.compressedSize
        guard entry.method == 8 else {
            stream = nil
            input = nil
            return
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard poise_inflate_init_raw(stream) == Z_OK else {
            stream.deallocate()
            throw archive.failure("entry \(entry.name): zlib could not start (out of memory?)")
        }
        self.stream = stream
        input = .allocate(capacity: Self.inputSize)
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        input?.deallocate()
    }

    private func fail(_ message: String) -> Int {
        failure = archive.failure("entry \(entry.name): \(message)")
        errno = EIO
        return -1
    }

    /// Reads up to `count` uncompressed bytes into `buffer`: the number read, 0 at the end of the
    /// entry (after its size and CRC-32 were checked), −1 with `failure` set on an error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if failure != nil { errno = EIO; return -1 }
        if ended || count == 0 { return 0 }
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        let made: Int
        if let stream, let input {
            // One byte more than the entry has left may be asked for, to see a stream that goes on.
            let room = min(count, entry.size - produced + 1)
            stream.pointee.next_out = bytes
            stream.pointee.avail_out = uInt(room)
            var result = Z_OK
            while stream.pointee.avail_out == uInt(room) {
                if stream.pointee.avail_in == 0 && left > 0 {
                    let piece = min(left, Self.inputSize)
                    var got: Int
                    repeat { got = pread(archive.descriptor, input, piece, off_t(offset)) } while got < 0 && errno == EINTR
                    guard got > 0 else {
                        return fail(got == 0 ? "the archive ends inside its data (truncated while being read?)" : "cannot read (\(systemErrorText()))")
                    }
                    offset += got
                    left -= got
                    stream.pointee.next_in = input
                    stream.pointee.avail_in = uInt(got)
                }
                let before = stream.pointee.avail_in
                result = inflate(stream, Z_NO_FLUSH)
                if result == Z_STREAM_END { break }
                guard result == Z_OK || result == Z_BUF_ERROR else {
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
                    return fail("deflate data: \(reason) (corrupt data)")
                }
                if stream.pointee.avail_out == uInt(room) && stream.pointee.avail_in == before && left == 0 {
                    return fail("deflate data: it ends early, after \(produced) of \(entry.size) bytes (truncated or corrupt data)")
                }
            }
            made = room - Int(stream.pointee.avail_out)
            if result == Z_STREAM_END { ended = true }
        } else {
            let piece = min(count, left)
            var got: Int
            repeat { got = pread(archive.descriptor, bytes, piece, off_t(offset)) } while got < 0 && errno == EINTR
            guard got >= 0, piece == 0 || got > 0 else {
                return fail(got == 0 ? "the archive ends inside its data (truncated while being read?)" : "cannot read (\(systemErrorText()))")
            }
            offset += got
            left -= got
            made = got
            if left == 0 { ended = true }
        }
        produced += made
        guard produced <= entry.size else {
            return fail("inflates to more than the \(entry.size) bytes the archive declares (corrupt data or a decompression bomb)")
        }
        crc.add(UnsafeBufferPointer(start: bytes, count: made))
        if ended {
            guard produced == entry.size else {
                return fail("\(produced) bytes, not the \(entry.size) the archive declares (corrupt data)")
            }
            guard crc.value == entry.crc else {
                return fail("CRC-32 \(String(crc.value, radix: 16)) does not match the archive's \(String(entry.crc, radix: 16)) (corrupt data)")
            }
        }
        return made
    }
}
