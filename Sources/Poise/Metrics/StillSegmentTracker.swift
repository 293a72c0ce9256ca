/// A still segment found by `StillSegmentTracker`: sample indices (in the order the samples were
/// added, from 0) and the timestamps of its first and last sample, seconds.
public struct StillSegment: Sendable, Equatable, Codable {
    /// Indices of the segment's samples.
    public var indices: Range<Int>
    /// Time of the first sample, s.
    public var startTime: Double
    /// Time of the last sample, s.
    public var endTime: Double

    /// Creates a segment. Times in seconds.
    public init(indices: Range<Int>, startTime: Double, endTime: Double) {
        self.indices = indices
        self.startTime = startTime
        self.endTime = endTime
    }

    /// `endTime − startTime`, s.
    public var duration: Double { endTime - startTime }
}

/// `RestDetector` one sample at a time, in memory bounded by one accelerometer window.
///
/// Feed samples in time order with `add(time:acceleration:rotationRate:)`; each call returns the
/// still segments that the new sample completed (usually none), and `finish()` returns the last
/// one. The segments are exactly those of `RestDetector.stillSegments(in:)` (which is built on this
/// type). A sample's accelerometer verdict needs the samples up to half a window after it, so
/// segments are reported about `window / 2` late; the tracker holds only the samples of one window
/// (`window × rate`, e.g. 50 at 100 Hz — more only if many samples share a timestamp).
///
/// Units: time in seconds (non-decreasing), acceleration in g, rotation rate in rad/s.
public struct StillSegmentTracker: Sendable {
    /// The detector's settings.
    public let detector: RestDetector

    struct Entry {
        var time: Double
        var acceleration: SIMD3<Double>
        /// `|a − a_previous|²` against the sample added before it (0 for the first), g².
        var differenceSquare: Double
        var gyroscopeQuiet: Bool
    }

    // Samples [windowStart, count) of the stream, oldest first: `entries[head...]`.
    var entries: [Entry] = []
    var head = 0
    /// Stream index of `entries[head]`.
    var windowStart = 0
    /// Samples added so far.
    public private(set) var count = 0
    /// Next sample whose verdict is pending.
    var undecided = 0
    var sum = SIMD3<Double>.zero
    var sumSquares = 0.0
    /// Sum of the window's entries' `differenceSquare`.
    var sumDifferenceSquares = 0.0
    /// Acceleration of the last sample added (for the next one's difference).
    var lastAcceleration: SIMD3<Double>? = nil
    /// Smallest squared noise level of any window decided so far, g² (∞ before the first).
    public private(set) var noiseFloorSquare = Double.infinity
    // The quiet run being built: first index and times.
    var runStart: Int? = nil
    var runStartTime = 0.0
    var runEndTime = 0.0

    /// A tracker with `detector`'s thresholds and tests.
    public init(detector: RestDetector = RestDetector()) {
        self.detector = detector
    }

    /// Adds the next sample and returns the still segments it completed, in order.
    ///
    /// - Parameters: time in s (not earlier than the previous sample's), acceleration in g,
    ///   rotation rate in rad/s. Either vector is ignored when its test is switched off.
    public mutating func add(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>) -> [StillSegment] {
        var unused: [Bool] = []
        return add(time: time, acceleration: acceleration, rotationRate: rotationRate, verdicts: &unused, recording: false)
    }

    /// `add(time:acceleration:rotationRate:)` that also appends to `verdicts` whether each sample
    /// decided by this call is quiet (one entry per sample, in index order, starting at the
    /// `decided` count before the call). A quiet sample is still only if its run lasts long enough.
    public mutating func add(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                             verdicts: inout [Bool]) -> [StillSegment] {
        add(time: time, acceleration: acceleration, rotationRate: rotationRate, verdicts: &verdicts, recording: true)
    }

    mutating func add(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                      verdicts: inout [Bool], recording: Bool) -> [StillSegment] {
        var completed: [StillSegment] = []
        if detector.useAccelerometer {
            // Every pending sample whose window ends before this one can be decided now.
            let half = detector.window / 2
            while undecided < count, entry(undecided).time + half < time {
                let quiet = decide(into: &completed)
                if recording { verdicts.append(quiet) }
            }
        }
        let limit = detector.gyroscopeThreshold * detector.gyroscopeThreshold
        let gyroscopeQuiet = !detector.useGyroscope || (rotationRate * rotationRate).sum() < limit
        var differenceSquare = 0.0
        if let last = lastAcceleration {
            let d = acceleration - last
            differenceSquare = (d * d).sum()
        }
        lastAcceleration = acceleration
        entries.append(Entry(time: time, acceleration: acceleration, differenceSquare: differenceSquare, gyroscopeQuiet: gyroscopeQuiet))
        count += 1
        if detector.useAccelerometer {
            sum += acceleration
            sumSquares += (acceleration * acceleration).sum()
            sumDifferenceSquares += differenceSquare
        } else {
            let quiet = decide(into: &completed)
            if recording { verdicts.append(quiet) }
        }
        return completed
    }

