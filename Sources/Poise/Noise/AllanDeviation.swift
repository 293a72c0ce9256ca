/// Overlapping Allan deviations of one or more channels at a set of cluster times (the result
/// of `AllanDeviationAccumulator`). Deviations are in the unit of the samples (rad/s for a
/// gyroscope, g or m/s² for an accelerometer); cluster times in seconds.
public struct AllanDeviation: Sendable, Equatable, Codable {
    /// τ0: the interval between samples, seconds.
    public var sampleInterval: Double
    /// N: samples per channel.
    public var sampleCount: Int
    /// m per point (τ = m·τ0), ascending.
    public var clusterSizes: [Int]
    /// Terms averaged per point: N + 1 − 2m (overlapping clusters).
    public var termCounts: [Int]
    /// `deviations[c][i]`: σ(τᵢ) of channel c.
    public var deviations: [[Double]]
    /// Sizes of the chosen set that the recording was long enough for but were not computed
    /// (above the accumulator's `maximumClusterSize`).
    public var omittedClusterSizes: [Int]

    public init(sampleInterval: Double, sampleCount: Int, clusterSizes: [Int], termCounts: [Int],
                deviations: [[Double]], omittedClusterSizes: [Int] = []) {
        self.sampleInterval = sampleInterval
        self.sampleCount = sampleCount
        self.clusterSizes = clusterSizes
        self.termCounts = termCounts
        self.deviations = deviations
        self.omittedClusterSizes = omittedClusterSizes
    }

    /// τ per point, seconds.
    public var clusterTimes: [Double] { clusterSizes.map { Double($0) * sampleInterval } }

    /// The overlapping Allan deviation of whole channels in memory (`channels[c]` = channel c's
    /// evenly spaced samples at `sampleRate` Hz), at every size of `sizes` with at least two
    /// terms: the same as `allantools.oadev(y, rate, data_type="freq", taus=sizes.rawValue)`.
    public static func overlapping(_ channels: [[Double]], sampleRate: Double, sizes: AllanClusterSizes = .octave) -> AllanDeviation {
        let count = channels.first?.count ?? 0
        var accumulator = AllanDeviationAccumulator(channelCount: Swift.max(1, channels.count), sizes: sizes,
                                                    maximumClusterSize: AllanClusterSizes.largestSize(sampleCount: count),
                                                    expectedCount: count)
        accumulator.add(channels: channels)
        return accumulator.result(sampleInterval: 1 / sampleRate)
    }
}
