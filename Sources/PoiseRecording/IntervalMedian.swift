/// The exact median of a long series of positive intervals in bounded memory, over repeated
/// passes (`poise spectrum` finds its analysis rate from the whole recording this way).
package enum IntervalMedian {
    /// The interval of rank `count / 2` in sorted order, by radix selection over further passes.
    /// `topHistogram` counts the positive intervals by the top 16 bits of their bit pattern; each
    /// further pass calls `intervals` to visit every positive interval again, in any order (`nil`
    /// when two passes disagree: the source changed). Stops at `keep` or fewer intervals left in
    /// play, which it keeps and sorts.
    package static func select(count: Int, keep: Int, topHistogram: [Int], passes: inout Int,
                              intervals forEachInterval: ((Double) -> Void) throws -> Void) throws -> Double? {
        var rank = count / 2          // 0-based rank among the intervals still in play
        var histogram = topHistogram
        var prefix: UInt64 = 0         // the fixed top bits of the median's bit pattern
        var length = 0                 // how many
        while true {
            // Choose the bin holding the rank.
            var bin = 0
            while bin < histogram.count, rank >= histogram[bin] { rank -= histogram[bin]; bin += 1 }
            guard bin < histogram.count else { return nil }
            prefix = prefix << 16 | UInt64(bin)
            length += 16
            let inBin = histogram[bin]
            if length == 64 { return Double(bitPattern: prefix) }
            let shift = UInt64(64 - length)
            passes += 1
            if inBin <= keep {
                var kept: [Double] = []
                kept.reserveCapacity(inBin)
                try forEachInterval { interval in
                    if interval.bitPattern >> shift == prefix { kept.append(interval) }
                }
                guard kept.count == inBin else { return nil }
                kept.sort()
                return kept[rank]
            }
            for index in histogram.indices { histogram[index] = 0 }
            try forEachInterval { interval in
                let bits = interval.bitPattern
                if bits >> shift == prefix { histogram[Int((bits >> (shift - 16)) & 0xFFFF)] += 1 }
            }
            guard histogram.reduce(0, +) == inBin else { return nil }
        }
    }
}
