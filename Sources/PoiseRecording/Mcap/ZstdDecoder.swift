/// Decompresses Zstandard frames (the `zstd` chunks of MCAP files, the default of ROS 2's MCAP
/// writer), written from RFC 8878: frame header, raw, RLE and compressed blocks, literals (raw,
/// RLE, Huffman with 1 or 4 streams, repeated tables), sequences (predefined, RLE, FSE and
/// repeated tables, repeat offsets), skippable frames, and the content checksum (xxHash64),
/// verified when the frame has one.
///
/// Every length, offset and table is checked against the input and the output so far: malformed
/// or hostile input throws `ZstdDecoder.Failure`, never traps, and the output never grows past
/// `expectedSize`. Frames that need a dictionary are refused.
enum ZstdDecoder {
    /// Why the data could not be decompressed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Decompresses `input` (one or more frames), which must decompress to exactly `expectedSize` bytes.
    static func decompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expectedSize)
        let written = try output.withUnsafeMutableBufferPointer { output -> Int in
            var index = 0
            var count = 0
            repeat {
                guard input.count - index >= 4 else { throw Failure("the compressed data ends early") }
                let magic = input.littleEndianUInt32(at: index)
                if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
                    guard input.count - index >= 8 else { throw Failure("skippable frame cut short") }
                    let size = Int(input.littleEndianUInt32(at: index + 4))
                    guard size <= input.count - index - 8 else { throw Failure("skippable frame runs past the data") }
                    index += 8 + size
                    continue
                }
                guard magic == 0xFD2F_B528 else { throw Failure("no zstd frame magic") }
                var frame = Frame(input: input, index: index + 4, output: output, written: count)
                try frame.decode()
                index = frame.index
                count = frame.written
            } while index < input.count
            return count
        }
        guard written == expectedSize else {
            throw Failure("decompressed to \(written) bytes, not the \(expectedSize) the chunk header says")
        }
        return output
    }

    /// Literals length codes 16…35: baseline and extra bits (codes 0…15 are their own value).
    static let literalsLengthCodes: [(baseline: Int, bits: Int)] = [
        (16, 1), (18, 1), (20, 1), (22, 1), (24, 2), (28, 2), (32, 3), (40, 3), (48, 4), (64, 6),
        (128, 7), (256, 8), (512, 9), (1024, 10), (2048, 11), (4096, 12), (8192, 13), (16384, 14),
        (32768, 15), (65536, 16),
    ]
    /// Match length codes 32…52: baseline and extra bits (codes 0…31 are their value + 3).
    static let matchLengthCodes: [(baseline: Int, bits: Int)] = [
        (35, 1), (37, 1), (39, 1), (41, 1), (43, 2), (47, 2), (51, 3), (59, 3), (67, 4), (83, 4),
        (99, 5), (131, 7), (259, 8), (515, 9), (1027, 10), (2051, 11), (4099, 12), (8195, 13),
        (16387, 14), (32771, 15), (65539, 16),
    ]
    /// The predefined distributions (RFC 8878, 3.1.1.3.2.2).
    static let literalsLengthDefault = try! ZstdFSETable(counts: [
        4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
        -1, -1, -1, -1,
    ], accuracyLog: 6)
    static let matchLengthDefault = try! ZstdFSETable(counts: [
        1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
    ], accuracyLog: 6)
    static let offsetDefault = try! ZstdFSETable(counts: [
        1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
    ], accuracyLog: 5)

    /// The largest block content, compressed or not (RFC 8878, 3.1.1.2.4).
    static let maximumBlockSize = 128 << 10

    /// One frame being decoded into `output` from `written` on; tables and repeat offsets carry
    /// over from block to block.
    struct Frame {
        let input: UnsafeBufferPointer<UInt8>
        var index: Int
        let output: UnsafeMutableBufferPointer<UInt8>
        var written: Int
        private let start: Int
        private var huffman: ZstdHuffmanTable?
        private var literalsLengthTable: ZstdFSETable?
        private var offsetTable: ZstdFSETable?
        private var matchLengthTable: ZstdFSETable?
        private var repeatOffsets = [1, 4, 8]
        private var literals = [UInt8](repeating: 0, count: ZstdDecoder.maximumBlockSize)

        init(input: UnsafeBufferPointer<UInt8>, index: Int, output: UnsafeMutableBufferPointer<UInt8>, written: Int) {
            self.input = input; self.index = index; self.output = output; self.written = written; start = written
        }

        private func need(_ count: Int, _ what: String) throws {
            guard count >= 0, input.count - index >= count else { throw Failure("\(what) runs past the compressed data") }
        }

        mutating func decode() throws {
            try need(1, "frame header")
            let descriptor = input[index]
            index += 1
            guard descriptor & 0x08 == 0 else { throw Failure("frame header reserved bit set") }
            let singleSegment = descriptor & 0x20 != 0
            let hasChecksum = descriptor & 0x04 != 0
            let dictionaryBytes = [0, 1, 2, 4][Int(descriptor & 3)]
            let sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
            try need((singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes, "frame header")
            if !singleSegment { index += 1 }  // window descriptor: the whole output is kept anyway
            var dictionary: UInt64 = 0
            for k in 0..<dictionaryBytes { dictionary |= UInt64(input[index + k]) << (8 * UInt64(k)) }
            index += dictionaryBytes
            guard dictionary == 0 else { throw Failure("frame needs dictionary \(dictionary), which MCAP files do not carry") }
            var contentSize: UInt64?
            if sizeBytes > 0 {
                var size: UInt64 = 0
                for k in 0..<sizeBytes { size |= UInt64(input[index + k]) << (8 * UInt64(k)) }
                contentSize = sizeBytes == 2 ? size + 256 : size
                index += sizeBytes
            }
            while true {
                try need(3, "block header")
                let header = Int(input[index]) | Int(input[index + 1]) << 8 | Int(input[index + 2]) << 16
                index += 3
                let last = header & 1 != 0
                let size = header >> 3
                switch (header >> 1) & 3 {
                case 0:
                    try need(size, "raw block")
                    try room(size)
                    for k in 0..<size { output[written + k] = input[index + k] }
                    written += size
                    index += size
                case 1:
                    try need(1, "RLE block")
                    try room(size)
                    for k in 0..<size { output[written + k] = input[index] }
                    written += size
                    index += 1
                case 2:
                    guard size <= ZstdDecoder.maximumBlockSize else { throw Failure("compressed block of \(size) bytes, above 128 KiB") }
                    try need(size, "compressed block")
                    let block = UnsafeBufferPointer(rebasing: input[index..<(index + size)])
                    index += size
                    try compressedBlock(block)
                default:
                    throw Failure("reserved block type")
                }
                if last { break }
            }
            if let contentSize, contentSize != UInt64(written - start) {
                throw Failure("frame decompressed to \(written - start) bytes, not the \(contentSize) its header says")
            }
            if hasChecksum {
                try need(4, "content checksum")
                let stored = input.littleEndianUInt32(at: index)
                index += 4
                let computed = UInt32(truncatingIfNeeded: XXHash64.hash(UnsafeBufferPointer(rebasing: output[start..<written])))
                guard stored == computed else {
                    throw Failure("content checksum 0x\(String(stored, radix: 16)) differs from the data's 0x\(String(computed, radix: 16))")
                }
            }
        }

        private func room(_ count: Int) throws {
            guard count <= output.count - written else { throw Failure("decompresses past the \(output.count) bytes the chunk header says") }
        }

        // MARK: Blocks

        private mutating func compressedBlock(_ block: UnsafeBufferPointer<UInt8>) throws {
            let (literalCount, used) = try readLiterals(block)
            var at = used
            guard at < block.count else { throw Failure("block without a sequences section") }
            var sequenceCount = Int(block[at])
            at += 1
            if sequenceCount >= 128 {
                if sequenceCount < 255 {
                    guard at < block.count else { throw Failure("sequence count cut short") }
                    sequenceCount = ((sequenceCount - 128) << 8) + Int(block[at])
                    at += 1
                } else {
                    guard at + 1 < block.count else { throw Failure("sequence count cut short") }
                    sequenceCount = Int(block[at]) + Int(block[at + 1]) << 8 + 0x7F00
                    at += 2
                }
            }
            var literalIndex = 0
            if sequenceCount > 0 {
                guard at < block.count else { throw Failure("sequences without compression modes") }
                let modes = block[at]
                at += 1
                guard modes & 3 == 0 else { throw Failure("reserved bits set in the sequence compression modes") }
                literalsLengthTable = try table(Int(modes >> 6), block, &at, current: literalsLengthTable,
                                                predefined: ZstdDecoder.literalsLengthDefault, maximumSymbol: 35, maximumAccuracyLog: 9, what: "literals length")
                offsetTable = try table(Int(modes >> 4) & 3, block, &at, current: offsetTable,
                                        predefined: ZstdDecoder.offsetDefault, maximumSymbol: 31, maximumAccuracyLog: 8, what: "offset")
                matchLengthTable = try table(Int(modes >> 2) & 3, block, &at, current: matchLengthTable,
                                             predefined: ZstdDecoder.matchLengthDefault, maximumSymbol: 52, maximumAccuracyLog: 9, what: "match length")
                guard let ll = literalsLengthTable, let of = offsetTable, let ml = matchLengthTable else { throw Failure("sequence tables missing") }
                guard at < block.count else { throw Failure("sequences without a bit stream") }
                var stream = try ZstdBackwardBits(UnsafeBufferPointer(rebasing: block[at...]))
                var llState = ll.initialState(&stream)
                var ofState = of.initialState(&stream)
                var mlState = ml.initialState(&stream)
                for k in 0..<sequenceCount {
                    let offsetCode = Int(of.entries[ofState].symbol)
                    guard offsetCode <= 31 else { throw Failure("offset code \(offsetCode)") }
                    let offsetValue = (1 << offsetCode) + Int(stream.read(offsetCode))
                    let mlCode = Int(ml.entries[mlState].symbol)
                    let matchLength = mlCode < 32 ? mlCode + 3
                        : ZstdDecoder.matchLengthCodes[mlCode - 32].baseline + Int(stream.read(ZstdDecoder.matchLengthCodes[mlCode - 32].bits))
                    let llCode = Int(ll.entries[llState].symbol)
                    let literalLength = llCode < 16 ? llCode
                        : ZstdDecoder.literalsLengthCodes[llCode - 16].baseline + Int(stream.read(ZstdDecoder.literalsLengthCodes[llCode - 16].bits))
                    guard !stream.isOverflowed else { throw Failure("sequence bit stream ends early") }
                    let offset = try resolve(offsetValue, literalLength: literalLength)
                    // Literals, then the match.
                    guard literalLength <= literalCount - literalIndex else { throw Failure("sequence takes more literals than the block has") }
                    try room(literalLength + matchLength)
                    for j in 0..<literalLength { output[written + j] = literals[literalIndex + j] }
                    written += literalLength
                    literalIndex += literalLength
                    guard offset <= written - start else { throw Failure("match offset \(offset) reaches before the start of the frame") }
                    var from = written - offset
                    for _ in 0..<matchLength {
                        output[written] = output[from]
                        written += 1
                        from += 1
                    }
                    if k + 1 < sequenceCount {
                        llState = ll.nextState(llState, &stream)
                        mlState = ml.nextState(mlState, &stream)
                        ofState = of.nextState(ofState, &stream)
                    }
                }
                guard stream.isFinished else { throw Failure("sequence bit stream does not end with the last sequence") }
            } else {
                guard at == block.count else { throw Failure("bytes after an empty sequences section") }
            }
            let rest = literalCount - literalIndex
            try room(rest)
            for j in 0..<rest { output[written + j] = literals[literalIndex + j] }
            written += rest
        }

        /// The match offset for an offset value, updating the repeat offsets (RFC 8878, 3.1.2.5).
        private mutating func resolve(_ value: Int, literalLength: Int) throws -> Int {
            if value > 3 {
                let offset = value - 3
                repeatOffsets = [offset, repeatOffsets[0], repeatOffsets[1]]
                return offset
            }
            let index = literalLength == 0 ? value : value - 1  // 0, 1, 2, or 3 meaning rep1 − 1
            switch index {
            case 0:
                return repeatOffsets[0]
            case 1:
                repeatOffsets = [repeatOffsets[1], repeatOffsets[0], repeatOffsets[2]]
                return repeatOffsets[0]
            case 2:
                repeatOffsets = [repeatOffsets[2], repeatOffsets[0], repeatOffsets[1]]
                return repeatOffsets[0]
            default:
                let offset = repeatOffsets[0] - 1
                guard offset > 0 else { throw Failure("repeat offset 0") }
                repeatOffsets = [offset, repeatOffsets[0], repeatOffsets[1]]
                return offset
            }
        }

        /// The decoding table for one of the three sequence symbol kinds, by its mode.
        private func table(_ mode: Int, _ block: UnsafeBufferPointer<UInt8>, _ at: inout Int, current: ZstdFSETable?,
                           predefined: ZstdFSETable, maximumSymbol: Int, maximumAccuracyLog: Int, what: String) throws -> ZstdFSETable {
            switch mode {
            case 0:
                return predefined
            case 1:
                guard at < block.count else { throw Failure("\(what) RLE symbol missing") }
                let symbol = block[at]
                at += 1
                guard Int(symbol) <= maximumSymbol else { throw Failure("\(what) RLE symbol \(symbol) above \(maximumSymbol)") }
                return ZstdFSETable(rle: symbol)
            case 2:
                let (table, used) = try ZstdFSETable.read(UnsafeBufferPointer(rebasing: block[at...]), maximumSymbol: maximumSymbol,
                                                         maximumAccuracyLog: maximumAccuracyLog)
                at += used
                return table
            default:
                guard let current else { throw Failure("\(what) table repeated before one was given") }
                return current
            }
        }

        // MARK: Literals

        /// Decodes the literals section into `literals`; returns their count and the section's size.
        private mutating func readLiterals(_ block: UnsafeBufferPointer<UInt8>) throws -> (Int, Int) {
            guard let first = block.first else { throw Failure("empty compressed block") }
            let type = Int(first & 3)
            let format = Int(first >> 2) & 3
            func byte(_ k: Int) throws -> Int {
                guard k < block.count else { throw Failure("literals header cut short") }
                return Int(block[k])
            }
            if type < 2 {
                let (size, headerSize): (Int, Int)
                switch format {
                case 0, 2: (size, headerSize) = (Int(first >> 3), 1)
                case 1: (size, headerSize) = ((Int(first) >> 4) + (try byte(1) << 4), 2)
                default: (size, headerSize) = ((Int(first) >> 4) + (try byte(1) << 4) + (try byte(2) << 12), 3)
                }
                guard size <= ZstdDecoder.maximumBlockSize else { throw Failure("\(size) literals, above 128 KiB") }
                if type == 0 {
                    guard size <= block.count - headerSize else { throw Failure("raw literals run past the block") }
                    for k in 0..<size { literals[k] = block[headerSize + k] }
                    return (size, headerSize + size)
                }
                let value = UInt8(try byte(headerSize))
                for k in 0..<size { literals[k] = value }
                return (size, headerSize + 1)
            }
            let (size, compressedSize, headerSize): (Int, Int, Int)
            switch format {
            case 0, 1:
                let b1 = try byte(1), b2 = try byte(2)
                (size, compressedSize, headerSize) = ((Int(first) >> 4) + ((b1 & 0x3F) << 4), (b1 >> 6) + (b2 << 2), 3)
            case 2:
                let b1 = try byte(1), b2 = try byte(2), b3 = try byte(3)
                (size, compressedSize, headerSize) = ((Int(first) >> 4) + (b1 << 4) + ((b2 & 3) << 12), (b2 >> 2) + (b3 << 6), 4)
            default:
                let b1 = try byte(1), b2 = try byte(2), b3 = try byte(3), b4 = try byte(4)
                (size, compressedSize, headerSize) = ((Int(first) >> 4) + (b1 << 4) + ((b2 & 0x3F) << 12), (b2 >> 6) + (b3 << 2) + (b4 << 10), 5)
            }
            guard size <= ZstdDecoder.maximumBlockSize else { throw Failure("\(size) literals, above 128 KiB") }
            guard compressedSize <= block.count - headerSize else { throw Failure("compressed literals run past the block") }
            var section = UnsafeBufferPointer(rebasing: block[headerSize..<(headerSize + compressedSize)])
            if type == 2 {
                let (table, used) = try ZstdHuffmanTable.read(section)
                huffman = table
                section = UnsafeBufferPointer(rebasing: section[used...])
            }
            guard let huffman else { throw Failure("literals reuse a Huffman table before one was given") }
            try literals.withUnsafeMutableBufferPointer { literals in
                if format == 0 {
                    try huffman.decode(section, into: literals, range: 0..<size)
                    return
                }
                guard section.count >= 6 else { throw Failure("jump table cut short") }
                let sizes = [Int(section[0]) | Int(section[1]) << 8, Int(section[2]) | Int(section[3]) << 8, Int(section[4]) | Int(section[5]) << 8]
                let total = sizes.reduce(0, +)
                guard total <= section.count - 6 else { throw Failure("Huffman streams run past the literals section") }
                let streamSizes = sizes + [section.count - 6 - total]
                let each = (size + 3) / 4
                guard each * 3 <= size else { throw Failure("too few literals for four streams") }
                var offset = 6
                for stream in 0..<4 {
                    let range = (stream * each)..<(stream == 3 ? size : (stream + 1) * each)
                    let bytes = UnsafeBufferPointer(rebasing: section[offset..<(offset + streamSizes[stream])])
                    try huffman.decode(bytes, into: literals, range: range)
                    offset += streamSizes[stream]
                }
            }
            return (size, headerSize + compressedSize)
        }
    }
}
