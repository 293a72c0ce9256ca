import CBzip2
import CLz4
import CZstd

/// The chunk compressions of ROS 1 bags (`bz2`, `lz4`) and MCAP files (`lz4`, `zstd`),
/// decompressed by the system libraries: libbz2, liblz4 (the LZ4 frame format) and libzstd.
///
/// A chunk is decompressed into one buffer of exactly its declared uncompressed size, which the
/// caller bounds before calling (`RosBagReader.maximumChunkSize`, `McapReader.maximumChunkSize`):
/// the compressed bytes are read from the file a read buffer at a time, never copied whole, and
/// data that would produce more than the declared size is an error before any more memory is
/// taken. Every checksum the data carries is verified by the library: each bzip2 block's CRC and
/// the stream's combined CRC, the LZ4 frame's header checksum and its block and content checksums
/// (xxHash32) when the frame has them, and zstd's content checksum (xxHash64) when present.
/// zstd decodes straight into the output (no window buffer of its own).
enum ChunkDecompression {
    /// The compressions read.
    enum Method: String {
        case none = "uncompressed"
        case bzip2 = "bz2"
        case lz4 = "lz4"
        case zstd = "zstd"
    }

    /// Why the data could not be decompressed (the library's reason, or a size that differs).
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Decompresses the `count` bytes at `input`'s position (read through its buffer, the
    /// position moving past them) into `output`, which they must fill exactly, unless they are
    /// the `partial` start of the data (a chunk the end of the file cut): then what they hold is
    /// decompressed. Returns the number of bytes written.
    ///
    /// - Throws: `Failure` for data the library refuses (a checksum that differs, a malformed
    ///   stream), data that ends early, and data that decompresses to more or fewer bytes than
    ///   `output` holds; the input's `RecordingError` when the file cannot be read.
    @discardableResult
    static func decompress(_ method: Method, from input: RosBagInput, count: Int, into output: UnsafeMutableBufferPointer<UInt8>,
                           partial: Bool = false) throws -> Int {
        var left = count
        /// Calls `body` with each piece of the compressed bytes, in order (once, empty, for none).
        func pieces(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
            repeat {
                let piece = try input.bytes(count: min(left, input.capacity))
                left -= piece.count
                try body(piece)
            } while left > 0
        }
        let produced: Int
        switch method {
        case .none: produced = try copy(pieces, into: output)
        case .bzip2: produced = try bzip2(pieces, into: output, partial: partial)
        case .lz4: produced = try lz4(pieces, into: output, partial: partial)
        case .zstd: produced = try zstd(pieces, into: output, partial: partial)
        }
        guard produced == output.count || partial else {
            throw Failure("decompressed to \(produced) bytes, not the \(output.count) the chunk header declares")
        }
        return produced
    }

    typealias Pieces = ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void

    static func overflow(_ size: Int) -> Failure {
        Failure("decompresses to more than the \(size) bytes the chunk header declares")
    }

    private static func copy(_ pieces: Pieces, into output: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        var produced = 0
        try pieces { piece in
            guard piece.count <= output.count - produced else { throw Failure("\(piece.count + produced) bytes or more, not the \(output.count) the chunk header declares") }
            if let base = piece.baseAddress { (output.baseAddress! + produced).update(from: base, count: piece.count) }
            produced += piece.count
        }
        return produced
    }

