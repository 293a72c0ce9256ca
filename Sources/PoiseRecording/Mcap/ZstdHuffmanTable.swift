/// The Huffman decoding table of zstd's compressed literals (RFC 8878, 4.2.1): indexed by the
/// next `maximumBits` bits of the stream, each entry gives the symbol and its code length.
struct ZstdHuffmanTable {
    let maximumBits: Int
    /// symbol | bits << 8, one per `maximumBits`-bit prefix.
    private let entries: [UInt16]

    /// Reads a Huffman tree description from the start of `bytes`; returns the table and the
    /// bytes it took.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (ZstdHuffmanTable, Int) {
        guard let header = bytes.first else { throw ZstdDecoder.Failure("Huffman tree description missing") }
        var weights: [UInt8] = []
        let used: Int
        if header >= 128 {
            // Direct: header − 127 weights of 4 bits, the first in the high nibble.
            let count = Int(header) - 127
            used = 1 + (count + 1) / 2
            guard used <= bytes.count else { throw ZstdDecoder.Failure("Huffman weights run past the literals section") }
            for k in 0..<count {
                let byte = bytes[1 + k / 2]
                weights.append(k % 2 == 0 ? byte >> 4 : byte & 15)
            }
        } else {
            // FSE-compressed weights: `header` bytes, an FSE table then two interleaved states.
            used = 1 + Int(header)
            guard header > 0, used <= bytes.count else { throw ZstdDecoder.Failure("Huffman weights run past the literals section") }
            let section = UnsafeBufferPointer(rebasing: bytes[1..<used])
            let (table, tableSize) = try ZstdFSETable.read(section, maximumSymbol: 12, maximumAccuracyLog: 6)
            guard tableSize < section.count else { throw ZstdDecoder.Failure("Huffman weights: no bit stream after the FSE table") }
            var stream = try ZstdBackwardBits(UnsafeBufferPointer(rebasing: section[tableSize...]))
            var state1 = table.initialState(&stream)
            var state2 = table.initialState(&stream)
            guard !stream.isOverflowed else { throw ZstdDecoder.Failure("Huffman weights: bit stream too short") }
            while true {
                guard weights.count < 254 else { throw ZstdDecoder.Failure("more than 255 Huffman weights") }
                weights.append(table.entries[state1].symbol)
                state1 = table.nextState(state1, &stream)
                if stream.isOverflowed { weights.append(table.entries[state2].symbol); break }
                weights.append(table.entries[state2].symbol)
                state2 = table.nextState(state2, &stream)
                if stream.isOverflowed { weights.append(table.entries[state1].symbol); break }
            }
        }
        return (try ZstdHuffmanTable(weights: weights), used)
    }

    /// Builds the table from the weights of every symbol but the last, whose weight completes the
    /// sum to a power of two.
    init(weights given: [UInt8]) throws {
        var total = 0
        for w in given {
            guard w <= 11 else { throw ZstdDecoder.Failure("Huffman weight \(w) above 11") }
            if w > 0 { total += 1 << (Int(w) - 1) }
        }
        guard total > 0 else { throw ZstdDecoder.Failure("Huffman weights all zero") }
        let maximumBits = Int.bitWidth - total.leadingZeroBitCount  // highest bit + 1
        guard maximumBits <= 11 else { throw ZstdDecoder.Failure("Huffman codes longer than 11 bits") }
        let rest = (1 << maximumBits) - total
        guard rest > 0, rest & (rest - 1) == 0 else { throw ZstdDecoder.Failure("Huffman weights do not complete to a power of two") }
        let weights = given + [UInt8(rest.trailingZeroBitCount + 1)]
        var entries = [UInt16](repeating: 0, count: 1 << maximumBits)
        var next = 0
        for weight in 1...maximumBits {
            let span = 1 << (weight - 1)
            let bits = UInt16(maximumBits + 1 - weight)
            for (symbol, w) in weights.enumerated() where Int(w) == weight {
                for k in next..<(next + span) { entries[k] = UInt16(symbol) | bits << 8 }
                next += span
            }
        }
        guard next == entries.count else { throw ZstdDecoder.Failure("Huffman weights do not fill the table") }
        self.maximumBits = maximumBits
        self.entries = entries
    }

    /// Decodes one stream into `output[range]`; the stream must end exactly with the last symbol.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, range: Range<Int>) throws {
        var stream = try ZstdBackwardBits(bytes)
        for k in range {
            let entry = entries[Int(stream.peek(maximumBits))]
            output[k] = UInt8(truncatingIfNeeded: entry)
            stream.consume(Int(entry >> 8))
        }
        guard stream.isFinished else { throw ZstdDecoder.Failure("Huffman stream does not end with its literals") }
    }
}
