import Testing
import Poise
@testable import PoiseRun

/// The engine's default lead time before the first deadline, ns.
let lead: Int64 = 1_000_000

/// Samples at `rate` Hz starting at `start` seconds.
func regularSamples(_ count: Int, rate: Double = 100, start: Double = 12.5) -> [MotionSample] {
    (0 ..< count).map { MotionSample(time: start + Double($0) / rate, acceleration: SIMD3(0, 0, 1)) }
}

/// Reference statistics computed directly from the lateness list (independent of the engine).
func referenceQuantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    let position = q * Double(sorted.count - 1)
    let lower = Int(position)
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
}

/// Everything a run handed its sinks, kept by `Collector` (a class, so the stop request can read
/// it while the run goes on).
final class Delivered {
    var records: [ProcessedSample] = []
    var deliveries: [SampleDelivery] = []
    var frames: [FrameDelivery] = []
}

/// A sink that keeps every record, delivery and frame in a `Delivered`.
struct Collector: Sink {
    let into: Delivered
    func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        into.records.append(record); into.deliveries.append(delivery)
    }
    func consume(frame: FrameDelivery) { into.frames.append(frame) }
}

/// `samples` through `pipeline` with a `PacedClock` on `clock`, into the timing sink and a
/// collector; `stopAfter`: the stop request comes once that many samples were delivered.
func replay(_ samples: [MotionSample], clock: ScriptedClock, options: ReplayOptions,
            pipeline: Pipeline = Pipeline(), framePipeline: Pipeline? = nil,
            stopAfter: Int? = nil) -> (ReplayResult, Delivered, ScriptedClock) {
    var run = Run(source: SequenceSource(samples), pipeline: pipeline, framePipeline: framePipeline,
                  clock: PacedClock(timer: clock, options: options))
    let delivered = Delivered()
    var sinks = SinkPair(ReplayTimingSink(options: options, expectedCount: samples.count), Collector(into: delivered))
    do {
        let ran = try run.run(into: &sinks, shouldStop: { stopAfter.map { delivered.deliveries.count >= $0 } ?? false })
        return (ran.summary.0.withGaps(of: run.clock), delivered, run.clock.timer)
    } catch {
        Issue.record(error)
        return (ReplayResult(timing: TimingAccumulator(lateThreshold: 0).timing(wall: 0, cpu: 0), frames: 0, meanStackedSamples: 0, maximumStackedSamples: 0,
                             frameLatenessMicroseconds: nil, stopped: false), delivered, run.clock.timer)
    }
}

@Suite struct PacedClockTests {
    @Test func latenessIsExactlyWhatTheClockInjectedAndScheduleNeverDrifts() throws {
        let samples = regularSamples(1000)
        // Pseudo-random lateness 0…997 µs (all below one period, so no deadline is missed).
        let injected: (Int) -> Int64 = { Int64(($0 * 7919) % 998) * 1000 }
        var clock = ScriptedClock()
        clock.lateness = { injected(Int(($0 - lead) / 10_000_000)) }
        clock.readCost = 250
        let start = clock.time + lead
        let (result, delivered, _) = replay(samples, clock: clock, options: ReplayOptions(lateThreshold: 0.01))

        #expect(delivered.deliveries.count == 1000)
        for (i, delivery) in delivered.deliveries.enumerated() {
            // s_i = start + (t_i − t_0): absolute, so lateness never accumulates.
            #expect(delivery.scheduled == start + Int64(i) * 10_000_000)
            #expect(delivery.lateness == injected(i))
            #expect(delivery.cost == 250)
        }
        let lateness = (0 ..< 1000).map { Double(injected($0)) / 1000 }
        let summary = try #require(result.timing.latenessMicroseconds)
        #expect(summary.count == 1000)
        #expect(summary.p50 == referenceQuantile(lateness, 0.5))
        #expect(summary.p90 == referenceQuantile(lateness, 0.9))
        #expect(summary.p99 == referenceQuantile(lateness, 0.99))
        #expect(summary.max == lateness.max())
        #expect(abs(summary.mean - lateness.reduce(0, +) / 1000) < 1e-9)
        #expect(result.timing.driftMicroseconds == lateness.last! - lateness.first!)
        // Trend drift: the least-squares slope (numpy.polyfit form) × the 9.99 s span.
        let times: [Double] = (0 ..< 1000).map { Double($0) / 100 }
        let tm: Double = times.reduce(0, +) / 1000
        let lm: Double = lateness.reduce(0, +) / 1000
        var covariance = 0.0, variance = 0.0
        for (t, e) in zip(times, lateness) { covariance += (t - tm) * (e - lm); variance += (t - tm) * (t - tm) }
        let slope = covariance / variance
        #expect(abs(result.timing.driftTrendMicroseconds! - slope * 9.99) < 1e-6)
        let steps = zip(lateness.dropFirst(), lateness).map { $0 - $1 }
        let mean = steps.reduce(0, +) / Double(steps.count)
        let std = (steps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(steps.count)).squareRoot()
        #expect(abs(result.timing.periodJitterMicroseconds! - std) < 1e-6)
        #expect(result.timing.lateSamples == 0)
        #expect(result.timing.processingNanoseconds?.p50 == 250)
        #expect(!result.stopped)
    }

