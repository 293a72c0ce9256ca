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
