import Foundation
import Poise

/// A recording prepared for sweeping: its samples, nominal rate, still segments (for jitter)
/// and moving segments (for lag), computed once and shared by every grid point.
public struct SweepRecording: Sendable {
    /// A name for reports (usually the file path).
    public var name: String
    /// The samples (acceleration in g, specific force, device frame).
    public var samples: [MotionSample]
    /// Nominal sample rate, Hz: the step latencies are measured at this rate.
    public var sampleRate: Double
    /// Still segments (index ranges) where jitter is measured.
    public var stillSegments: [Range<Int>]
    /// Moving segments (the rest, in runs longer than the lag window) where lag is measured.
    public var movingSegments: [Range<Int>]
    /// Largest shift tried by the lag search, samples (1 s at the nominal rate, at most 300).
    public var maximumLagShift: Int
    let acceleration: [SIMD3<Double>]
    let times: [Double]

    /// Prepares `samples`.
    ///
    /// - Parameters:
    ///   - sampleRate: nominal rate in Hz; default 1 / median timestamp step.
    ///   - detector: finds the still segments; its gyroscope test should be off when the
    ///     recording has no gyroscope.
    /// - Throws: ``SweepError/recording(_:)`` naming the recording when it has fewer than two
    ///   distinct timestamps or no still segment long enough to measure jitter.
    public init(name: String, samples: [MotionSample], sampleRate: Double? = nil,
                detector: RestDetector = RestDetector()) throws(SweepError) {
        guard let rate = sampleRate ?? nominalSampleRate(of: samples), rate > 0, rate.isFinite else {
            throw .recording("\(name): fewer than two distinct timestamps; cannot tell the sample rate")
        }
        self.name = name
        self.samples = samples
        self.sampleRate = rate
        acceleration = samples.map(\.acceleration)
        times = samples.map(\.time)
        stillSegments = detector.stillSegments(in: samples)
        let still = jitter(output: acceleration, input: acceleration, times: times, segments: stillSegments)
        guard still.evaluatedSamples > 0 else { throw StreamingSweep.noStillSegment(name: name, detector: detector) }
        maximumLagShift = max(1, min(300, Int(saturating: rate.rounded())))
        movingSegments = Poise.movingSegments(complementing: stillSegments, count: samples.count,
                                              minimumLength: 2 * maximumLagShift)
    }
}

/// Latency to 90 % in samples and milliseconds (`nil` when 90 % was never reached).
public struct LatencyValue: Sendable, Equatable, Codable {
    public var samples: Int?
    public var milliseconds: Double?

    public init(samples: Int?, milliseconds: Double?) {
        self.samples = samples; self.milliseconds = milliseconds
    }

    /// The worse (larger) of two latencies; unreached beats everything.
    func worse(_ other: LatencyValue) -> LatencyValue {
        guard let a = samples, let b = other.samples, let x = milliseconds, let y = other.milliseconds else {
            return LatencyValue(samples: nil, milliseconds: nil)
        }
        return LatencyValue(samples: max(a, b), milliseconds: max(x, y))
    }
}

/// One grid point measured on one recording.
public struct RecordingMeasurement: Sendable, Equatable {
    /// The recording's name.
    public var recording: String
    /// Nominal rate the steps were run at, Hz.
    public var sampleRate: Double
    /// Tilt-step latency at that rate.
    public var tilt: LatencyValue
    /// Shake-step latency at that rate.
    public var shake: LatencyValue
    /// Jitter on the still segments (g).
    public var jitter: JitterResult
    /// Lag on the moving segments; `nil` when there is no moving segment long enough.
    public var lag: LagResult?
}

/// One grid point measured on all recordings.
///
/// Across recordings: latencies are the worst (largest) over the recordings' rates; jitter is
/// pooled (the RMS over all evaluated still samples of all recordings); attenuation is pooled
/// raw jitter over pooled jitter; lag is the mean over recordings weighted by moving samples.
public struct SweepPoint: Sendable, Equatable {
    /// The setting measured.
    public var setting: SweepSetting
    /// Tilt step (0,0,1 g → 0,1 g,0) latency to 90 %.
    public var tilt: LatencyValue
    /// Shake step (0,0,1 g → 0,0,1.5 g) latency to 90 %.
    public var shake: LatencyValue
    /// The worse of tilt and shake: the latency used for the Pareto front and the targets.
    public var latency: LatencyValue
    /// Pooled jitter on still segments, g.
    public var jitter: Double
    /// Pooled raw-input jitter on the same samples, g.
    public var rawJitter: Double
    /// `rawJitter / jitter` (> 1 is smoother); `nil` when the output is constant.
    public var attenuation: Double?
    /// Lag on moving segments, milliseconds; `nil` when no recording has a long enough moving segment.
    public var lagMilliseconds: Double?
    /// The measurements per recording, in the order the recordings were given.
    public var recordings: [RecordingMeasurement]

