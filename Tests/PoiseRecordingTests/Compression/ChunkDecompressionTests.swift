import Foundation
import Testing
@testable import PoiseRecording

/// `ChunkDecompression` (libzstd, liblz4, libbz2) on data made by independent tools: the zstd
/// frames committed with the MCAP fixtures (Python's `zstandard`), bzip2 streams from Python's
/// `bz2`, LZ4 frames from the `lz4` command with and without block and content checksums. Every
/// checksum the data carries is checked, and data that decompresses to more or fewer bytes than
/// declared is refused. The compressed bytes are read from a file a 4 KiB buffer at a time, so
/// the streams cross buffer boundaries.
@Suite struct ChunkDecompressionTests {
    static let lz4Present = commandPresent("lz4")

    /// Decompresses `compressed` (from a file, through a 4 KiB buffer) into `size` bytes.
    static func decompress(_ method: ChunkDecompression.Method, _ compressed: [UInt8], size: Int) throws -> [UInt8] {
        let file = TemporaryFile(bytes: compressed, name: "chunk")
        defer { file.remove() }
        let input = try RosBagInput(path: file.path, capacity: 4096)
        var output = [UInt8](repeating: 0, count: size)
        try output.withUnsafeMutableBufferPointer { try ChunkDecompression.decompress(method, from: input, count: compressed.count, into: $0) }
        #expect(input.offset == compressed.count)
        return output
    }

    static func failure(_ method: ChunkDecompression.Method, _ compressed: [UInt8], size: Int) -> String? {
        do {
            _ = try decompress(method, compressed, size: size)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: ["test2-none+unchunked.l3.zst", "test2-none+unchunked.l19.zst"])
    func zstdFramesDecodeToTheirContent(name: String) throws {
        let content = try McapReaderTests.bytes("test2-none.mcap") + McapReaderTests.bytes("test2-unchunked.mcap")
        let frame = try McapReaderTests.bytes("zstd/" + name)
        #expect(try Self.decompress(.zstd, frame, size: content.count) == content)
        // The content checksum (the frame's last 4 bytes) is verified.
        var wrong = frame
        wrong[wrong.count - 1] ^= 0x01
        let checksum = Self.failure(.zstd, wrong, size: content.count)
        #expect(checksum?.contains("checksum") == true, "\(String(describing: checksum))")
        // A size other than the content's is refused: more data than declared, and less.
        #expect(Self.failure(.zstd, frame, size: content.count - 1)?.contains("more than the \(content.count - 1) bytes") == true)
        #expect(Self.failure(.zstd, frame, size: content.count + 1)?.contains("decompressed to \(content.count) bytes, not the \(content.count + 1)") == true)
    }

    @Test func zstdRleAndRawBlocksAndGarbage() throws {
        let zeros = try McapReaderTests.bytes("zstd/zeros-300000.zst")
        #expect(try Self.decompress(.zstd, zeros, size: 300_000) == [UInt8](repeating: 0, count: 300_000))
        // A bomb: 300,000 zeros where 1,000 bytes are declared stops at the declared size.
        #expect(Self.failure(.zstd, zeros, size: 1000)?.contains("more than the 1000 bytes the chunk header declares") == true)
        // A hand-made frame: single segment, content size 5, one last raw block "hello".
        let raw: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x20, 5, 0x29, 0, 0] + Array("hello".utf8)
        #expect(try Self.decompress(.zstd, raw, size: 5) == Array("hello".utf8))
        for bad: [UInt8] in [[], [0x28, 0xB5, 0x2F], [0x28, 0xB5, 0x2F, 0xFD], [0x28, 0xB5, 0x2F, 0xFD, 0x20, 5, 0x2F, 0, 0],
                             [0x28, 0xB5, 0x2F, 0xFD, 0x20, 5, 0x2D, 0, 0, 0xFF, 0xFF], Array(raw.prefix(12))] {
            #expect(Self.failure(.zstd, bad, size: 5) != nil, "\(bad)")
        }
    }

    @Test func crc32MatchesItsPublishedCheckValue() {
        #expect(Array("123456789".utf8).withUnsafeBufferPointer(Crc32.checksum) == 0xCBF4_3926)
        #expect([UInt8]().withUnsafeBufferPointer(Crc32.checksum) == 0)
    }

