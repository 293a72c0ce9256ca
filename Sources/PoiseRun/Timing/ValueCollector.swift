/// Collects integer values (nanoseconds) in bounded memory for percentiles.
///
/// Up to `capacity` values are kept exactly, so replays up to that length (2²⁰ samples: about
/// three hours at 100 Hz) get exact percentiles. Beyond that every second kept value is dropped
/// and only every `stride`-th new value is kept: the percentiles then come from an evenly spaced
/// subsample of the whole run, while count, mean and maximum stay exact. Memory never exceeds
/// `capacity` values, so a replay of any length runs in constant memory.
public struct ValueCollector: Sendable {
    public private(set) var count = 0
    public private(set) var maximum = Int64.min
    private var sum = 0.0
    private var kept: [Int64] = []
    private var stride = 1
    private var phase = 0
    private let capacity: Int

    /// `capacity`: most values kept (≥ 2). `expected`: values to reserve room for up front, so
    /// adding values does not allocate.
    public init(capacity: Int = 1 << 20, expected: Int = 0) {
        self.capacity = Swift.max(2, capacity)
        kept.reserveCapacity(Swift.min(self.capacity, Swift.max(expected, 0)))
    }

    /// Adds a value.
    public mutating func add(_ value: Int64) {
        count += 1
        sum += Double(value)
        if value > maximum { maximum = value }
        phase += 1
        guard phase >= stride else { return }
        phase = 0
        kept.append(value)
        if kept.count >= capacity {
            var write = 0
            for read in Swift.stride(from: 0, to: kept.count, by: 2) { kept[write] = kept[read]; write += 1 }
            kept.removeLast(kept.count - write)
            stride *= 2
        }
    }

    /// The summary with values multiplied by `scale` (for example 1e-3 for ns → µs); `nil` when
    /// no value was added.
    public func summary(scale: Double = 1) -> DistributionSummary? {
        guard count > 0 else { return nil }
        let sorted = kept.map { Double($0) * scale }.sorted()
        return DistributionSummary(count: count,
                                   p50: DistributionSummary.quantile(sorted: sorted, 0.5),
                                   p90: DistributionSummary.quantile(sorted: sorted, 0.9),
                                   p99: DistributionSummary.quantile(sorted: sorted, 0.99),
                                   max: Double(maximum) * scale,
                                   mean: sum / Double(count) * scale)
    }
}
