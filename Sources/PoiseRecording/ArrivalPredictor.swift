/// When the next datagram of a steady stream should arrive, from the receive times of the last
/// ones, and how to wait for it: asleep until shortly before, then polling without sleeping
/// (spinning) through a bounded window around the predicted time.
///
/// A thread that sleeps in `poll` until a datagram wakes it pays the scheduler's wake-up (on a
/// virtual machine, tens of microseconds of an idle vCPU's wake-up) in every sample's latency.
/// Woken shortly before the datagram instead, it is running when the datagram comes.
///
/// The period is the median of the last `history` intervals between arrivals (ns,
/// `CLOCK_MONOTONIC`); the window is the predicted arrival ± `lead`, where `lead` is
/// `maximumLead` but at most `maximumShare` of the period, so spinning costs at most twice that
/// share of a core (and typically about one share: the wait ends when the datagram comes).
/// Streams faster than `minimumPeriod` are not spun for: a reader that sleeps less than 2 ms
/// between datagrams is woken quickly anyway (measured on loopback at 1 kHz: the same median
/// latency either way, for three times the CPU).
/// Without `minimumIntervals` intervals seen there is no prediction, and once the window has
/// passed without a datagram the wait is an ordinary sleep until one comes (a sender that slowed
/// down or stopped costs no spinning).
public struct ArrivalPredictor: Sendable, Equatable {
    /// How to wait for the next datagram.
    public enum Wait: Sendable, Equatable {
        /// Sleep until data comes, or until the given time (ns) at the latest; nil: no limit.
        case sleep(until: Int64?)
        /// Poll without sleeping until the given time (ns).
        case spin(until: Int64)
    }

    /// Intervals the median is taken over, and how many are needed for a prediction.
    public static let history = 15
    public static let minimumIntervals = 8
    /// Half the spin window at most, ns, and at most this share of the period.
    public let maximumLead: Int64
    public let maximumShare: Double
    /// The shortest period spun for, ns.
    public let minimumPeriod: Int64

    private var intervals: [Int64] = []
    private var oldest = 0
    private var last: Int64?

    /// - Parameters:
    ///   - maximumLead: the most the window extends either side of the predicted arrival, ns
    ///     (default 500 µs: a sleeping thread wakes up to a few hundred µs late on a busy VM).
    ///   - maximumShare: the most of a period the lead may take (default 0.1: at 250 Hz the
    ///     lead is 400 µs).
    ///   - minimumPeriod: no spinning for shorter periods, ns (default 2 ms: up to 500 Hz).
    public init(maximumLead: Int64 = 500_000, maximumShare: Double = 0.1, minimumPeriod: Int64 = 2_000_000) {
        self.maximumLead = maximumLead
        self.maximumShare = maximumShare
        self.minimumPeriod = minimumPeriod
    }

    /// Notes a datagram that arrived at `time` (ns).
    public mutating func noteArrival(_ time: Int64) {
        if let last {
            let interval = Swift.max(0, time - last)
            if intervals.count < Self.history {
                intervals.append(interval)
            } else {
                intervals[oldest] = interval
                oldest = (oldest + 1) % Self.history
            }
        }
        last = time
    }

    /// The median of the recent intervals, ns; nil before `minimumIntervals`.
    public var period: Int64? {
        guard intervals.count >= Self.minimumIntervals else { return nil }
        return intervals.sorted()[intervals.count / 2]
    }

    /// When the next datagram is expected, ns; nil without a prediction.
    public var predictedArrival: Int64? {
        guard let last, let period, period > 0 else { return nil }
        return last + period
    }

    /// How far either side of the predicted arrival to spin, ns.
    public var lead: Int64 {
        guard let period, period >= minimumPeriod else { return 0 }
        return Swift.min(maximumLead, Int64(Double(period) * maximumShare))
    }

    /// How to wait at `now` (ns) for the next datagram.
    public func wait(at now: Int64) -> Wait {
        guard let predicted = predictedArrival, lead > 0 else { return .sleep(until: nil) }
        let start = predicted - lead, end = predicted + lead
        if now < start { return .sleep(until: start) }
        if now < end { return .spin(until: end) }
        return .sleep(until: nil)
    }
}
