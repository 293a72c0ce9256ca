import Foundation
import Poise

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
