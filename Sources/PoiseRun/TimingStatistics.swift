/// Percentiles, maximum and mean of a set of values.
///
/// Percentiles use linear interpolation between closest ranks (numpy's default `linear`
/// method): `p = q·(n − 1)`, interpolated between the sorted values at ⌊p⌋ and ⌈p⌉.
public struct DistributionSummary: Sendable, Codable, Equatable {
    /// Number of values summarised (all values, even when the percentiles come from a subsample).
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
    public var mean: Double

    public init(count: Int, p50: Double, p90: Double, p99: Double, max: Double, mean: Double) {
        self.count = count; self.p50 = p50; self.p90 = p90; self.p99 = p99; self.max = max; self.mean = mean
    }

    /// The `q`-quantile (0…1) of already sorted values, numpy `linear` method.
    public static func quantile(sorted values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let position = q * Double(values.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, values.count - 1)
        let fraction = position - Double(lower)
        return values[lower] + (values[upper] - values[lower]) * fraction
    }
}

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

/// Running mean and standard deviation (Welford), exact and streaming.
public struct RunningDeviation: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var mean = 0.0
    private var squares = 0.0

    public init() {}

    /// Adds a value.
    public mutating func add(_ value: Double) {
        count += 1
        let delta = value - mean
        mean += delta / Double(count)
        squares += delta * (value - mean)
    }

    /// Population standard deviation (divides by n); 0 for fewer than two values.
    public var standardDeviation: Double {
        count < 2 ? 0 : (squares / Double(count)).squareRoot()
    }
}

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

/// The delivery timing of a replay, as defined in conventions.md "Replay timing".
///
/// For sample i scheduled at s_i = start + (t_i − t_0)/speed and delivered at a_i:
/// lateness e_i = a_i − s_i; period jitter = standard deviation of (a_i − a_{i−1}) − (s_i − s_{i−1})
/// (= e_i − e_{i−1}); drift = e_last − e_first (and, robustly, the least-squares trend of e_i over
/// the replay); a sample is late when e_i exceeds one sample
/// period; processing cost = wall time of the pipeline for that sample.
public struct ReplayTiming: Sendable, Codable, Equatable {
    /// Samples delivered (never fewer than read: nothing is dropped; fewer only after a stop).
    public var samples: Int
    /// Lateness in µs; `nil` for `--speed max` (nothing is scheduled).
    public var latenessMicroseconds: DistributionSummary?
    /// Period jitter in µs; `nil` for `--speed max` or fewer than two samples.
    public var periodJitterMicroseconds: Double?
    /// Drift e_last − e_first in µs; `nil` for `--speed max`.
    public var driftMicroseconds: Double?
    /// Drift from the least-squares line of lateness against schedule time: its slope times the
    /// scheduled span, µs. Unlike `driftMicroseconds` it is not moved by one late first or last
    /// sample (a VM stall), so it shows whether the schedule really creeps. `nil` for `--speed max`
    /// or fewer than two samples.
    public var driftTrendMicroseconds: Double?
    /// Samples whose lateness exceeded the late threshold.
    public var lateSamples: Int
    /// The late threshold in µs (one sample period at the replay rate).
    public var lateThresholdMicroseconds: Double
    /// Pipeline processing cost per sample in ns.
    public var processingNanoseconds: DistributionSummary?
    /// Wall time of the whole replay loop in seconds.
    public var wallSeconds: Double
    /// Process CPU time (user + system) during the replay loop in seconds.
    public var cpuSeconds: Double
    /// Histogram of the lateness, µs (non-empty bins of ``TimingHistogram``, exact counts over
    /// all samples); `nil` for `--speed max` or in JSON written before it existed.
    public var latenessHistogram: [HistogramBin]? = nil
    /// Histogram of the processing cost, ns; `nil` in JSON written before it existed.
    public var processingHistogram: [HistogramBin]? = nil
    /// `cpuSeconds / wallSeconds`: 1 means one core fully busy.
    public var cpuFraction: Double { wallSeconds > 0 ? cpuSeconds / wallSeconds : 0 }

