/// Long gaps in a recording's timestamps (a logger paused, a device slept) and how a replay
/// shortens them: an interval longer than `limit` is replayed as `replacement` (one nominal
/// period), so a real-time replay does not sleep through it and a frame clock does not emit frames
/// for it. Every skipped gap is reported (`ReplayResult.gaps`, the report's `gaps`).
public struct GapPolicy: Sendable, Equatable {
    /// Intervals longer than this, seconds of recording time, are gaps (> 0).
    public var limit: Double
    /// The interval a gap is replayed as, seconds (≥ 0; one period of the delivery rate).
    public var replacement: Double

    public init(limit: Double, replacement: Double) {
        self.limit = limit; self.replacement = replacement
    }

    /// The default limit for a recording delivered at `rate` Hz: the longer of 1 s and 100
    /// periods (1 s at 100 Hz, 10 s at 10 Hz), far beyond the dropped samples and scheduling
    /// hiccups of a working sensor.
    public static func defaultLimit(rate: Double) -> Double {
        rate > 0 && rate.isFinite ? max(1, 100 / rate) : 1
    }

    /// A gap that was skipped: the recording times of the samples on either side, seconds.
    public struct Gap: Sendable, Codable, Equatable {
        /// Time of the last sample before the gap, s (recording clock).
        public var start: Double
        /// Time of the first sample after the gap, s.
        public var end: Double
        /// Length of the gap, s.
        public var duration: Double { end - start }

        public init(start: Double, end: Double) { self.start = start; self.end = end }

        enum CodingKeys: String, CodingKey {
            case start = "start_s"
            case end = "end_s"
        }
    }

    /// Gaps kept in a result or report (all are counted).
    public static let keptGaps = 100
}
