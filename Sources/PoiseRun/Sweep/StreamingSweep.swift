import Foundation
import Poise

/// A sweep of one recording measured while the recording streams past, chunk by chunk, in
/// memory that does not grow with the recording: each setting keeps its filter, a
/// `JitterAccumulator` fed on the still segments and a `LagAccumulator` fed on the moving ones,
/// exactly as ``Sweeper/run(_:on:target:threads:progress:)`` measures a ``SweepRecording``
/// held in memory (the same points, bit for bit).
///
/// The still segments must be known before the samples arrive (the report finds them in an
/// earlier pass); the moving segments are their complement, as in ``SweepRecording``.
public struct StreamingSweep {
    /// The settings measured, in the order given.
    public let settings: [SweepSetting]
    /// Nominal rate of the recording, Hz.
    public let sampleRate: Double
    let name: String
    let threads: Int
    /// Per sample of the current chunk: in a still segment (1), its last sample (2), in a moving
    /// segment measured for lag (4), its last sample (8).
    var flags: [UInt8] = []
    /// The current chunk's accelerations and the period before each (the first sample of the
    /// recording: unused, it is filtered with the nominal period).
    var inputs: [SIMD3<Double>] = []
    var times: [Double] = []
    var periods: [Double] = []
    var previousTime = 0.0
    var still: [Range<Int>]
    var moving: [Range<Int>]
    var stillCursor = 0
    var movingCursor = 0
    var index = 0
    let runs: [SettingRun]
    var raw = JitterAccumulator<SIMD3<Double>>()
    let detector: RestDetector
    /// Whether lag is measured (the costliest metric: a cross-correlation over up to a second of
    /// shifts per sample); without it the points have no lag.
    public let measuresLag: Bool

    /// Prepares every setting for a recording of `count` samples at `sampleRate` Hz whose still
    /// segments are `stillSegments` (sorted, not overlapping, as from `StillSegmentTracker`).
    ///
    /// - Parameters:
    ///   - name: the recording's name, for errors and the per-recording measurements.
    ///   - detector: the detector that found the segments (named in the error when there is none).
    ///   - threads: worker threads per chunk (≥ 1).
    ///   - measuresLag: measure lag on the moving segments (default); without it the points'
    ///     `lagMilliseconds` and their measurements' `lag` are `nil`.
    /// - Throws: ``SweepError/recording(_:)`` when a setting does not suit the rate, as
    ///   ``Sweeper/run(_:on:target:threads:progress:)``.
    public init(settings: [SweepSetting], name: String, sampleRate: Double, count: Int, stillSegments: [Range<Int>],
                detector: RestDetector, threads: Int, measuresLag: Bool = true) throws(SweepError) {
        self.settings = settings
        self.measuresLag = measuresLag
        self.name = name
        self.sampleRate = sampleRate
        self.threads = max(1, threads)
        self.detector = detector
        let maximumShift = max(1, min(300, Int(saturating: sampleRate.rounded())))
        var runs: [SettingRun] = []
        for setting in settings {
            do {
                let filter: AnyFilter<SIMD3<Double>> = try setting.spec.makeFilter(sampleRate: sampleRate)
                runs.append(SettingRun(filter: filter, maximumShift: maximumShift))
            } catch {
                throw .recording("\(name): \(error.description)")
            }
        }
        self.runs = runs
        still = stillSegments.filter { !$0.isEmpty }
        // Lag uses the moving segments longer than the largest shift (as `lag(output:input:…)`).
        let shift = runs.first?.lag.maximumShift ?? maximumShift
        moving = measuresLag ? movingSegments(complementing: stillSegments, count: count, minimumLength: 2 * maximumShift)
            .filter { $0.count > shift } : []
    }

    /// Measures the next samples of the recording (in order) for every setting, in parallel.
    public mutating func add(_ chunk: [MotionSample]) {
        flags.removeAll(keepingCapacity: true)
        inputs.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        periods.removeAll(keepingCapacity: true)
        for offset in chunk.indices {
            let i = index + offset
            inputs.append(chunk[offset].acceleration)
            times.append(chunk[offset].time)
            periods.append(chunk[offset].time - previousTime)
            previousTime = chunk[offset].time
            var flag: UInt8 = 0
            while stillCursor < still.count, still[stillCursor].upperBound <= i { stillCursor += 1 }
            if stillCursor < still.count, still[stillCursor].contains(i) {
                flag |= 1
                if i == still[stillCursor].upperBound - 1 { flag |= 2 }
            }
            while movingCursor < moving.count, moving[movingCursor].upperBound <= i { movingCursor += 1 }
            if movingCursor < moving.count, moving[movingCursor].contains(i) {
                flag |= 4
                if i == moving[movingCursor].upperBound - 1 { flag |= 8 }
            }
            flags.append(flag)
            if flag & 1 != 0 {
                let a = chunk[offset].acceleration
                raw.add(time: chunk[offset].time, output: a, input: a)
                if flag & 2 != 0 { raw.endSegment(keep: true) }
            }
        }
        let start = index, flags = self.flags, runs = self.runs, inputs = self.inputs, times = self.times, periods = self.periods
        _ = parallelMap(count: runs.count, threads: threads, progress: nil) { k in
            runs[k].process(inputs: inputs, times: times, periods: periods, flags: flags, first: start)
        }
        index += chunk.count
    }

