import Poise

/// The replay's status-line sink: about every 0.25 s of wall time (on the run clock's time line)
/// calls `report` with a `ReplayProgress` snapshot.
public struct ReplayProgressSink: Sink {
    let total: Int
    let first: Double
    let duration: Double
    let paced: Bool
    let lateThreshold: Int64
    let report: (ReplayProgress) -> Void
    var lateCount = 0
    var lastReport: Int64?
    var reportedCount = 0

    /// - Parameters:
    ///   - total: samples the replay will deliver; `first`: the first sample's time, s;
    ///     `duration`: the replayed span, s.
    ///   - paced: lateness is reported (not at `--speed max`).
    ///   - lateThreshold: a sample later than this counts as late, ns.
    public init(total: Int, first: Double, duration: Double, paced: Bool, lateThreshold: Int64,
                report: @escaping (ReplayProgress) -> Void) {
        self.total = total; self.first = first; self.duration = duration; self.paced = paced
        self.lateThreshold = lateThreshold; self.report = report
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        if paced, delivery.lateness > lateThreshold { lateCount += 1 }
        let now = delivery.delivered + delivery.cost
        guard let last = lastReport else { lastReport = now; return }
        if now - last >= 250_000_000 {
            report(ReplayProgress(delivered: delivery.index + 1, total: total,
                                  recordingSeconds: record.time - first, durationSeconds: duration,
                                  rate: Double(delivery.index + 1 - reportedCount) / (Double(now - last) * 1e-9),
                                  latenessMicroseconds: paced ? Double(delivery.lateness) * 1e-3 : nil,
                                  lateSamples: lateCount))
            lastReport = now
            reportedCount = delivery.index + 1
        }
    }
}
