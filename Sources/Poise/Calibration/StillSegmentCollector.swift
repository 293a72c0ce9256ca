/// The still segments of a stream of samples (`StillSegmentTracker`) with a value kept for every
/// sample of each segment: for fits that need a segment's samples after it is known to be one (its
/// mean first, then the spread about it).
///
/// Feed samples in time order with `add(_:_:)`; each call returns the segments it completed, whose
/// values `values(of:)` gives until the next call. Memory: the values of the samples that may still
/// belong to a segment (the current run of quiet samples and the undecided ones, about half a
/// detector window), so it grows with the longest still segment, not with the stream.
///
/// Units: as `StillSegmentTracker` (time s, acceleration g, rotation rate rad/s).
public struct StillSegmentCollector<Value> {
    var tracker: StillSegmentTracker
    /// Values of the samples [start, tracker.count), oldest first: `values[head...]`.
    var values: [Value] = []
    var head = 0
    var start = 0
    /// First sample of the current run of quiet verdicts (`nil` after a sample that is not quiet);
    /// every segment still to come starts at or after it.
    var quietStart: Int?
    /// End of the last segment completed: no later segment starts before it.
    var completedEnd = 0
    var verdicts: [Bool] = []

    /// A collector with `detector`'s thresholds and tests.
    public init(detector: RestDetector) {
        tracker = StillSegmentTracker(detector: detector)
    }

    /// The detector's settings.
    public var detector: RestDetector { tracker.detector }

    /// Adds the next sample with its value; returns the still segments it completed, in order.
    public mutating func add(_ sample: MotionSample, _ value: Value) -> [StillSegment] {
        release()
        values.append(value)
        let decided = tracker.decided
        verdicts.removeAll(keepingCapacity: true)
        let completed = tracker.add(time: sample.time, acceleration: sample.acceleration,
                                    rotationRate: sample.rotationRate, verdicts: &verdicts)
        note(completed, decidedFrom: decided)
        return completed
    }

    /// Decides the remaining samples; returns the segments they complete (at most one).
    public mutating func finish() -> [StillSegment] {
        release()
        let decided = tracker.decided
        verdicts.removeAll(keepingCapacity: true)
        let completed = tracker.finish(verdicts: &verdicts)
        note(completed, decidedFrom: decided)
        return completed
    }

    /// The values of `segment`'s samples (a segment the last `add` or `finish` returned).
    public func values(of segment: StillSegment) -> ArraySlice<Value> {
        values[(head + segment.indices.lowerBound - start)..<(head + segment.indices.upperBound - start)]
    }

    mutating func note(_ completed: [StillSegment], decidedFrom decided: Int) {
        for (k, quiet) in verdicts.enumerated() {
            if !quiet { quietStart = nil } else if quietStart == nil { quietStart = decided + k }
        }
        if let last = completed.last { completedEnd = last.indices.upperBound }
    }

    /// Drops the values no segment to come can hold.
    mutating func release() {
        let keep = Swift.max(completedEnd, quietStart ?? tracker.decided)
        guard keep > start else { return }
        head += keep - start
        start = keep
        if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && 2 * head >= values.count {
            values.removeFirst(head)
            head = 0
        }
    }
}
