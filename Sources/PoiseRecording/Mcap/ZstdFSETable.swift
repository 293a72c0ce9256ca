/// A finite state entropy (tANS) decoding table of zstd (RFC 8878, 4.1): for each state, the
/// symbol it decodes to and how the next state is found (`baseline` + that many bits read).
struct ZstdFSETable {
    struct Entry {
        var symbol: UInt8
        var bits: UInt8
        var baseline: UInt16
    }

    let accuracyLog: Int
    let entries: [Entry]

    /// A table where every state decodes `symbol` (the RLE mode: accuracy 0, no bits read).
    init(rle symbol: UInt8) {
        accuracyLog = 0
        entries = [Entry(symbol: symbol, bits: 0, baseline: 0)]
    }

    /// Builds the table for normalized counts (`-1`: a probability below 1) summing to
    /// 2^`accuracyLog` (RFC 8878, 4.1.1).
    init(counts: [Int16], accuracyLog: Int) throws {
        let size = 1 << accuracyLog
        guard counts.reduce(0, { $0 + abs(Int($1)) }) == size else { throw ZstdDecoder.Failure("FSE counts do not sum to the table size") }
        var symbols = [UInt8](repeating: 0, count: size)
        var next = [Int](repeating: 0, count: counts.count)
        var high = size - 1
        for (symbol, count) in counts.enumerated() where count == -1 {
            guard high >= 0 else { throw ZstdDecoder.Failure("FSE counts exceed the table") }
            symbols[high] = UInt8(symbol)
            high -= 1
            next[symbol] = 1
        }
        let step = (size >> 1) + (size >> 3) + 3
        let mask = size - 1
        var position = 0
        for (symbol, count) in counts.enumerated() where count > 0 {
            next[symbol] = Int(count)
            for _ in 0..<Int(count) {
                symbols[position] = UInt8(symbol)
                repeat { position = (position + step) & mask } while position > high
            }
        }
        guard position == 0 else { throw ZstdDecoder.Failure("FSE counts do not fill the table") }
        var entries: [Entry] = []
        entries.reserveCapacity(size)
        for state in 0..<size {
            let symbol = Int(symbols[state])
            let nextState = next[symbol]
            next[symbol] += 1
            let bits = accuracyLog - (Int.bitWidth - 1 - nextState.leadingZeroBitCount)
            entries.append(Entry(symbol: UInt8(symbol), bits: UInt8(bits), baseline: UInt16((nextState << bits) - size)))
        }
        self.accuracyLog = accuracyLog
        self.entries = entries
    }

    /// Reads a table description (normalized counts, RFC 8878 4.1.1) from the start of `bytes`;
    /// returns the table and the bytes it took.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumSymbol: Int, maximumAccuracyLog: Int) throws -> (ZstdFSETable, Int) {
        var bit = 0
        func bits(_ count: Int) throws -> Int {
            var value = 0
            for k in 0..<count {
                let index = (bit + k) >> 3
                guard index < bytes.count else { throw ZstdDecoder.Failure("FSE table description runs past its section") }
                value |= Int((bytes[index] >> UInt8((bit + k) & 7)) & 1) << k
            }
            return value
        }
        func peek(_ count: Int) throws -> Int { let saved = bit; defer { bit = saved }; return try bits(count) }
        let accuracyLog = try bits(4) + 5
        bit += 4
        guard accuracyLog <= maximumAccuracyLog else {
            throw ZstdDecoder.Failure("FSE accuracy log \(accuracyLog) above the maximum \(maximumAccuracyLog)")
        }
        var remaining = (1 << accuracyLog) + 1
        var threshold = 1 << accuracyLog
        var width = accuracyLog + 1
        var counts: [Int16] = []
        while remaining > 1 {
            guard counts.count <= maximumSymbol else { throw ZstdDecoder.Failure("FSE table with more than \(maximumSymbol + 1) symbols") }
            let largest = 2 * threshold - 1 - remaining
            let low = try peek(width - 1)
            var value: Int
            if low < largest {
                value = low
                bit += width - 1
            } else {
                value = try peek(width)
                if value >= threshold { value -= largest }
                bit += width
            }
            let count = value - 1
            remaining -= abs(count)
            counts.append(Int16(count))
            if count == 0 {
                // Repeat flags: 2 bits each, 3 meaning "and more".
                while true {
                    let repeats = try bits(2)
                    bit += 2
                    guard counts.count + repeats <= maximumSymbol + 1 else { throw ZstdDecoder.Failure("FSE zero run past the last symbol") }
                    counts.append(contentsOf: repeatElement(0, count: repeats))
                    if repeats != 3 { break }
                }
            }
            while remaining < threshold && remaining > 1 {
                width -= 1
                threshold >>= 1
            }
        }
        guard remaining == 1 else { throw ZstdDecoder.Failure("FSE counts overshoot their total") }
        return (try ZstdFSETable(counts: counts, accuracyLog: accuracyLog), (bit + 7) >> 3)
    }

    /// The first state: `accuracyLog` bits.
    func initialState(_ stream: inout ZstdBackwardBits) -> Int { Int(stream.read(accuracyLog)) }

    /// The state after `state`.
    func nextState(_ state: Int, _ stream: inout ZstdBackwardBits) -> Int {
        let entry = entries[state]
        return Int(entry.baseline) + Int(stream.read(Int(entry.bits)))
    }
}
