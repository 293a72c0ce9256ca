/// One bin of a ``TimingHistogram``: `count` values with `from ≤ value < to`.
public struct HistogramBin: Sendable, Codable, Equatable {
    /// Lower edge (inclusive), in the unit of the field holding the bins.
    public var from: Double
    /// Upper edge (exclusive).
    public var to: Double
    /// Number of values in the bin.
    public var count: Int

    public init(from: Double, to: Double, count: Int) { self.from = from; self.to = to; self.count = count }
}

/// A histogram of integer values (nanoseconds) on a log scale, in constant memory, exact counts.
///
/// Bins: values ≤ 0 share the first bin; 1, 2 and 3 have one bin each; above, every octave
/// [2ᵏ, 2ᵏ⁺¹) is split into four equal bins (edges 2ᵏ·{1, 1.25, 1.5, 1.75}), so a bin is at
/// most 25 % wider than its lower edge whatever the scale — microseconds of lateness and seconds
/// of a stall land in bins of the same relative width. The bin of a value is found from its
/// leading-zero count (no logarithm), and `add` never allocates.
public struct TimingHistogram: Sendable, Equatable {
    /// Counts per bin index (248 bins cover every positive `Int64`).
    private var counts = [Int](repeating: 0, count: 248)
    /// Smallest value added (the lower edge of the first bin when a value was ≤ 0).
    private var minimum = Int64.max
    /// Values added.
    public private(set) var count = 0

    public init() {}

    /// The bin index of `value`.
    @inline(__always)
    static func index(_ value: Int64) -> Int {
        if value < 4 { return Swift.max(0, Int(value)) }
        let octave = 63 - value.leadingZeroBitCount            // ≥ 2
        return 4 * (octave - 1) + Int((value >> (octave - 2)) & 3)
    }

    /// The edges [lower, upper) of bin `index` (index ≥ 1).
    static func edges(_ index: Int) -> (Int64, Int64) {
        if index < 4 { return (Int64(index), Int64(index + 1)) }
        let octave = index / 4 + 1, sub = Int64(index % 4)
        let width = Int64(1) << (octave - 2)
        return ((4 + sub) * width, (5 + sub) * width)
    }

    /// Adds a value.
    public mutating func add(_ value: Int64) {
        counts[Self.index(value)] += 1
        if value < minimum { minimum = value }
        count += 1
    }

    /// The non-empty bins in increasing order, edges multiplied by `scale` (1e-3: ns → µs).
    public func bins(scale: Double = 1) -> [HistogramBin] {
        var out: [HistogramBin] = []
        for (i, c) in counts.enumerated() where c > 0 {
            if i == 0 {
                out.append(HistogramBin(from: Double(Swift.min(minimum, 0)) * scale, to: 1 * scale, count: c))
            } else {
                let (lower, upper) = Self.edges(i)
                out.append(HistogramBin(from: Double(lower) * scale, to: Double(upper) * scale, count: c))
            }
        }
        return out
    }
}
