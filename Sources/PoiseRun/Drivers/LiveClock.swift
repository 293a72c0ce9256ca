import Poise
import PoiseRecording

/// The clock of a live run: a sample is due when it arrived, and the run reads one sample at a
/// time so each is processed as soon as it is there (nothing is waited for but the source).
///
/// The arrival is the feed's stamp of the read that completed the sample's row
/// (`LiveFeed.arrivalTime(throughByte:)`), or now when the feed no longer knows it; each arrival
/// is told to the silence watch. The samples read before the run (the rate estimate) bring their
/// arrivals along (`early`).
struct LiveClock: RunClock {
    let feed: LiveFeed
    /// The reader of the feed's rows (`nil` for a source that is not a `RecordingReader`).
    let rows: RecordingReader?
    let watch: SilenceWatch
    /// Arrivals of the samples read before the run, ns.
    let early: [Int64]
    let timer = MonotonicClock()

    var readAhead: Int { 1 }
    var paces: Bool { true }

    /// The arrival of the sample just read, ns (`CLOCK_MONOTONIC`), told to the silence watch.
    static func arrival(feed: LiveFeed, rows: RecordingReader?, watch: SilenceWatch) -> Int64 {
        let arrival = rows.flatMap { feed.arrivalTime(throughByte: $0.bytesConsumed) } ?? MonotonicClock().now()
        watch.sampleArrived(at: arrival)
        return arrival
    }

    mutating func due(_ sample: MotionSample, index: Int) -> Int64 {
        index < early.count ? early[index] : Self.arrival(feed: feed, rows: rows, watch: watch)
    }

    func now() -> Int64 { timer.now() }
}

/// A live stream's reader as a run's source that ends instead of throwing: a read that fails
/// after the header ends the stream with `failure` set (a failure while a stop was requested,
/// a row cut short by Ctrl-C, is no failure), so the run still finishes its sinks and the output
/// holds every sample processed until then.
final class LiveSource: SampleSource {
    let reader: any SampleSource
    let stopRequested: () -> Bool
    /// What ended the stream besides its end: the source's error, or the output's (set by the
    /// status sink), with the end it gives the run.
    var failure: (end: LiveEnd, message: String)?

    init(_ reader: any SampleSource, stopRequested: @escaping () -> Bool) {
        self.reader = reader; self.stopRequested = stopRequested
    }

    var path: String { reader.path }
    var schema: RecordingSchema { reader.schema }
    var issues: [RecordingIssue] { reader.issues }
    var summary: ReadSummary { reader.summary }

    func next() throws -> MotionSample? {
        var one: [MotionSample] = []
        return try read(into: &one, maximumCount: 1) > 0 ? one[0] : nil
    }

    func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        guard failure == nil else { return 0 }
        do {
            return try reader.read(into: &samples, maximumCount: maximumCount)
        } catch where stopRequested() {
            return 0
        } catch {
            failure = (.failed, "\(error)")
            return 0
        }
    }
}
