/// The gaps of a recording for a threshold known only at the end (1.5 × the median interval),
/// gathered in one pass: the exact number of intervals above the threshold and the first `limit`
/// of them in time order.
///
/// Counting: intervals are binned by microseconds (`key`, the same rounding as the interval
/// histogram), and the threshold is 1.5 × a whole number m of microseconds. A bin more than two
/// microseconds above 1.5 m lies wholly above it, one more than two below wholly below; for the
/// bins near 1.5 m the intervals above `1.5 × m × 1e-6` s are counted exactly as they arrive, for
/// each of the (at most three) m near the bin. Memory grows with the number of distinct bins, not
/// with the number of intervals.
///
/// Listing: an interval is kept unless `limit` earlier kept intervals are at least as long — then,
/// whatever the threshold, those come first and it is not among the first `limit` gaps. What is
/// kept grows only when an interval is among the `limit` longest so far: about `limit · ln N` for
/// N intervals of a jittery clock.
struct GapCandidates: Sendable {
    /// How many gaps are listed.
    let limit: Int
    /// Bin counts: microsecond key → intervals.
    private(set) var counts: [Int64: Int] = [:]
    /// m → intervals in the bins near 1.5 m longer than 1.5 m µs.
    private var nearCounts: [Int64: Int] = [:]
    /// Candidate gaps in time order: time of the sample after the interval (s), interval (s).
    private var kept: [(time: Double, interval: Double)] = []
    /// The `limit` longest kept intervals, ascending.
    private var longest: [Double] = []

    /// Keys at or above this are clamped to it (2^53 µs, about 285 years).
    static let largestKey: Int64 = 1 << 53

    init(limit: Int = 100) { self.limit = max(1, limit) }

    /// The microsecond bin of an interval in seconds (≥ 0), clamped to `largestKey`.
    static func key(_ interval: Double) -> Int64 {
        let micros = (interval * 1e6).rounded()
        return micros < Double(largestKey) ? Int64(micros) : largestKey
    }

    /// Adds a positive interval (s) ending at `time` (s).
    mutating func add(time: Double, interval: Double) {
        let k = Self.key(interval)
        counts[k, default: 0] += 1
        if k < Self.largestKey {
            // m with |1.5 m − k| ≤ 2.
            var m = max(1, (2 * (k - 2) + 2) / 3)
            while 3 * m <= 2 * (k + 2) {
                if 3 * m >= 2 * (k - 2), interval > Self.threshold(m) { nearCounts[m, default: 0] += 1 }
                m += 1
            }
        }
        if longest.count == limit, interval <= longest[0] { return }
        kept.append((time, interval))
        var low = 0, high = longest.count
        while low < high {
            let mid = (low + high) / 2
            if longest[mid] < interval { low = mid + 1 } else { high = mid }
        }
        longest.insert(interval, at: low)
        if longest.count > limit { longest.removeFirst() }
    }

    /// The gap threshold for a median of m µs, s.
    static func threshold(_ m: Int64) -> Double { 1.5 * (Double(m) * 1e-6) }

    /// Whether gaps can be judged against a median of m µs: not when it is 0 or beyond
    /// `largestKey / 2` (over 142 years, where the bins are clamped; no gaps are then reported).
    static func judges(medianKey m: Int64) -> Bool { m > 0 && m < largestKey / 2 }

    /// Intervals longer than 1.5 × `medianKey` µs.
    func count(medianKey m: Int64) -> Int {
        guard Self.judges(medianKey: m) else { return 0 }
        var total = nearCounts[m] ?? 0
        for (k, c) in counts where 2 * k > 3 * m + 4 { total += c }
        return total
    }

    /// The first `limit` intervals longer than 1.5 × `medianKey` µs, in time order.
    func first(medianKey m: Int64) -> [(time: Double, interval: Double)] {
        guard Self.judges(medianKey: m) else { return [] }
        let threshold = Self.threshold(m)
        var result: [(time: Double, interval: Double)] = []
        for candidate in kept where candidate.interval > threshold {
            result.append(candidate)
            if result.count == limit { break }
        }
        return result
    }
}
