extension Bzip2Decoder {
    /// A canonical Huffman code from its code lengths (1…20 bits), decoded a bit at a time.
    struct HuffmanTable {
        private var minimumLength = 21
        private var maximumLength = 0
        /// Per length, the largest code of that length (−1 when none).
        private var limit = [Int](repeating: -1, count: 22)
        /// Per length, subtracted from a code to index `symbols`.
        private var base = [Int](repeating: 0, count: 23)
        /// Symbols in order of code length, then symbol.
        private var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { minimumLength = min(minimumLength, length); maximumLength = max(maximumLength, length) }
            for length in minimumLength...maximumLength {
                for (symbol, l) in lengths.enumerated() where l == length { symbols.append(symbol) }
            }
            var counts = [Int](repeating: 0, count: 23)
            for length in lengths { counts[length + 1] += 1 }
            for i in 1..<23 { counts[i] += counts[i - 1] }
            var code = 0
            for length in minimumLength...maximumLength {
                code += counts[length + 1] - counts[length]
                limit[length] = code - 1
                code <<= 1
            }
            for length in minimumLength...maximumLength {
                base[length] = length == minimumLength ? counts[length] : ((limit[length - 1] + 1) << 1) - counts[length]
            }
        }

        /// The next symbol, reading bits with `bits`.
        ///
        /// - Throws: `Failure` for a code no symbol has.
        func decode(_ bits: (Int) throws -> Int) throws -> Int {
            var length = minimumLength
            var code = try bits(length)
            while code > limit[length] {
                length += 1
                guard length <= maximumLength else { throw Failure("bzip2 Huffman code matches no symbol") }
                code = code << 1 | (try bits(1))
            }
            let index = code - base[length]
            guard index >= 0 && index < symbols.count else { throw Failure("bzip2 Huffman code matches no symbol") }
            return symbols[index]
        }
    }

    /// bzip2's CRC-32 (polynomial 0x04C11DB7, most significant bit first).
    struct CRC {
        private(set) var state: UInt32 = 0xFFFF_FFFF
        var value: UInt32 { ~state }

        static let table: [UInt32] = (0..<256).map { n in
            var c = UInt32(n) << 24
            for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
            return c
        }

        mutating func add(_ byte: UInt8) {
            state = (state << 8) ^ Self.table[Int((state >> 24) ^ UInt32(byte))]
        }
    }
}
