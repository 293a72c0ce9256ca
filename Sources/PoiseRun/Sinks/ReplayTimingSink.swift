import Poise

/// What a replay produced besides the per-sample callbacks.
public struct ReplayResult: Sendable, Equatable {
    /// Delivery timing statistics.
    public var timing: ReplayTiming
    /// Frames run (0 without `frameRate`).
    public var frames: Int
    /// Mean and largest number of samples stacked up between frames.
    public var meanStackedSamples: Double
    public var maximumStackedSamples: Int
    /// Frame lateness in µs (`nil` without frames or for `--speed max`).
    public var frameLatenessMicroseconds: DistributionSummary?
    /// True when `shouldStop` ended the replay early.
    public var stopped: Bool
    /// Gaps shortened by `ReplayOptions.gapPolicy` (the first `GapPolicy.keptGaps`), how many
    /// there were, and the recording time they spanned in all, s.
    public var gaps: [GapPolicy.Gap] = []
    public var gapCount = 0
    public var skippedSeconds = 0.0
}

/// The delivery-timing sink of a paced or frame run: lateness, jitter, drift and processing cost
/// per sample (`TimingAccumulator`), frame lateness and samples stacked up between frames, wall
/// and CPU time. Its summary is a `ReplayResult` without the gaps, which are the clock's
/// (`PacedClock.gaps`).
public struct ReplayTimingSink: Sink {
    var timing: TimingAccumulator
    var frameLateness = ValueCollector(expected: 0)
    let paced: Bool
    var frames = 0
    var stackedTotal = 0
    var stackedMaximum = 0
    var cpuStart: Int64 = 0

    /// - Parameters:
    ///   - options: the clock's options (`speed` decides whether lateness is measured;
    ///     `lateThreshold` in s).
    ///   - expectedCount: samples to reserve statistics room for (0 if unknown).
    public init(options: ReplayOptions, expectedCount: Int = 0) {
        paced = options.speed != .maximum
        timing = TimingAccumulator(lateThreshold: Int64(saturating: (options.lateThreshold * 1e9).rounded()),
                                   scheduled: paced, expected: expectedCount)
    }

    public mutating func begin(_ schema: RunSchema) throws { cpuStart = processCPUTime() }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        timing.record(scheduled: delivery.scheduled, delivered: delivery.delivered, cost: delivery.cost)
    }

    public mutating func consume(frame: FrameDelivery) throws {
        frames += 1
        if paced { frameLateness.add(frame.delivered - frame.scheduled) }
        stackedTotal += frame.stackedSamples
        stackedMaximum = Swift.max(stackedMaximum, frame.stackedSamples)
    }

    public mutating func finish(_ end: RunEnd) throws -> ReplayResult {
        ReplayResult(timing: timing.timing(wall: end.elapsed, cpu: processCPUTime() - cpuStart),
                     frames: frames,
                     meanStackedSamples: frames > 0 ? Double(stackedTotal) / Double(frames) : 0,
                     maximumStackedSamples: stackedMaximum,
                     frameLatenessMicroseconds: frameLateness.summary(scale: 1e-3),
                     stopped: end.stopped)
    }
}

extension ReplayResult {
    /// The result with the gaps `clock` shortened.
    public func withGaps<Timer>(of clock: PacedClock<Timer>) -> ReplayResult {
        var result = self
        result.gaps = clock.gaps
        result.gapCount = clock.gapCount
        result.skippedSeconds = clock.gapSeconds
        return result
    }
}
