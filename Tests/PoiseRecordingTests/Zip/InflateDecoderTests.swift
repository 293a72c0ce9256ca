import Foundation
import Testing
@testable import PoiseRecording

/// `InflateDecoder` against Python's zlib (an independent deflate implementation): raw deflate
/// streams of several inputs, levels and strategies made during the test decompress to the
/// original bytes; damaged streams are errors, never a crash. `CRC32` against `zlib.crc32`.
@Suite struct InflateDecoderTests {
    @Test(.enabled(if: pythonPresent, "python3 is absent"))
    func decompressesWhatZlibCompresses() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        // Inputs: empty, one byte, text with long repeats, random bytes (stored blocks at level
        // 0, incompressible elsewhere), a 300 kB sensor-like CSV (many blocks, long distances).
        try scratch.python("""
        import zlib, random
        random.seed(7)
        inputs = {
            'empty': b'', 'one': b'x', 'repeats': b'abcabcabc' * 5000 + b'the end',
            'random': bytes(random.getrandbits(8) for _ in range(70000)),
            'csv': ''.join('%d,%.6f,%.6f,%.6f\\n' % (i, random.gauss(0, 1), random.gauss(0, 1), 9.81 + random.gauss(0, .1)) for i in range(8000)).encode(),
        }
        for name, data in inputs.items():
            open(name + '.raw', 'wb').write(data)
            for level in (0, 1, 6, 9):
                for strategy, tag in ((zlib.Z_DEFAULT_STRATEGY, 'd'), (zlib.Z_FIXED, 'f'), (zlib.Z_HUFFMAN_ONLY, 'h')):
                    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
                    open('%s.%d%s.deflate' % (name, level, tag), 'wb').write(c.compress(data) + c.flush())
            open(name + '.crc', 'w').write(str(zlib.crc32(data)))
        """)
        var checked = 0
        for name in ["empty", "one", "repeats", "random", "csv"] {
            let original = try scratch.bytes(name + ".raw")
            let crc = try String(contentsOfFile: scratch.path(name + ".crc"), encoding: .utf8)
            #expect(CRC32.checksum(original) == UInt32(crc), "\(name)")
            for level in [0, 1, 6, 9] {
                for tag in ["d", "f", "h"] {
                    let compressed = try scratch.bytes("\(name).\(level)\(tag).deflate")
                    let output = try compressed.withUnsafeBufferPointer { try InflateDecoder.decompress($0, expectedSize: original.count) }
                    #expect(output == original, "\(name) level \(level) \(tag)")
                    checked += 1
                }
            }
        }
        #expect(checked == 60)
    }

    @Test(.enabled(if: pythonPresent, "python3 is absent"))
    func damagedStreamsAreErrorsNeverACrash() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        try scratch.python("""
        import zlib, random
        random.seed(3)
        data = ''.join('%d,%.5f\\n' % (i, random.random()) for i in range(3000)).encode()
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        open('csv.deflate', 'wb').write(c.compress(data) + c.flush())
        open('csv.size', 'w').write(str(len(data)))
        """)
        let compressed = try scratch.bytes("csv.deflate")
        let size = Int(try String(contentsOfFile: scratch.path("csv.size"), encoding: .utf8))!
        func attempt(_ bytes: [UInt8], expectedSize: Int = size) -> Bool {
            (try? bytes.withUnsafeBufferPointer { try InflateDecoder.decompress($0, expectedSize: expectedSize) }) != nil
        }
        #expect(attempt(compressed))
        #expect(!attempt(Array(compressed.prefix(compressed.count / 2))))  // truncated
        #expect(!attempt(compressed, expectedSize: size - 1))  // longer than announced
        #expect(!attempt(compressed, expectedSize: size + 1))  // shorter than announced
        #expect(!attempt([0b0000_0111]))  // block type 3
        #expect(!attempt([0b0000_0001, 0, 0, 0, 0]))  // stored block whose length is not its complement's
        // Random damage: every outcome is a value or an error.
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 300 {
            var damaged = compressed
            for _ in 0 ..< 1 + Int.random(in: 0 ..< 4, using: &generator) {
                damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            _ = attempt(damaged)
        }
    }
}
