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
