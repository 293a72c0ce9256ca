/// Decompresses bzip2 data (the `bz2` chunks of ROS 1 bags), written from the format: stream
/// header `BZh1`…`BZh9`, blocks of Huffman-coded move-to-front symbols with run-length codes,
/// the inverse Burrows–Wheeler transform, the final run-length decoding, and each block's CRC.
///
/// Every count and index read from the data is checked: malformed or hostile input throws
/// `Bzip2Decoder.Failure`, never traps, and the output never grows past `expectedSize`.
/// Randomised blocks (written only by bzip2 0.9.0 and earlier) are refused.
struct Bzip2Decoder {
    /// Why the data could not be decompressed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Decompresses `input`, which must decompress to exactly `expectedSize` bytes.
    static func decompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        var decoder = Bzip2Decoder(input: input, expectedSize: expectedSize)
        try decoder.run()
        guard decoder.output.count == expectedSize else {
            throw Failure("decompressed to \(decoder.output.count) bytes, not the \(expectedSize) the chunk header says")
        }
        return decoder.output
    }

    private let input: UnsafeBufferPointer<UInt8>
    private let expectedSize: Int
    private var index = 0
    private var accumulator: UInt64 = 0
    private var accumulatedBits = 0
    private var output: [UInt8] = []

    private init(input: UnsafeBufferPointer<UInt8>, expectedSize: Int) {
        self.input = input
        self.expectedSize = expectedSize
        output.reserveCapacity(expectedSize)
    }

    /// The next `count` (≤ 32) bits, most significant first.
    private mutating func bits(_ count: Int) throws -> Int {
        while accumulatedBits < count {
            guard index < input.count else { throw Failure("the compressed data ends early") }
            accumulator = accumulator << 8 | UInt64(input[index])
            index += 1
            accumulatedBits += 8
        }
        accumulatedBits -= count
        return Int(truncatingIfNeeded: (accumulator >> UInt64(accumulatedBits)) & ((1 << UInt64(count)) - 1))
    }

    private mutating func run() throws {
        repeat {
            guard try bits(8) == 0x42, try bits(8) == 0x5A, try bits(8) == 0x68 else { throw Failure("no bzip2 stream header (BZh)") }
            let level = try bits(8) - 0x30
            guard (1...9).contains(level) else { throw Failure("bzip2 block size digit \(level) is not 1…9") }
            while true {
                let magic = try bits(24) << 24 | bits(24)
                if magic == 0x3141_5926_5359 {
                    try block(maximumSize: level * 100_000)
                } else if magic == 0x1772_4538_5090 {
                    _ = try bits(32)  // combined CRC: every block's CRC is checked
                    accumulatedBits -= accumulatedBits % 8  // streams start on a byte boundary
                    break
                } else {
                    throw Failure("bad bzip2 block magic")
                }
            }
        } while accumulatedBits == 0 && input.count - index >= 4  // concatenated streams
    }

    /// One block: its symbols, the inverse transform, and the final run-length decoding into `output`.
    private mutating func block(maximumSize: Int) throws {
        let expectedCRC = UInt32(try bits(32))
        guard try bits(1) == 0 else { throw Failure("randomised bzip2 block (bzip2 0.9.0 format) is not supported") }
        let origin = try bits(24)
        // Which byte values occur.
        let usedGroups = try bits(16)
        var alphabet: [UInt8] = []
        for group in 0..<16 where usedGroups & (0x8000 >> group) != 0 {
            let used = try bits(16)
            for k in 0..<16 where used & (0x8000 >> k) != 0 { alphabet.append(UInt8(group * 16 + k)) }
        }
        guard !alphabet.isEmpty else { throw Failure("bzip2 block uses no byte values") }
        let alphabetSize = alphabet.count + 2
        // Huffman tables and which one codes each group of 50 symbols.
        let tableCount = try bits(3)
        guard (2...6).contains(tableCount) else { throw Failure("bzip2 block has \(tableCount) Huffman tables (2…6)") }
        let selectorCount = try bits(15)
        guard selectorCount > 0 else { throw Failure("bzip2 block has no selectors") }
        var order = Array(0..<tableCount)
        var selectors = [Int](repeating: 0, count: selectorCount)
        for i in 0..<selectorCount {
            var position = 0
            while try bits(1) == 1 {
                position += 1
                guard position < tableCount else { throw Failure("bzip2 selector \(position) ≥ table count \(tableCount)") }
            }
            let table = order.remove(at: position)
            order.insert(table, at: 0)
            selectors[i] = table
        }
        var tables: [HuffmanTable] = []
        for _ in 0..<tableCount {
            var length = try bits(5)
            var lengths = [Int](repeating: 0, count: alphabetSize)
            for symbol in 0..<alphabetSize {
                while true {
                    guard (1...20).contains(length) else { throw Failure("bzip2 code length \(length) outside 1…20") }
                    if try bits(1) == 0 { break }
                    length += try bits(1) == 0 ? 1 : -1
                }
                lengths[symbol] = length
            }
            tables.append(HuffmanTable(lengths: lengths))
        }
        // Symbols → bytes of the transformed block (move-to-front and RUNA/RUNB runs undone).
        let endOfBlock = alphabetSize - 1
        var front = (0..<alphabet.count).map { UInt8(truncatingIfNeeded: $0) }
        var transformed: [UInt8] = []
        transformed.reserveCapacity(maximumSize)
        var byteCounts = [Int](repeating: 0, count: 256)
        var selectorIndex = -1
        var leftInGroup = 0
        var run = 0
        var runWeight = 1
        while true {
            if leftInGroup == 0 {
                selectorIndex += 1
                guard selectorIndex < selectorCount else { throw Failure("bzip2 block runs past its \(selectorCount) selectors") }
                leftInGroup = 50
            }
            leftInGroup -= 1
            let symbol = try tables[selectors[selectorIndex]].decode { try bits($0) }
            if symbol <= 1 {
                guard runWeight <= maximumSize else { throw Failure("bzip2 run longer than the block") }
                run += (symbol + 1) * runWeight
                runWeight <<= 1
                guard run <= maximumSize else { throw Failure("bzip2 run longer than the block") }
                continue
            }
            if run > 0 {
                guard transformed.count + run <= maximumSize else { throw Failure("bzip2 block longer than \(maximumSize) bytes") }
                let byte = alphabet[Int(front[0])]
                transformed.append(contentsOf: repeatElement(byte, count: run))
                byteCounts[Int(byte)] += run
                run = 0
                runWeight = 1
            }
            if symbol == endOfBlock { break }
            let position = symbol - 1
            guard position < front.count else { throw Failure("bzip2 move-to-front index \(position) outside the \(front.count) byte values") }
            let value = front[position]
            var k = position
            while k > 0 { front[k] = front[k - 1]; k -= 1 }
            front[0] = value
            guard transformed.count < maximumSize else { throw Failure("bzip2 block longer than \(maximumSize) bytes") }
            let byte = alphabet[Int(value)]
            transformed.append(byte)
            byteCounts[Int(byte)] += 1
        }
        guard origin < transformed.count else { throw Failure("bzip2 origin pointer \(origin) outside the \(transformed.count)-byte block") }
        // Inverse Burrows–Wheeler: each entry holds its byte (low 8 bits) and the next position.
        var start = [Int](repeating: 0, count: 256)
        var total = 0
        for byte in 0..<256 { start[byte] = total; total += byteCounts[byte] }
        var links = transformed.map { UInt32($0) }
        for (i, byte) in transformed.enumerated() {
            links[start[Int(byte)]] |= UInt32(i) << 8
            start[Int(byte)] += 1
        }
        // Final run-length decoding: four equal bytes are followed by a count of more.
        var crc = Bzip2Decoder.CRC()
        var position = Int(links[origin] >> 8)
        var previous = -1
        var same = 0
        for _ in 0..<transformed.count {
            let link = links[position]
            let byte = UInt8(truncatingIfNeeded: link)
            position = Int(link >> 8)
            if same == 4 {
                guard output.count + Int(byte) <= expectedSize else { throw Failure("decompresses past the \(expectedSize) bytes the chunk header says") }
                for _ in 0..<Int(byte) { output.append(UInt8(previous)); crc.add(UInt8(previous)) }
                same = 0
                previous = -1
                continue
            }
            if Int(byte) == previous { same += 1 } else { same = 1; previous = Int(byte) }
            guard output.count < expectedSize else { throw Failure("decompresses past the \(expectedSize) bytes the chunk header says") }
            output.append(byte)
            crc.add(byte)
        }
        guard crc.value == expectedCRC else { throw Failure("bzip2 block CRC mismatch (corrupt data)") }
    }
}
