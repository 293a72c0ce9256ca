import Foundation
import Poise
import PoiseRun
import Testing

@Suite("Sweeps on a simulated recording")
struct SweepTests {
    let recording: SweepRecording

    init() throws {
        recording = try SweepRecording(name: "simulated", samples: simulatedMotion())
    }

    @Test("The simulated recording has its three still and two moving periods")
    func segments() {
        #expect(recording.stillSegments.count == 3)
        #expect(recording.movingSegments.count == 2)
        #expect(abs(recording.sampleRate - 100) < 1e-6)
    }

    @Test("factor:k sweep reproduces the closed-form latencies n = ⌈ln 0.1 / ln(1 − k)⌉")
    func factorLatencies() throws {
        let sweep = try FilterSweep(filter: "factor", grid: "k=0.05:0.3:0.05")
        let result = try Sweeper.run(sweep.settings, on: [recording], target: .latencySamples(22), threads: 2)
        for point in result.points {
            let k = point.setting.parameters[0].value
            let expected = Int((log(0.1) / log(1 - k)).rounded(.up))
            #expect(point.tilt.samples == expected, "k=\(k)")
            #expect(point.shake.samples == expected, "k=\(k)")   // linear: same progress for any step
            #expect(abs(point.tilt.milliseconds! - Double(expected) * 10) < 1e-6)
        }
        #expect(result.points[1].tilt.samples == 22)   // k = 0.1, the reference of conventions.md
        // k = 0.05 settles so slowly after motion that its jitter on the short still periods is
        // above k = 0.1's: k = 0.1 dominates it. The best within 22 samples is k = 0.1.
        let jitters = result.points.map(\.jitter)
        #expect(jitters[0] > jitters[1])
        #expect(Array(jitters.dropFirst()) == jitters.dropFirst().sorted())
        #expect(result.front == [5, 4, 3, 2, 1])
        #expect(result.recommendation.map { result.points[$0].setting.spec.description } == "factor:k=0.1")
        // A target jitter picks the fastest point within it.
        let byJitter = SweepResult(points: result.points, target: .jitter(jitters[2] * 1.0001))
        #expect(byJitter.recommendation == 2)
    }

    @Test("Jitter and attenuation equal the metric run directly; lag grows with smoothing")
    func perPointMetrics() throws {
        let sweep = try FilterSweep(filter: "lowpass", grid: "cutoff=0.5/2/8")
        let result = try Sweeper.run(sweep.settings, on: [recording], threads: 1)
        for point in result.points {
            var filter: AnyFilter<SIMD3<Double>> = try point.setting.spec.makeFilter(sampleRate: recording.sampleRate)
            let direct = accelerationJitter(&filter, samples: recording.samples, segments: recording.stillSegments)
            #expect(point.jitter == direct.jitter)
            #expect(point.rawJitter == direct.rawJitter)
            #expect(point.attenuation == direct.attenuation)
        }
        let lags = result.points.map { $0.lagMilliseconds ?? -1 }
        // One-pole lag at low frequency ≈ the time constant 1/(2π·cutoff): 318, 80, 20 ms.
        #expect(lags[0] > lags[1] && lags[1] > lags[2] && lags[2] > 0)
        #expect(abs(lags[1] - 1000 / (2 * Double.pi * 2)) < 20)
    }

    @Test("Output is identical with 1 and 2 threads")
    func determinism() throws {
        let sweep = try FilterSweep(filter: "oneeuro", grid: "mincutoff=0.1:1.6:*2,beta=0/0.5/5")
        let second = try SweepRecording(name: "shorter", samples: Array(simulatedMotion(rate: 50, seconds: 12)))
        let one = try Sweeper.run(sweep.settings, on: [recording, second], threads: 1)
        let two = try Sweeper.run(sweep.settings, on: [recording, second], threads: 2)
        #expect(one == two)
        #expect(one.points.count == 15)
        // Two rates: latency is the worse of the two recordings.
        for point in one.points {
            let worst = point.recordings.map { $0.tilt.milliseconds! }.max()!
            #expect(point.tilt.milliseconds == worst)
        }
    }

