/// Decompresses raw DEFLATE data (RFC 1951; the `deflate` method of ZIP archives), written from
/// the format description: stored blocks, fixed and dynamic Huffman blocks, length/distance
/// pairs reaching up to 32 KiB back.
///
/// Huffman codes are decoded canonically (code counts per length and symbols in code order), a
/// bit at a time. Every count, code, length and distance is checked: malformed or hostile input
/// throws `InflateDecoder.Failure`, never traps, and the output never grows past `expectedSize`.
enum InflateDecoder {
    /// Why the data could not be decompressed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A canonical Huffman code: how many codes of each length (1…15), and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        /// The code for symbols with `lengths` (0: unused).
        ///
        /// - Throws: when the lengths over-subscribe the code space. An incomplete code is
        ///   allowed (RFC 1951 permits one distance code of one bit); a missing code fails when met.
        init(lengths: [Int]) throws {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1 ... 15 {
                left = left * 2 - counts[length]
                guard left >= 0 else { throw Failure("over-subscribed Huffman code lengths") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1 ..< 15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    /// Reads bits least significant first.
    struct Bits {
        let input: UnsafeBufferPointer<UInt8>
        var index = 0
        var buffer = 0
        var count = 0

        mutating func take(_ n: Int) throws -> Int {
            while count < n {
                guard index < input.count else { throw Failure("the compressed data ends early") }
                buffer |= Int(input[index]) << count
                index += 1
                count += 8
            }
            let value = buffer & ((1 << n) - 1)
            buffer >>= n
            count -= n
            return value
        }

        mutating func decode(_ code: Huffman) throws -> Int {
            var value = 0, first = 0, index = 0
            for length in 1 ... 15 {
                value |= try take(1)
                let count = code.counts[length]
                if value - count < first { return code.symbols[index + (value - first)] }
                index += count
                first = (first + count) << 1
                value <<= 1
            }
            throw Failure("invalid Huffman code")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                               4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block lists its code-length code lengths.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The fixed codes of block type 1.
    static let fixed: (literals: Huffman, distances: Huffman) = {
        let literals = (0 ..< 288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
        // Both fixed codes are complete: building them cannot fail.
        return ((try? Huffman(lengths: literals)) ?? Huffman.empty, (try? Huffman(lengths: [Int](repeating: 5, count: 30))) ?? Huffman.empty)
    }()

    /// Decompresses `input`, which must decompress to exactly `expectedSize` bytes.
    static func decompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(expectedSize)
        var bits = Bits(input: input)
        var last = false
        repeat {
            last = try bits.take(1) == 1
            switch try bits.take(2) {
            case 0:
                // Stored: byte-aligned LEN, NLEN, then LEN bytes.
                bits.buffer = 0
                bits.count = 0
                guard input.count - bits.index >= 4 else { throw Failure("the compressed data ends early") }
                let length = Int(input[bits.index]) | Int(input[bits.index + 1]) << 8
                let complement = Int(input[bits.index + 2]) | Int(input[bits.index + 3]) << 8
                bits.index += 4
                guard length == ~complement & 0xFFFF else { throw Failure("stored block length does not match its complement") }
                guard input.count - bits.index >= length else { throw Failure("the compressed data ends early") }
                guard output.count + length <= expectedSize else { throw Failure("more than the \(expectedSize) bytes expected") }
                output.append(contentsOf: input[bits.index ..< bits.index + length])
                bits.index += length
            case 1:
                try inflate(&bits, fixed.literals, fixed.distances, into: &output, expectedSize: expectedSize)
            case 2:
                let (literals, distances) = try dynamicCodes(&bits)
                try inflate(&bits, literals, distances, into: &output, expectedSize: expectedSize)
            default:
                throw Failure("invalid block type 3")
            }
        } while !last
        guard output.count == expectedSize else {
            throw Failure("decompressed to \(output.count) bytes, \(expectedSize) expected")
        }
        return output
    }

    /// Reads a dynamic block's literal/length and distance codes.
    static func dynamicCodes(_ bits: inout Bits) throws -> (Huffman, Huffman) {
        let literalCount = try bits.take(5) + 257
        let distanceCount = try bits.take(5) + 1
        let codeLengthCount = try bits.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Failure("too many literal or distance codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0 ..< codeLengthCount { codeLengths[codeLengthOrder[i]] = try bits.take(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try bits.decode(lengthCode)
            switch symbol {
            case 0 ... 15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure("a repeat with no length before it") }
                lengths += repeatElement(previous, count: 3 + (try bits.take(2)))
            case 17: lengths += repeatElement(0, count: 3 + (try bits.take(3)))
            default: lengths += repeatElement(0, count: 11 + (try bits.take(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Failure("code lengths run past the codes") }
        guard lengths[256] != 0 else { throw Failure("no end-of-block code") }
        return (try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }

    /// Decodes one Huffman block up to its end-of-block symbol.
    static func inflate(_ bits: inout Bits, _ literals: Huffman, _ distances: Huffman, into output: inout [UInt8],
                        expectedSize: Int) throws {
        while true {
            let symbol = try bits.decode(literals)
            if symbol < 256 {
                guard output.count < expectedSize else { throw Failure("more than the \(expectedSize) bytes expected") }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < 29 else { throw Failure("invalid length code \(symbol)") }
            let length = lengthBase[index] + (try bits.take(lengthExtra[index]))
            let distanceSymbol = try bits.decode(distances)
            guard distanceSymbol < 30 else { throw Failure("invalid distance code \(distanceSymbol)") }
            let distance = distanceBase[distanceSymbol] + (try bits.take(distanceExtra[distanceSymbol]))
            guard distance <= output.count else { throw Failure("a distance of \(distance) bytes reaches before the start") }
            guard output.count + length <= expectedSize else { throw Failure("more than the \(expectedSize) bytes expected") }
            let start = output.count - distance
            for k in 0 ..< length { output.append(output[start + k]) }
        }
    }
}

extension InflateDecoder.Huffman {
    /// A code with no symbols (decoding with it always fails).
    static let empty = InflateDecoder.Huffman(counts: [Int](repeating: 0, count: 16), symbols: [])

    init(counts: [Int], symbols: [Int]) {
        self.counts = counts
        self.symbols = symbols
    }
}