    enum CodingKeys: String, CodingKey {
        case samples
        case latenessMicroseconds = "lateness_us"
        case periodJitterMicroseconds = "period_jitter_us"
        case driftMicroseconds = "drift_us"
        case driftTrendMicroseconds = "drift_trend_us"
        case lateSamples = "late_samples"
        case lateThresholdMicroseconds = "late_threshold_us"
        case processingNanoseconds = "processing_ns"
        case wallSeconds = "wall_s"
        case cpuSeconds = "cpu_s"
        case latenessHistogram = "lateness_histogram_us"
        case processingHistogram = "processing_histogram_ns"
    }
}

/// Accumulates delivery timing one sample at a time (no allocation when `expected` was given).
public struct TimingAccumulator: Sendable {
    private var lateness: ValueCollector
    private var cost: ValueCollector
    private var latenessBins = TimingHistogram()
    private var costBins = TimingHistogram()
    private var period = RunningDeviation()
    private var first: Int64?
    private var previous: Int64?
    private var lateCount = 0
    private var scheduled: Bool
    // Least-squares sums of lateness (µs) against schedule time (s since the first sample).
    private var firstScheduled: Int64?
    private var lastScheduled: Int64 = 0
    private var trend = (n: 0.0, x: 0.0, y: 0.0, xx: 0.0, xy: 0.0)
    /// Lateness above this counts as late, ns.
    public let lateThreshold: Int64

    /// - Parameters:
    ///   - lateThreshold: ns; a sample later than this is counted late (one sample period).
    ///   - scheduled: false for `--speed max` (no lateness, drift or jitter).
    ///   - expected: samples to reserve room for.
    public init(lateThreshold: Int64, scheduled: Bool = true, expected: Int = 0) {
        self.lateThreshold = lateThreshold
        self.scheduled = scheduled
        lateness = ValueCollector(expected: scheduled ? expected : 0)
        cost = ValueCollector(expected: expected)
    }

    /// Records one delivered sample: scheduled and actual delivery time and processing cost, ns.
    public mutating func record(scheduled s: Int64, delivered a: Int64, cost c: Int64) {
        cost.add(c)
        costBins.add(c)
        guard scheduled else { return }
        let e = a - s
        lateness.add(e)
        latenessBins.add(e)
        if e > lateThreshold { lateCount += 1 }
        if let previous { period.add(Double(e - previous)) }
        if first == nil { first = e }
        previous = e
        let origin = firstScheduled ?? s
        firstScheduled = origin
        lastScheduled = s
        let x = Double(s - origin) * 1e-9, y = Double(e) * 1e-3
        trend.n += 1; trend.x += x; trend.y += y; trend.xx += x * x; trend.xy += x * y
    }

    /// Slope of the least-squares line × scheduled span, µs (nil when undefined).
    private var trendDrift: Double? {
        guard scheduled, trend.n >= 2, let origin = firstScheduled else { return nil }
        let denominator = trend.n * trend.xx - trend.x * trend.x
        guard denominator > 0 else { return nil }
        let slope = (trend.n * trend.xy - trend.x * trend.y) / denominator  // µs per s
        return slope * Double(lastScheduled - origin) * 1e-9
    }

    /// The statistics so far. `wall` and `cpu` in ns.
    public func timing(wall: Int64, cpu: Int64) -> ReplayTiming {
        let samples = cost.count
        return ReplayTiming(
            samples: samples,
            latenessMicroseconds: lateness.summary(scale: 1e-3),
            periodJitterMicroseconds: scheduled && samples >= 2 ? period.standardDeviation * 1e-3 : nil,
            driftMicroseconds: scheduled ? first.flatMap { f in previous.map { Double($0 - f) * 1e-3 } } : nil,
            driftTrendMicroseconds: trendDrift,
            lateSamples: lateCount,
            lateThresholdMicroseconds: Double(lateThreshold) * 1e-3,
            processingNanoseconds: cost.summary(),
            wallSeconds: Double(wall) * 1e-9,
            cpuSeconds: Double(cpu) * 1e-9,
            latenessHistogram: scheduled && latenessBins.count > 0 ? latenessBins.bins(scale: 1e-3) : nil,
            processingHistogram: costBins.count > 0 ? costBins.bins() : nil)
    }
}
