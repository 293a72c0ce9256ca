/// The exact median of many values read by index, in memory that does not depend on their
/// number: for values kept outside the heap (a `SmootherStorage`) and read in order.
///
/// A selection on the values' binary keys (the bit patterns reordered so that unsigned order is
/// numeric order), 16 bits per pass: each pass counts the values that share the bits found so
/// far by their next 16 bits, so four passes find the lower middle value, and for an even
/// number at most one more finds the next. The counters take 512 KB.
enum ExactMedian {
    /// The median of the values `value(i)`, 0 ≤ i < `count`, that are not NaN: the middle one in
    /// numeric order, the mean (a + b) / 2 of the middle two for an even number; nil when every
    /// value is NaN. Equal, bit for bit, to sorting them (`Array.sort()`) and taking the middle,
    /// except that a middle zero may have the other sign (sorting does not order −0 and +0).
    /// `value` is called in index order, four or five times per index, and must return the same
    /// value each time.
    static func of(count: Int, _ value: (Int) -> Double) -> Double? {
        var counts = [Int](repeating: 0, count: 1 << 16)
        var prefix: UInt64 = 0, rank = 0, total = 0, copiesAfter = 0
        for shift: UInt64 in [48, 32, 16, 0] {
            for d in counts.indices { counts[d] = 0 }
            // The bits above this pass's 16 (none in the first pass).
            let found: UInt64 = shift == 48 ? 0 : ~UInt64(0) << (shift + 16)
            for i in 0..<count {
                let x = value(i)
                guard !x.isNaN else { continue }
                let k = key(x)
                if k & found == prefix { counts[Int(truncatingIfNeeded: (k >> shift) & 0xFFFF)] += 1 }
            }
            if shift == 48 {
                total = counts.reduce(0, +)
                guard total > 0 else { return nil }
                rank = (total - 1) / 2
            }
            var digit = 0
            while rank >= counts[digit] {
                rank -= counts[digit]
                digit += 1
            }
            prefix |= UInt64(digit) << shift
            if shift == 0 { copiesAfter = counts[digit] - rank - 1 }
        }
        let lower = number(prefix)
        guard total % 2 == 0 else { return lower }
        // The upper middle: another copy of the lower one, or the smallest value above it.
        var upper = prefix
        if copiesAfter == 0 {
            upper = .max
            for i in 0..<count {
                let x = value(i)
                guard !x.isNaN else { continue }
                let k = key(x)
                if k > prefix && k < upper { upper = k }
            }
        }
        return (lower + number(upper)) / 2
    }

    /// The key of `x` (not NaN) whose unsigned order is numeric order (−0 just before +0): the
    /// sign bit set for positive numbers, every bit flipped for negative ones.
    @inline(__always) static func key(_ x: Double) -> UInt64 {
        let bits = x.bitPattern
        return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
    }

    /// The number of a key (the inverse of `key`).
    @inline(__always) static func number(_ key: UInt64) -> Double {
        Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key)
    }
}