    /// The points, in the order of `settings` (step latencies measured here).
    ///
    /// - Throws: ``SweepError/recording(_:)`` when no still segment is long enough to measure
    ///   jitter (as ``SweepRecording`` refuses such a recording).
    public func finish() throws(SweepError) -> [SweepPoint] {
        guard raw.result.evaluatedSamples > 0 else { throw Self.noStillSegment(name: name, detector: detector) }
        return zip(settings, runs).map { setting, run in
            let steps = Sweeper.stepLatencies(of: run.fresh, sampleRate: sampleRate)
            let measurement = RecordingMeasurement(recording: name, sampleRate: sampleRate, tilt: steps.tilt, shake: steps.shake,
                                                   jitter: run.jitter.result(inputOf: raw), lag: measuresLag ? run.lag.result(sampleRate: sampleRate) : nil)
            return Sweeper.point(setting, pooling: [measurement])
        }
    }

    /// The error for a recording without a still segment long enough to measure jitter (a caller
    /// that knows there is none before the samples arrive can skip the sweep with it).
    public static func noStillSegment(name: String, detector: RestDetector) -> SweepError {
        .recording("\(name): no still segment of at least \(detector.minimumDuration) s (gyroscope below \(detector.gyroscopeThreshold) rad/s, accelerometer RMS below \(detector.accelerationThreshold) g); jitter needs one")
    }

    /// The comparison of `sweeps` (whose settings, in order, are this sweep's).
    public func comparison(of sweeps: [FilterSweep], target: SweepTarget) throws(SweepError) -> SweepComparison {
        Sweeper.comparison(of: sweeps, points: try finish(), target: target)
    }
}

/// One setting's state in a ``StreamingSweep``; each chunk is processed by one worker thread
/// (the state is a struct, so a chunk is one access to it, not one per sample).
final class SettingRun: @unchecked Sendable {
    let fresh: AnyFilter<SIMD3<Double>>
    var state: State

    struct State {
        var filter: AnyFilter<SIMD3<Double>>
        /// The input's residuals are the sweep's own (`raw`), the same for every setting.
        var jitter = JitterAccumulator<SIMD3<Double>>(measuresInput: false)
        var lag: LagAccumulator<SIMD3<Double>>
        var outputs: [SIMD3<Double>] = []

        /// Filters a chunk (sample `first` of the recording onwards; `inputs` its accelerations,
        /// `times` their times, `periods` the real periods before them, the first sample of the
        /// recording filtered with the nominal period, as `filterAcceleration`) in blocks, one
        /// call to the filter per block, and feeds the accumulators as `flags` say (a run of
        /// still samples in one call to the jitter's).
        mutating func process(inputs: [SIMD3<Double>], times: [Double], periods: [Double], flags: [UInt8], first: Int) {
            if outputs.isEmpty { outputs = [SIMD3<Double>](repeating: .zero, count: Self.block) }
            var start = 0
            while start < inputs.count {
                let end = min(start + Self.block, inputs.count)
                filter.process(inputs, dt: periods, range: start..<end, into: &outputs, startsRecording: first + start == 0)
                var offset = start
                while offset < end {
                    let flag = flags[offset]
                    if flag & 1 != 0 {
                        // The run of still samples up to the end of the block or of its segment.
                        var stop = offset + 1
                        while stop < end, flags[stop - 1] & 2 == 0, flags[stop] & 1 != 0 { stop += 1 }
                        inputs.withUnsafeBufferPointer { input in
                            times.withUnsafeBufferPointer { time in
                                outputs.withUnsafeBufferPointer { output in
                                    jitter.add(times: UnsafeBufferPointer(rebasing: time[offset..<stop]),
                                               outputs: UnsafeBufferPointer(rebasing: output[(offset - start)..<(stop - start)]),
                                               inputs: UnsafeBufferPointer(rebasing: input[offset..<stop]))
                                }
                            }
                        }
                        if flags[stop - 1] & 2 != 0 { jitter.endSegment(keep: true) }
                        offset = stop
                        continue
                    }
                    if flag & 4 != 0 {
                        lag.add(output: outputs[offset - start], input: inputs[offset])
                        if flag & 8 != 0 { lag.endSegment() }
                    }
                    offset += 1
                }
                start = end
            }
        }

        /// Samples filtered per call to the filter (the outputs of one block are held, and a run
        /// of still samples reaches the jitter's storage one block at a time: with a hundred
        /// settings, both are multiplied by a hundred).
        static let block = 256
    }

    init(filter: AnyFilter<SIMD3<Double>>, maximumShift: Int) {
        fresh = filter
        state = State(filter: filter, lag: LagAccumulator(maximumShift: maximumShift))
    }

    var jitter: JitterAccumulator<SIMD3<Double>> { state.jitter }
    var lag: LagAccumulator<SIMD3<Double>> { state.lag }

    func process(inputs: [SIMD3<Double>], times: [Double], periods: [Double], flags: [UInt8], first: Int) {
        state.process(inputs: inputs, times: times, periods: periods, flags: flags, first: first)
    }
}