    /// More workers than cores and than points, and two sweeps running at the same time from two
    /// threads (filters are values; the shared work counter and result slots are locked): every
    /// result equals the serial one. `swift test --sanitize=thread` runs this too (RELIABILITY.md).
    @Test("Concurrent sweeps with many threads equal the serial result")
    func concurrentSweeps() throws {
        let first = try FilterSweep(filter: "lowpass", grid: "cutoff=0.5:8:*2")
        let second = try FilterSweep(filter: "factor", grid: "k=0.05:0.5:0.05")
        let serialFirst = try Sweeper.run(first.settings, on: [recording], threads: 1)
        let serialSecond = try Sweeper.run(second.settings, on: [recording], threads: 1)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int: SweepResult] = [:]
            var errors: [String] = []
        }
        let results = Results()
        let jobs: [(Int, FilterSweep, Int)] = [(0, first, 8), (1, second, 16), (2, first, 3), (3, second, 64)]
        let recording = self.recording
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let (key, sweep, threads) = jobs[i]
            do {
                let result = try Sweeper.run(sweep.settings, on: [recording], threads: threads)
                results.lock.lock(); results.values[key] = result; results.lock.unlock()
            } catch {
                results.lock.lock(); results.errors.append("\(error)"); results.lock.unlock()
            }
        }
        #expect(results.errors.isEmpty)
        #expect(results.values[0] == serialFirst && results.values[2] == serialFirst)
        #expect(results.values[1] == serialSecond && results.values[3] == serialSecond)
        #expect(serialFirst.points.count == 5 && serialSecond.points.count == 10)
    }

    @Test("Progress reports every point once, in increasing order")
    func progress() throws {
        final class Log: @unchecked Sendable { let lock = NSLock(); var seen: [Int] = [] }
        let log = Log()
        let sweep = try FilterSweep(filter: "factor", grid: "k=0.1:0.5:0.1")
        _ = try Sweeper.run(sweep.settings, on: [recording], threads: 2) { done, total in
            #expect(total == 5)
            log.lock.lock(); log.seen.append(done); log.lock.unlock()
        }
        #expect(log.seen == [1, 2, 3, 4, 5])
    }

    @Test("Comparison picks each kind's best within the target")
    func comparison() throws {
        let sweeps = [try FilterSweep(filter: "factor", grid: "k=0.05:0.5:0.05"),
                      try FilterSweep(filter: "butter", grid: "order=2,cutoff=1:10:1")]
        let comparison = try Sweeper.compare(sweeps, on: [recording], target: .latencySamples(15), threads: 2)
        #expect(comparison.entries.map(\.kind) == [.factor, .butter])
        for entry in comparison.entries {
            let best = try #require(entry.best)
            #expect(best.latency.samples! <= 15)
            let within = entry.result.points.filter { $0.latency.samples! <= 15 }
            #expect(best.jitter == within.map(\.jitter).min())
        }
        #expect(!comparison.front.isEmpty)
        #expect(comparison.recommendation.map { comparison.front.contains($0) } == true)
    }

    @Test("A setting that does not suit a recording's rate is an error naming both")
    func nyquist() throws {
        let sweep = try FilterSweep(filter: "butter", grid: "cutoff=10/60")
        #expect {
            try Sweeper.run(sweep.settings, on: [recording], threads: 1)
        } throws: { error in
            "\(error)".contains("simulated") && "\(error)".contains("cutoff=60")
        }
    }

    @Test("A recording without a still segment is an error naming it")
    func noStillSegment() {
        let moving = simulatedMotion().filter { $0.time.truncatingRemainder(dividingBy: 6) >= 3 && $0.time < 6 }
        #expect(throws: SweepError.self) { try SweepRecording(name: "moving only", samples: moving) }
    }

    @Test("A streamed sweep (still segments known, samples in chunks) gives the in-memory sweep's points bit for bit")
    func streamedSweepEqualsInMemorySweep() throws {
        let sweeps = try ["lowpass", "adaptive", "oneeuro", "butter"].map { try FilterSweep(filter: $0) }
        let settings = sweeps.flatMap(\.settings)
        let inMemory = try Sweeper.run(settings, on: [recording], threads: 2)
        for chunk in [1, 37, 4096] {
            var streamed = try StreamingSweep(settings: settings, name: "simulated", sampleRate: recording.sampleRate,
                                              count: recording.samples.count, stillSegments: recording.stillSegments,
                                              detector: RestDetector(), threads: 2)
            var start = 0
            while start < recording.samples.count {
                streamed.add(Array(recording.samples[start..<min(recording.samples.count, start + chunk)]))
                start += chunk
            }
            #expect(try streamed.finish() == inMemory.points, "chunks of \(chunk)")
        }
        let compared = try Sweeper.compare(sweeps, on: [recording], threads: 1)
        var streamed = try StreamingSweep(settings: settings, name: "simulated", sampleRate: recording.sampleRate,
                                          count: recording.samples.count, stillSegments: recording.stillSegments,
                                          detector: RestDetector(), threads: 1)
        streamed.add(recording.samples)
        #expect(try streamed.comparison(of: sweeps, target: .default) == compared)
        // Without lag: the same jitter and latency, no lag.
        var withoutLag = try StreamingSweep(settings: settings, name: "simulated", sampleRate: recording.sampleRate,
                                            count: recording.samples.count, stillSegments: recording.stillSegments,
                                            detector: RestDetector(), threads: 2, measuresLag: false)
        withoutLag.add(recording.samples)
        let points = try withoutLag.finish()
        #expect(points.map(\.jitter) == inMemory.points.map(\.jitter) && points.map(\.latency) == inMemory.points.map(\.latency))
        #expect(points.allSatisfy { $0.lagMilliseconds == nil } && inMemory.points.contains { $0.lagMilliseconds != nil })
    }

    @Test("A streamed sweep without a still segment long enough fails as the in-memory one does")
    func streamedSweepWithoutStillSegment() throws {
        let settings = try FilterSweep(filter: "lowpass").settings
        var streamed = try StreamingSweep(settings: settings, name: "moving", sampleRate: recording.sampleRate,
                                          count: recording.samples.count, stillSegments: [], detector: RestDetector(), threads: 1)
        streamed.add(recording.samples)
        #expect(throws: StreamingSweep.noStillSegment(name: "moving", detector: RestDetector())) { try streamed.finish() }
    }
}