    /// One stalled last sample (18 ms, a VM stall) moves last − first by the whole stall but the
    /// trend by a fraction; a schedule that really creeps (1 µs per sample) shows in both.
    @Test func trendDriftIgnoresOneStalledSampleButSeesACreepingSchedule() {
        var stalled = ScriptedClock()
        stalled.lateness = { ($0 - lead) / 10_000_000 == 5999 ? 18_000_000 : 1_500 }
        let (stall, _, _) = replay(regularSamples(6000), clock: stalled, options: ReplayOptions())
        #expect(stall.timing.driftMicroseconds == 18_000 - 1.5)
        #expect(abs(stall.timing.driftTrendMicroseconds!) < 20)
        var creeping = ScriptedClock()
        creeping.lateness = { ($0 - lead) / 10_000_000 * 1_000 }
        let (creep, _, _) = replay(regularSamples(6000), clock: creeping, options: ReplayOptions(lateThreshold: 1))
        #expect(abs(creep.timing.driftMicroseconds! - 5_999) < 1e-6)
        #expect(abs(creep.timing.driftTrendMicroseconds! - 5_999) < 1e-3)
    }

    @Test func constantWakeUpDelayGivesNoDriftAndNoJitter() {
        // A plain sleep wakes ~170 µs late every time; absolute deadlines keep that from adding up.
        var clock = ScriptedClock()
        clock.lateness = { _ in 170_000 }
        let (result, delivered, _) = replay(regularSamples(500), clock: clock, options: ReplayOptions())
        #expect(result.timing.driftMicroseconds == 0)
        #expect(abs(result.timing.driftTrendMicroseconds!) < 1e-9)
        #expect(result.timing.periodJitterMicroseconds == 0)
        #expect(result.timing.latenessMicroseconds?.p50 == 170)
        let last = delivered.deliveries.last!
        #expect(last.scheduled - delivered.deliveries.first!.scheduled == 499 * 10_000_000)
    }

    @Test func aStallDeliversEverySampleLateNeverDropsAndCountsLateOnes() {
        // The sleep for sample 10 wakes 35 ms late: samples 10…13 are behind schedule, 10, 11 and 12 by more
        // than one 10 ms period.
        var clock = ScriptedClock()
        clock.readCost = 1_000
        clock.lateness = { $0 == lead + 100_000_000 ? 35_000_000 : 0 }
        let samples = regularSamples(100)
        let (result, delivered, _) = replay(samples, clock: clock, options: ReplayOptions(lateThreshold: 0.01))
        #expect(delivered.records.map(\.time) == samples.map(\.time))
        let lateness = delivered.deliveries.map(\.lateness)
        // Sample 10 wakes at s_10 + 35 ms; each read costs 1 µs; samples 11–13 follow at once
        // (two clock reads each: delivery and end of processing).
        #expect(lateness[10] == 35_000_000)
        #expect(lateness[11] == 35_000_000 + 2_000 + 1_000 - 10_000_000)
        #expect(lateness[12] == lateness[11] + 3_000 - 10_000_000)
        #expect(lateness[13] == lateness[12] + 3_000 - 10_000_000)
        #expect(lateness[14] == 0)
        #expect(result.timing.lateSamples == 3)
        #expect(result.timing.samples == 100)
        #expect(result.timing.driftMicroseconds == 0)
    }

    @Test func speedDividesTheRecordedIntervals() {
        // Irregular timestamps (x-io style: 10.08, 7.56 and a 30.24 ms gap) at twice the speed.
        let intervals = [0.01008, 0.00756, 0.03024, 0.01008, 0.01008]
        var time = 3.0
        var samples = [MotionSample(time: time)]
        for dt in intervals { time += dt; samples.append(MotionSample(time: time)) }
        let clock = ScriptedClock()
        let start = clock.time + lead
        let (_, delivered, _) = replay(samples, clock: clock, options: ReplayOptions(speed: .realTime(2)))
        for (i, delivery) in delivered.deliveries.enumerated() {
            let expected = start + Int64(((samples[i].time - 3.0) / 2 * 1e9).rounded())
            #expect(delivery.scheduled == expected)
            #expect(delivery.lateness == 0)
        }
    }