    /// The point's place in the trade-off with latency in milliseconds.
    public var tradeoffMilliseconds: Tradeoff { Tradeoff(latency: latency.milliseconds, jitter: jitter) }
    /// The point's place in the trade-off with latency in samples.
    public var tradeoffSamples: Tradeoff { Tradeoff(latency: latency.samples.map(Double.init), jitter: jitter) }
}

/// What a recommendation aims at.
public enum SweepTarget: Sendable, Equatable, CustomStringConvertible {
    /// Lowest jitter with latency (worse of tilt and shake) ≤ this many samples.
    case latencySamples(Int)
    /// Lowest jitter with latency ≤ this many milliseconds.
    case latencyMilliseconds(Double)
    /// Lowest latency with jitter ≤ this many g.
    case jitter(Double)

    /// Used when the user sets no target: a tenth of a second of delay.
    public static let `default` = SweepTarget.latencyMilliseconds(100)

    public var description: String {
        switch self {
        case .latencySamples(let n): "latency ≤ \(n) samples"
        case .latencyMilliseconds(let ms): "latency ≤ \(FilterSweep.format(ms)) ms"
        case .jitter(let g): "jitter ≤ \(g) g"
        }
    }
}

/// The result of a sweep: every point, the Pareto front and a recommendation.
public struct SweepResult: Sendable, Equatable {
    /// Points in the order of the settings given.
    public var points: [SweepPoint]
    /// Indices of the Pareto-front points (latency in milliseconds vs jitter), by increasing latency.
    public var front: [Int]
    /// The target the recommendation aims at.
    public var target: SweepTarget
    /// Index of the recommended point; `nil` when no point meets the target.
    public var recommendation: Int?

    /// Builds the front and the recommendation for `points`.
    public init(points: [SweepPoint], target: SweepTarget) {
        self.points = points
        self.target = target
        front = paretoFront(points.map(\.tradeoffMilliseconds))
        switch target {
        case .latencySamples(let n): recommendation = recommend(points.map(\.tradeoffSamples), latencyAtMost: Double(n))
        case .latencyMilliseconds(let ms): recommendation = recommend(points.map(\.tradeoffMilliseconds), latencyAtMost: ms)
        case .jitter(let g): recommendation = recommend(points.map(\.tradeoffMilliseconds), jitterAtMost: g)
        }
    }
}

/// Runs filter-parameter sweeps.
public enum Sweeper {
    /// Measures every setting on every recording, in parallel over `threads` threads.
    ///
    /// Each point is measured independently (fresh filters), so the result is identical for any
    /// thread count.
    ///
    /// - Parameters:
    ///   - settings: the points (for example ``FilterSweep/settings``).
    ///   - recordings: at least one prepared recording.
    ///   - target: what the recommendation aims at.
    ///   - threads: worker threads (≥ 1); default: the active processor count.
    ///   - progress: called with (points done, points total) after each point, from worker
    ///     threads, in increasing order of "done".
    /// - Throws: ``SweepError/grid(_:)``-free ``SweepError/recording(_:)`` when a setting does not
    ///   suit a recording's rate (for example a Butterworth cutoff above its Nyquist frequency),
    ///   naming the setting and the recording; the first such error in setting order.
    public static func run(_ settings: [SweepSetting], on recordings: [SweepRecording], target: SweepTarget = .default,
                           threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SweepError) -> SweepResult {
        guard !recordings.isEmpty else { throw .recording("no recording to sweep") }
        for setting in settings {
            for recording in recordings {
                do {
                    let _: AnyFilter<SIMD3<Double>> = try setting.spec.makeFilter(sampleRate: recording.sampleRate)
                } catch {
                    throw .recording("\(recording.name): \(error.description)")
                }
            }
        }
        let points = parallelMap(count: settings.count, threads: threads, progress: progress) { index in
            measure(settings[index], on: recordings)
        }
        return SweepResult(points: points, target: target)
    }

