import Poise

/// How smooth and how quick the state a game loop sees is, for one way of smoothing.
public struct FrameSmoothingReport: Sendable, Codable, Equatable {
    /// Mean time from the tilt step to the first frame whose value reached 90 % of it, ms,
    /// averaged over the step's possible positions within a frame period; `nil` if never reached.
    public var latency90Milliseconds: Double?
    /// Jitter of the per-frame values on the recording's still segments (frames whose time lies
    /// in a still segment; the moving average spans 1 s of frames).
    public var jitter: JitterMeasurement?

    public init(latency90Milliseconds: Double?, jitter: JitterMeasurement?) {
        self.latency90Milliseconds = latency90Milliseconds; self.jitter = jitter
    }

    enum CodingKeys: String, CodingKey {
        case jitter
        case latency90Milliseconds = "latency90_ms"
    }
}

/// Compares smoothing in the sensor callback (the pipeline runs on every sample at the sample
/// rate; each frame reads its latest output) with smoothing at frame time (each frame runs the
/// pipeline, built for the frame rate, once on the latest raw sample). Both are simulated with the
/// replay engine itself at `--speed max`, so frames and stacking are exactly those of the replay.
public struct FrameComparison: Sendable, Codable, Equatable {
    /// Smoothing in the sensor callback.
    public var callback: FrameSmoothingReport
    /// Smoothing at frame time.
    public var frameTime: FrameSmoothingReport

    enum CodingKeys: String, CodingKey {
        case callback
        case frameTime = "frame_time"
    }

    /// Seconds of the settled input A before the step in the simulation.
    static let settleSeconds = 20.0
    /// Seconds after the step simulated.
    static let responseSeconds = 10.0
    /// Most step positions within a frame period that the latency is averaged over.
    static let maximumPhases = 64

    /// The comparison from the frame jitter measured while streaming (`StageMetricsAccumulator` fed
    /// with the frames of a `--speed max` replay of the delivered samples) and the latency
    /// simulated here.
    ///
    /// - Parameters:
    ///   - pipeline: built for `sampleRate` (Hz); `framePipeline`: the same spec built for
    ///     `frameRate` (Hz).
    ///   - signal: the signal compared (the pipeline's last measured one).
    ///   - callbackJitter, frameTimeJitter: the frames' jitter on the still segments (signal unit).
    public init(pipeline: Pipeline, framePipeline: Pipeline, signal: StageSignal, sampleRate: Double, frameRate: Double,
                callbackJitter: JitterResult, frameTimeJitter: JitterResult) {
        let latency = Self.latency(pipeline: pipeline, framePipeline: framePipeline, signal: signal,
                                   sampleRate: sampleRate, frameRate: frameRate)
        callback = FrameSmoothingReport(latency90Milliseconds: latency.callback,
                                        jitter: JitterMeasurement(measured: callbackJitter))
        frameTime = FrameSmoothingReport(latency90Milliseconds: latency.frameTime,
                                         jitter: JitterMeasurement(measured: frameTimeJitter))
    }

    /// Mean latency to 90 % of the tilt step (ms) seen by the frames, in the sensor callback and at
    /// frame time, over the step's positions within a frame period (simulated, independent of the
    /// recording).
    static func latency(pipeline: Pipeline, framePipeline: Pipeline, signal: StageSignal, sampleRate: Double,
                        frameRate: Double) -> (callback: Double?, frameTime: Double?) {
        // Latency: the tilt step at each position within one frame period.
        let settle = Int(saturating: Self.settleSeconds * sampleRate)
        let total = settle + Int(saturating: Self.responseSeconds * sampleRate)
        // Every sample position within one frame period, at most `maximumPhases` of them
        // (evenly spread when the period holds more samples).
        let perPeriod = max(1, Int(saturating: (sampleRate / frameRate).rounded(.up)))
        let phases = min(perPeriod, Self.maximumPhases)
        var callbackSum = 0.0, frameSum = 0.0
        var callbackReached = true, frameReached = true
        let step = StandardStep.tilt
        let difference = step.after - step.before
        func progress(_ value: SIMD3<Double>?) -> Double {
            guard let value else { return 0 }
            return ((value - step.before) * difference).sum() / (difference * difference).sum()
        }
        for phase in 0 ..< phases {
            let stepIndex = settle + phase * perPeriod / phases
            let stepTime = Double(stepIndex) / sampleRate
            let input = (0 ..< total).lazy.map { i in
                MotionSample(time: Double(i) / sampleRate, acceleration: i < stepIndex ? step.before : step.after)
            }
            // The first frames at or after the step that reach 90 %, found as the frames run
            // (nothing is kept per frame).
            var callbackHit: Double?, frameHit: Double?
            var run = Run(source: SequenceSource(input), pipeline: pipeline, framePipeline: framePipeline,
                          clock: PacedClock(timer: MonotonicClock(), options: ReplayOptions(speed: .maximum, frameRate: frameRate)))
            var frames = FrameCallbackSink { frame in
                guard frame.time >= stepTime else { return }
                if callbackHit == nil, progress(frame.latest.flatMap(signal.value)) >= 0.9 { callbackHit = frame.time }
                if frameHit == nil, progress(frame.frameSmoothed.flatMap(signal.value)) >= 0.9 { frameHit = frame.time }
            }
            // Nothing here can throw (samples made in memory, a sink that does not throw).
            _ = try? run.run(into: &frames, shouldStop: { callbackHit != nil && frameHit != nil })
            if let hit = callbackHit { callbackSum += (hit - stepTime) * 1000 } else { callbackReached = false }
            if let hit = frameHit { frameSum += (hit - stepTime) * 1000 } else { frameReached = false }
        }
        return (callbackReached ? callbackSum / Double(phases) : nil, frameReached ? frameSum / Double(phases) : nil)
    }
}

/// A sink that hands every frame to a closure and ignores the records.
struct FrameCallbackSink: Sink {
    let body: (FrameDelivery) -> Void
    init(_ body: @escaping (FrameDelivery) -> Void) { self.body = body }
    func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {}
    func consume(frame: FrameDelivery) { body(frame) }
}
