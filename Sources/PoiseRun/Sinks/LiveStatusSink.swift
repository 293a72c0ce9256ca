import Poise
import PoiseRecording

/// The live run's bookkeeping sink, after the outputs: per sample the time from its arrival to
/// the end of its sinks (latency), the stream's span, pauses between arrivals (silences), and
/// about every 0.25 s a `LiveProgress` snapshot, a flush of the output file and a check for its
/// write error (which ends the run through `source.failure`).
struct LiveStatusSink: Sink {
    struct Summary {
        var count = 0
        var firstTime: Double?
        var lastTime = 0.0
        var firstWall: Int64?
        var lastWall: Int64 = 0
        var silences = 0
        var longestSilence: Int64 = 0
        var latency = ValueCollector()
    }

    let outputs: RecordOutputs
    let source: LiveSource
    let feed: LiveFeed
    /// Samples read before the run (their latency is not counted: they waited for the rate).
    let early: Int
    /// The output is flushed after every record already (no flush with the snapshots).
    let flushedEachRecord: Bool
    let progress: (LiveProgress) -> Void
    let timer = MonotonicClock()
    var state = Summary()
    var lastArrival: Int64 = 0
    var lastProgress: Int64 = 0
    var progressCount = 0

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        let arrival = delivery.scheduled
        let end = timer.now()
        if state.firstWall != nil {
            let pause = arrival - lastArrival
            if Double(pause) * 1e-9 > LiveSession.silence { state.silences += 1 }
            state.longestSilence = Swift.max(state.longestSilence, pause)
        }
        if delivery.index >= early { state.latency.add(end - arrival) }
        state.count += 1
        state.firstTime = state.firstTime ?? record.time
        state.lastTime = record.time
        state.firstWall = state.firstWall ?? arrival
        state.lastWall = end
        lastArrival = arrival
        if end - lastProgress >= 250_000_000 {
            if !flushedEachRecord { outputs.flush() }
            if let problem = outputs.failure { source.failure = (.outputFailed, problem) }
            let seconds = Double(end - lastProgress) * 1e-9
            progress(LiveProgress(samples: state.count, rate: lastProgress == 0 ? 0 : Double(state.count - progressCount) / seconds,
                                  latencyMicroseconds: Double(end - arrival) * 1e-3,
                                  badInputs: feed.badInput.total + source.summary.rowsDropped))
            lastProgress = end
            progressCount = state.count
        }
    }

    func finish(_ end: RunEnd) -> Summary { state }
}
