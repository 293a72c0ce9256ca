/// Counts of non-negative values in bins of relative width 2⁻¹² (about 0.024 %), for medians in
/// memory that does not grow with the number of values: at most 4096 bins per factor of two
/// between the smallest and the largest value.
struct NormHistogram: Sendable {
    private(set) var counts: [UInt64: Int] = [:]
    private(set) var total = 0

    /// Bin of `value`: its bit pattern without the low 40 mantissa bits (non-negative values
    /// order like their bit patterns).
    static func bin(_ value: Double) -> UInt64 { value.magnitude.bitPattern >> 40 }

    mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        counts[Self.bin(value), default: 0] += 1
        total += 1
    }

    mutating func merge(_ other: NormHistogram) {
        counts.merge(other.counts, uniquingKeysWith: +)
        total += other.total
    }

    /// The bin midpoint of the value ranked `total / 2` (0-based) in sorted order; nil when empty.
    var median: Double? {
        guard total > 0 else { return nil }
        var seen = 0
        for key in counts.keys.sorted() {
            seen += counts[key] ?? 0
            if seen > total / 2 {
                let low = Double(bitPattern: key << 40), high = Double(bitPattern: (key + 1) << 40)
                return key == 0 ? 0 : (low + high) / 2
            }
        }
        return nil
    }
}