    /// Adds a sample (its acceleration and rotation rate); see `add(time:acceleration:rotationRate:)`.
    public mutating func add(_ sample: MotionSample) -> [StillSegment] {
        add(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate)
    }

    /// Decides the remaining samples and returns the segments they complete (at most one).
    /// New samples may follow; they are judged without the earlier ones.
    public mutating func finish() -> [StillSegment] {
        var unused: [Bool] = []
        return finish(verdicts: &unused, recording: false)
    }

    /// `finish()` that appends the remaining samples' verdicts (see `add(…verdicts:)`).
    public mutating func finish(verdicts: inout [Bool]) -> [StillSegment] {
        finish(verdicts: &verdicts, recording: true)
    }

    mutating func finish(verdicts: inout [Bool], recording: Bool) -> [StillSegment] {
        var completed: [StillSegment] = []
        while undecided < count {
            let quiet = decide(into: &completed)
            if recording { verdicts.append(quiet) }
        }
        closeRun(into: &completed)
        while windowStart < count { drop() }
        sum = .zero
        sumSquares = 0
        sumDifferenceSquares = 0
        lastAcceleration = nil
        return completed
    }

    /// Samples decided so far (the verdict of sample `decided` is the next to come).
    public var decided: Int { undecided }

    /// Samples held for the accelerometer window: those within `window` of the undecided ones.
    public var bufferedCount: Int { count - windowStart }

    func entry(_ index: Int) -> Entry { entries[head + index - windowStart] }

    /// Decides sample `undecided`: its window is [time − w/2, time + w/2] and every later sample
    /// in the sums lies inside it.
    @discardableResult
    mutating func decide(into completed: inout [StillSegment]) -> Bool {
        let current = entry(undecided)
        var quiet = current.gyroscopeQuiet
        if detector.useAccelerometer {
            let lowest = current.time - detector.window / 2
            while windowStart < undecided, entries[head].time < lowest { drop() }
            let n = Double(count - windowStart)
            let mean = sum / n
            let variance = sumSquares / n - (mean * mean).sum()
            // The window's white-noise level from its n − 1 consecutive pairs (the first entry's
            // difference reaches outside the window).
            if n >= 2 {
                let noiseSquare = (sumDifferenceSquares - entries[head].differenceSquare) / (2 * (n - 1))
                if noiseSquare < noiseFloorSquare { noiseFloorSquare = noiseSquare }
            }
            let fixed = detector.accelerationThreshold * detector.accelerationThreshold
            let adaptive = noiseFloorSquare <= detector.maximumNoiseFloor * detector.maximumNoiseFloor
                ? detector.noiseFloorMultiple * detector.noiseFloorMultiple * noiseFloorSquare : 0
            if variance >= max(fixed, adaptive) { quiet = false }
        }
        // Nothing is known about the device in a gap longer than one window: it ends the run.
        if runStart != nil, current.time - runEndTime > detector.window { closeRun(into: &completed) }
        if quiet {
            if runStart == nil { runStart = undecided; runStartTime = current.time }
            runEndTime = current.time
        } else {
            closeRun(into: &completed)
        }
        undecided += 1
        if !detector.useAccelerometer { drop() }
        return quiet
    }

    /// Removes the oldest sample from the window (and its sums).
    mutating func drop() {
        let old = entries[head]
        if detector.useAccelerometer {
            sum -= old.acceleration
            sumSquares -= (old.acceleration * old.acceleration).sum()
            sumDifferenceSquares -= old.differenceSquare
        }
        head += 1
        windowStart += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && 2 * head >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    mutating func closeRun(into completed: inout [StillSegment]) {
        guard let start = runStart else { return }
        if runEndTime - runStartTime >= detector.minimumDuration {
            completed.append(StillSegment(indices: start..<undecided, startTime: runStartTime, endTime: runEndTime))
        }
        runStart = nil
    }
}