    private static func bzip2(_ pieces: Pieces, into output: UnsafeMutableBufferPointer<UInt8>, partial: Bool) throws -> Int {
        var stream = bz_stream()
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw Failure("libbz2 could not start (out of memory?)") }
        defer { BZ2_bzDecompressEnd(&stream) }
        var produced = 0
        var ended = false
        try pieces { piece in
            guard let base = piece.baseAddress else { return }
            stream.next_in = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
            stream.avail_in = UInt32(piece.count)
            while stream.avail_in > 0 {
                if ended {
                    // Concatenated streams, as bzip2 itself reads them.
                    BZ2_bzDecompressEnd(&stream)
                    let next = stream.next_in, available = stream.avail_in
                    stream = bz_stream()
                    guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw Failure("libbz2 could not start (out of memory?)") }
                    stream.next_in = next
                    stream.avail_in = available
                    ended = false
                }
                let room = output.count - produced
                stream.next_out = UnsafeMutableRawPointer(output.baseAddress.map { $0 + produced })?.assumingMemoryBound(to: CChar.self)
                stream.avail_out = UInt32(clamping: room)
                let before = stream.avail_in
                let result = BZ2_bzDecompress(&stream)
                let made = room - Int(stream.avail_out)
                produced += made
                switch result {
                case BZ_STREAM_END: ended = true
                case BZ_OK: if made == 0 && stream.avail_in == before { throw overflow(output.count) }
                case BZ_DATA_ERROR: throw Failure("bzip2 data error (a block or stream CRC differs, or the data is damaged)")
                case BZ_DATA_ERROR_MAGIC: throw Failure("no bzip2 stream header (BZh)")
                case BZ_MEM_ERROR: throw Failure("libbz2 ran out of memory")
                default: throw Failure("libbz2 error \(result)")
                }
            }
        }
        guard ended || partial || produced == 0 && stream.total_in_lo32 == 0 else { throw Failure("the bzip2 stream ends early (truncated chunk?)") }
        return produced
    }

    private static func lz4(_ pieces: Pieces, into output: UnsafeMutableBufferPointer<UInt8>, partial: Bool) throws -> Int {
        var context: OpaquePointer?
        guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
            throw Failure("liblz4 could not start (out of memory?)")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        var produced = 0
        var frameEnded = true  // (no frame started)
        try pieces { piece in
            guard let base = piece.baseAddress else { return }
            var offset = 0
            while offset < piece.count {
                var made = output.count - produced
                var taken = piece.count - offset
                let hint = LZ4F_decompress(context, output.baseAddress.map { $0 + produced }, &made, base + offset, &taken, nil)
                if LZ4F_isError(hint) != 0 {
                    throw Failure("LZ4 frame: \(String(cString: LZ4F_getErrorName(hint))) (a checksum differs, or the data is damaged)")
                }
                produced += made
                offset += taken
                frameEnded = hint == 0
                if made == 0 && taken == 0 { throw overflow(output.count) }
            }
        }
        guard frameEnded || partial else {
            throw produced == output.count ? overflow(output.count) : Failure("the LZ4 frame ends early (truncated chunk?)")
        }
        return produced
    }

    private static func zstd(_ pieces: Pieces, into output: UnsafeMutableBufferPointer<UInt8>, partial: Bool) throws -> Int {
        guard let context = ZSTD_createDCtx() else { throw Failure("libzstd could not start (out of memory?)") }
        defer { ZSTD_freeDCtx(context) }
        // ZSTD_d_stableOutBuffer (experimental parameter 2): decode into the output buffer, which
        // stays the same between calls, instead of into a window buffer of up to 128 MiB.
        _ = ZSTD_DCtx_setParameter(context, ZSTD_d_experimentalParam2, 1)
        var out = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        var frameEnded = true
        try pieces { piece in
            var input = ZSTD_inBuffer(src: piece.baseAddress, size: piece.count, pos: 0)
            while input.pos < input.size {
                let before = (input.pos, out.pos)
                let hint = ZSTD_decompressStream(context, &out, &input)
                if ZSTD_isError(hint) != 0 {
                    if ZSTD_getErrorCode(hint) == ZSTD_error_dstSize_tooSmall { throw overflow(output.count) }
                    throw Failure("zstd: \(String(cString: ZSTD_getErrorName(hint)))")
                }
                frameEnded = hint == 0
                if (input.pos, out.pos) == before { throw overflow(output.count) }
            }
        }
        guard frameEnded || partial else {
            throw out.pos == out.size ? overflow(output.count) : Failure("the zstd frame ends early (truncated chunk?)")
        }
        return out.pos
    }
}
