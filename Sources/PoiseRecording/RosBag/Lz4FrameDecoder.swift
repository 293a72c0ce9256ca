/// Decompresses LZ4 frames (the `lz4` chunks of ROS 1 bags, written by `roslz4`), written from
/// the LZ4 frame and block format descriptions: frame header (magic `0x184D2204`, flags, block
/// maximum size, optional content size), blocks (compressed or stored, optional block checksum),
/// end mark, optional content checksum. Checksums (xxHash32) are skipped, not verified.
///
/// Every length and match offset is checked against the input and the output so far: malformed
/// or hostile input throws `Lz4FrameDecoder.Failure`, never traps, and the output never grows past
/// `expectedSize`. Frames with a dictionary id are refused.
enum Lz4FrameDecoder {
    /// Why the data could not be decompressed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Decompresses `input` (one or more frames), which must decompress to exactly `expectedSize` bytes.
    static func decompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(expectedSize)
        var index = 0
        func need(_ count: Int) throws {
            guard input.count - index >= count else { throw Failure("the compressed data ends early") }
        }
        repeat {
            try need(7)
            guard input.littleEndianUInt32(at: index) == 0x184D_2204 else { throw Failure("no LZ4 frame magic") }
            let flags = input[index + 4]
            index += 6  // magic, FLG, BD
            guard flags >> 6 == 1 else { throw Failure("LZ4 frame version \(flags >> 6), not 1") }
            guard flags & 0x01 == 0 else { throw Failure("LZ4 frame with a dictionary id is not supported") }
            let blockChecksums = flags & 0x10 != 0
            let contentChecksum = flags & 0x04 != 0
            if flags & 0x08 != 0 { try need(8); index += 8 }  // content size: the caller knows it
            try need(1)
            index += 1  // header checksum
            while true {
                try need(4)
                let word = input.littleEndianUInt32(at: index)
                index += 4
                if word == 0 { break }  // end mark
                let size = Int(word & 0x7FFF_FFFF)
                try need(size + (blockChecksums ? 4 : 0))
                let block = UnsafeBufferPointer(rebasing: input[index..<(index + size)])
                if word & 0x8000_0000 != 0 {
                    guard output.count + size <= expectedSize else { throw Failure("decompresses past the \(expectedSize) bytes the chunk header says") }
                    output.append(contentsOf: block)
                } else {
                    try decodeBlock(block, into: &output, limit: expectedSize)
                }
                index += size + (blockChecksums ? 4 : 0)
            }
            if contentChecksum { try need(4); index += 4 }
        } while index < input.count
        guard output.count == expectedSize else {
            throw Failure("decompressed to \(output.count) bytes, not the \(expectedSize) the chunk header says")
        }
        return output
    }

    /// One LZ4 block: sequences of literals and matches; a match may reach back into earlier
    /// blocks of the frame (linked blocks), never before the start of `output`.
    static func decodeBlock(_ block: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], limit: Int) throws {
        var index = 0
        /// A 4-bit length extended by bytes of 255 and a final byte below 255.
        func length(_ nibble: Int) throws -> Int {
            var total = nibble
            guard nibble == 15 else { return total }
            while true {
                guard index < block.count else { throw Failure("LZ4 length runs past the block") }
                let byte = Int(block[index])
                index += 1
                total += byte
                guard total <= limit else { throw Failure("LZ4 length longer than the chunk") }
                if byte != 255 { return total }
            }
        }
        while index < block.count {
            let token = Int(block[index])
            index += 1
            let literals = try length(token >> 4)
            guard literals <= block.count - index else { throw Failure("LZ4 literals run past the block") }
            guard output.count + literals <= limit else { throw Failure("decompresses past the \(limit) bytes the chunk header says") }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: block[index..<(index + literals)]))
            index += literals
            if index == block.count { break }  // the last sequence has literals only
            guard block.count - index >= 2 else { throw Failure("LZ4 match offset cut short") }
            let offset = Int(block[index]) | Int(block[index + 1]) << 8
            index += 2
            let matchLength = try length(token & 15) + 4
            guard offset > 0, offset <= output.count else { throw Failure("LZ4 match offset \(offset) reaches before the start of the data") }
            guard output.count + matchLength <= limit else { throw Failure("decompresses past the \(limit) bytes the chunk header says") }
            let start = output.count - offset
            for k in 0..<matchLength { output.append(output[start + k]) }  // overlapping copies repeat
        }
    }
}
