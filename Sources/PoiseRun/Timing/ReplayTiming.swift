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