    @Test(.enabled(if: pythonPresent, "python3 is absent"))
    func bzip2StreamsFromPythonDecodeAndDamageIsRefused() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        try scratch.python("""
        import bz2, random
        random.seed(5)
        data = ''.join('%d,%.6f,%.6f\\n' % (i, random.gauss(0, 1), random.gauss(0, 1)) for i in range(30000)).encode()
        open('data', 'wb').write(data)
        open('one.bz2', 'wb').write(bz2.compress(data, 1))
        open('two.bz2', 'wb').write(bz2.compress(data[:1000], 9) + bz2.compress(data[1000:], 9))
        """)
        let data = try scratch.bytes("data")
        let one = try scratch.bytes("one.bz2")
        #expect(try Self.decompress(.bzip2, one, size: data.count) == data)
        #expect(try Self.decompress(.bzip2, scratch.bytes("two.bz2"), size: data.count) == data)  // concatenated streams
        #expect(Self.failure(.bzip2, one, size: data.count - 1)?.contains("more than the \(data.count - 1) bytes") == true)
        #expect(Self.failure(.bzip2, one, size: data.count + 1) != nil)
        #expect(Self.failure(.bzip2, Array(one.prefix(one.count / 2)), size: data.count)?.contains("ends early") == true)
        // A changed byte inside the first block: its CRC (or the data's structure) refuses it.
        var damaged = one
        damaged[one.count / 3] ^= 0x10
        #expect(Self.failure(.bzip2, damaged, size: data.count) != nil)
        for garbage: [UInt8] in [Array("BZh9".utf8), Array("BZh0xxxxxxxx".utf8), Array("BZh91AY&SY".utf8) + [UInt8](repeating: 0xFF, count: 64)] {
            #expect(Self.failure(.bzip2, garbage, size: 100) != nil)
        }
    }

    @Test(.enabled(if: lz4Present, "the lz4 command is absent"))
    func lz4FramesWithEveryChecksumDecodeAndDamageIsRefused() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        try scratch.python("""
        import random, subprocess
        random.seed(9)
        data = ''.join('%d,%.6f,%.6f\\n' % (i, random.gauss(0, 1), random.gauss(0, 1)) for i in range(60000)).encode()
        open('data', 'wb').write(data)
        # Content checksum (the default), block checksums too (-BX), neither (--no-frame-crc), 64 KiB linked blocks (-B4 -BD).
        for name, flags in (('content', []), ('blocks', ['-BX']), ('none', ['--no-frame-crc']), ('linked', ['-B4', '-BD', '-BX'])):
            subprocess.run(['lz4', '-q', '-f'] + flags + ['data', name + '.lz4'], check=True)
        """)
        let data = try scratch.bytes("data")
        for name in ["content", "blocks", "none", "linked"] {
            let frame = try scratch.bytes(name + ".lz4")
            #expect(try Self.decompress(.lz4, frame, size: data.count) == data, "\(name)")
            #expect(Self.failure(.lz4, frame, size: data.count - 1)?.contains("more than the \(data.count - 1) bytes") == true, "\(name)")
            #expect(Self.failure(.lz4, Array(frame.prefix(frame.count - 5)), size: data.count) != nil, "\(name)")
        }
        // The last 4 bytes are the content checksum (xxHash32): a changed bit is refused.
        var content = try scratch.bytes("content.lz4")
        content[content.count - 1] ^= 0x01
        #expect(Self.failure(.lz4, content, size: data.count)?.contains("contentChecksum_invalid") == true, "\(String(describing: Self.failure(.lz4, content, size: data.count)))")
        // Without a content checksum, a block checksum catches a changed literal byte. The first
        // block starts after the 7-byte header and its 4-byte size; its checksum ends it.
        var blocks = try scratch.bytes("blocks.lz4")
        let firstBlock = Int(blocks[7]) | Int(blocks[8]) << 8 | Int(blocks[9]) << 16 | Int(blocks[10] & 0x7F) << 24
        blocks[11 + firstBlock + 1] ^= 0x01
        #expect(Self.failure(.lz4, blocks, size: data.count)?.contains("blockChecksum_invalid") == true, "\(String(describing: Self.failure(.lz4, blocks, size: data.count)))")
    }

    @Test func uncompressedDataMustHaveTheDeclaredSize() throws {
        let bytes = (0 ..< 10_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(try Self.decompress(.none, bytes, size: bytes.count) == bytes)
        #expect(Self.failure(.none, bytes, size: bytes.count - 1) != nil)
        #expect(Self.failure(.none, bytes, size: bytes.count + 1) != nil)
    }
}