    /// Measures one setting on all recordings (the filters were validated by the caller).
    static func measure(_ setting: SweepSetting, on recordings: [SweepRecording]) -> SweepPoint {
        var steps: [Double: (tilt: LatencyValue, shake: LatencyValue)] = [:]
        var measurements: [RecordingMeasurement] = []
        for recording in recordings {
            let rate = recording.sampleRate
            guard var filter: AnyFilter<SIMD3<Double>> = try? setting.spec.makeFilter(sampleRate: rate) else { continue }
            if steps[rate] == nil { steps[rate] = stepLatencies(of: filter, sampleRate: rate) }
            let output = filterAcceleration(&filter, samples: recording.samples)
            let still = jitter(output: output, input: recording.acceleration, times: recording.times,
                               segments: recording.stillSegments)
            let moving = lag(output: output, input: recording.acceleration, segments: recording.movingSegments,
                             sampleRate: rate, maximumShift: recording.maximumLagShift)
            measurements.append(RecordingMeasurement(recording: recording.name, sampleRate: rate,
                                                     tilt: steps[rate]!.tilt, shake: steps[rate]!.shake,
                                                     jitter: still, lag: moving))
        }
        return point(setting, pooling: measurements)
    }

    /// Tilt and shake latency to 90 % of a fresh copy of `filter` at `sampleRate` Hz.
    static func stepLatencies(of filter: AnyFilter<SIMD3<Double>>, sampleRate: Double) -> (tilt: LatencyValue, shake: LatencyValue) {
        var tiltFilter = filter, shakeFilter = filter
        let tilt = latency90(&tiltFilter, step: .tilt, sampleRate: sampleRate)
        let shake = latency90(&shakeFilter, step: .shake, sampleRate: sampleRate)
        return (LatencyValue(samples: tilt.samples, milliseconds: tilt.milliseconds),
                LatencyValue(samples: shake.samples, milliseconds: shake.milliseconds))
    }

    /// The point of `setting` pooled over its per-recording measurements (see ``SweepPoint``).
    static func point(_ setting: SweepSetting, pooling measurements: [RecordingMeasurement]) -> SweepPoint {
        var sumSquares = 0.0, rawSumSquares = 0.0, evaluated = 0
        var lagSum = 0.0, lagWeight = 0
        for measurement in measurements {
            let still = measurement.jitter
            sumSquares += still.jitter * still.jitter * Double(still.evaluatedSamples)
            rawSumSquares += still.rawJitter * still.rawJitter * Double(still.evaluatedSamples)
            evaluated += still.evaluatedSamples
            if let moving = measurement.lag {
                lagSum += moving.milliseconds * Double(moving.evaluatedSamples)
                lagWeight += moving.evaluatedSamples
            }
        }
        let tilt = measurements.dropFirst().reduce(measurements.first?.tilt ?? LatencyValue(samples: nil, milliseconds: nil)) { $0.worse($1.tilt) }
        let shake = measurements.dropFirst().reduce(measurements.first?.shake ?? LatencyValue(samples: nil, milliseconds: nil)) { $0.worse($1.shake) }
        let pooled = evaluated > 0 ? (sumSquares / Double(evaluated)).squareRoot() : .nan
        let pooledRaw = evaluated > 0 ? (rawSumSquares / Double(evaluated)).squareRoot() : .nan
        return SweepPoint(setting: setting, tilt: tilt, shake: shake, latency: tilt.worse(shake),
                          jitter: pooled, rawJitter: pooledRaw, attenuation: pooled > 0 ? pooledRaw / pooled : nil,
                          lagMilliseconds: lagWeight > 0 ? lagSum / Double(lagWeight) : nil,
                          recordings: measurements)
    }
}

/// `body(0) … body(count − 1)` computed on `threads` worker threads; results in index order.
/// `progress` is called with (done, count) after each index, under a lock.
public func parallelMap<T: Sendable>(count: Int, threads: Int, progress: (@Sendable (Int, Int) -> Void)? = nil,
                              _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let shared = ParallelMapState<T>(count: count)
    let workers = max(1, min(threads, count))
    let work: @Sendable (Int) -> Void = { _ in
        while true {
            shared.lock.lock()
            let index = shared.next
            shared.next += 1
            shared.lock.unlock()
            guard index < count else { return }
            let value = body(index)
            shared.lock.lock()
            shared.results[index] = value
            shared.done += 1
            progress?(shared.done, count)
            shared.lock.unlock()
        }
    }
    if workers == 1 {
        work(0)
    } else {
        DispatchQueue.concurrentPerform(iterations: workers, execute: work)
    }
    return shared.results.map { $0! }
}

/// Work counter and result slots of ``parallelMap(count:threads:progress:_:)``, guarded by `lock`.
private final class ParallelMapState<T>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var done = 0
    var results: [T?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
}