    @Test func timestampsThatGoBackwardsAreDeliveredInFileOrder() {
        let samples = [0.0, 0.01, 0.005, 0.02].map { MotionSample(time: $0) }
        let (result, delivered, _) = replay(samples, clock: ScriptedClock(), options: ReplayOptions())
        #expect(delivered.records.map(\.time) == [0.0, 0.01, 0.005, 0.02])
        #expect(delivered.deliveries[2].lateness == 5_000_000)
        #expect(result.timing.samples == 4)
    }

    @Test func maximumSpeedNeverWaitsAndReportsNoLateness() {
        let samples = regularSamples(300)
        var clock = ScriptedClock()
        clock.readCost = 10
        let (result, delivered, finalClock) = replay(samples, clock: clock, options: ReplayOptions(speed: .maximum))
        #expect(finalClock.sleeps == 0)
        #expect(delivered.records.count == 300)
        #expect(result.timing.latenessMicroseconds == nil)
        #expect(result.timing.driftMicroseconds == nil)
        #expect(result.timing.processingNanoseconds?.p50 == 10)
    }

    @Test func stopEndsTheReplayAndKeepsStatisticsOfWhatWasDelivered() {
        let (result, delivered, _) = replay(regularSamples(100), clock: ScriptedClock(), options: ReplayOptions(), stopAfter: 40)
        #expect(result.stopped)
        #expect(delivered.records.count == 40)
        #expect(result.timing.samples == 40)
    }

    @Test func longGapsAreWaitedForInSlicesAndStillLandOnTheDeadline() {
        let samples = [MotionSample(time: 0), MotionSample(time: 1)]
        let clock = ScriptedClock()
        let start = clock.time + lead
        let (_, delivered, finalClock) = replay(samples, clock: clock, options: ReplayOptions(waitSlice: 0.05))
        #expect(delivered.deliveries[1].delivered == start + 1_000_000_000)
        // One sleep for the 1 ms lead to sample 0, then 20 slices of 50 ms to sample 1.
        #expect(finalClock.sleeps == 21)
    }

    @Test func framesConsumeTheLatestStateAndSamplesStackUpBetweenThem() {
        // 100 Hz samples, 30 Hz frames over 1 s: frames at 1/30, 2/30 … 30/30 s.
        let samples = (0 ... 100).map { MotionSample(time: Double($0) / 100, acceleration: SIMD3(0, 0, Double($0))) }
        for speed in [ReplaySpeed.realTime(1), .maximum] {
            let (result, delivered, _) = replay(samples, clock: ScriptedClock(),
                                                options: ReplayOptions(speed: speed, frameRate: 30),
                                                framePipeline: Pipeline())
            #expect(result.frames == 30)
            #expect(delivered.frames.map(\.index) == Array(1 ... 30))
            #expect(delivered.frames.map(\.stackedSamples).reduce(0, +) == 101)
            #expect(Set(delivered.frames.map(\.stackedSamples)).isSubset(of: [3, 4]))
            #expect(result.maximumStackedSamples == 4)
            for frame in delivered.frames {
                // The latest sample is the last one at or before the frame's time.
                let expected = (Double(frame.index) / 30 * 100 + 1e-9).rounded(.down)
                #expect(frame.latest?.input.acceleration.z == expected)
                #expect(frame.frameSmoothed?.input == frame.latest?.input)
            }
        }
    }

    @Test func framesFasterThanSamplesSeeNoNewSamplesSometimes() {
        let samples = regularSamples(11, rate: 10, start: 0)
        let (result, delivered, _) = replay(samples, clock: ScriptedClock(), options: ReplayOptions(frameRate: 60))
        #expect(result.frames == 60)
        // Frame 1 holds sample 0; frames 6, 12 … 60 each hold one more (a sample stamped at a
        // frame's time is delivered before it): 11 frames with a sample, 49 without.
        #expect(delivered.frames.filter { $0.stackedSamples == 0 }.count == 49)
        #expect(delivered.frames.map(\.stackedSamples).reduce(0, +) == 11)
        #expect(delivered.frames.allSatisfy { $0.lateness == 0 })
    }
}

extension FrameDelivery {
    var lateness: Int64 { delivered - scheduled }
}
