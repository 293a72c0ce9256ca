import Testing
import Poise
@testable import PoiseRun

/// The replay engine with absurd times and speeds: deadlines are clamped instead of trapping,
/// every loop (waits and frames) honours the stop request, and the metrics keep a bounded number
/// of frames waiting across a gap.
@Suite struct PacedClockBoundsTests {
    /// Nanoseconds read as seconds (1.7e18 s): the deadline in ns does not fit in Int64.
    let nanosecondTimes = [MotionSample(time: 1.7e18, acceleration: SIMD3(0, 0, 1)),
                           MotionSample(time: 1.7e18 + 1e7, acceleration: SIMD3(0, 0, 1)),
                           MotionSample(time: 1.7e18 + 2e7, acceleration: SIMD3(0, 0, 1))]

    @Test func maximumSpeedDeliversAbsurdTimesWithoutATrap() {
        let (result, delivered, _) = replay(nanosecondTimes, clock: ScriptedClock(), options: ReplayOptions(speed: .maximum))
        #expect(delivered.deliveries.count == 3)
        #expect(!result.stopped)
    }

    @Test func pacedDeadlinesClampAndTheWaitStopsOnRequest() throws {
        var calls = 0
        var run = Run(source: SequenceSource(regularSamples(3)), pipeline: Pipeline(),
                      clock: PacedClock(timer: ScriptedClock(), options: ReplayOptions(speed: .realTime(1e-300))))
        let delivered = Delivered()
        var sink = Collector(into: delivered)
        let (end, _) = try run.run(into: &sink, shouldStop: { calls += 1; return calls > 1000 })
        #expect(end.stopped)
        #expect(delivered.deliveries.count == 1, "the first sample is due at once, the second never")
        #expect(calls == 1001)
        // The clock slept in slices toward the clamped deadline, never past it.
        #expect(run.clock.timer.time <= PacedClock<ScriptedClock>.deadlineLimit)
    }

    @Test func theFrameLoopStopsOnRequest() throws {
        let samples = [MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)), MotionSample(time: 1e9, acceleration: SIMD3(0, 0, 1))]
        var calls = 0
        var run = Run(source: SequenceSource(samples), pipeline: Pipeline(),
                      clock: PacedClock(timer: ScriptedClock(), options: ReplayOptions(speed: .maximum, frameRate: 1000)))
        let delivered = Delivered()
        var sink = Collector(into: delivered)
        let (end, _) = try run.run(into: &sink, shouldStop: { calls += 1; return calls > 10_000 })
        let frames = delivered.frames.count
        #expect(end.stopped)
        #expect(frames < 10_000 && frames > 9_000, "\(frames) of 1e12 frames ran before the stop")
    }

    @Test func clampedAdditionNeverOverflows() {
        let limit = PacedClock<ScriptedClock>.deadlineLimit
        #expect(PacedClock<ScriptedClock>.adding(5, .max) == limit)
        #expect(PacedClock<ScriptedClock>.adding(-5, .min) == -limit)
        #expect(PacedClock<ScriptedClock>.adding(1_000, 2_000) == 3_000)
        #expect(PacedClock<ScriptedClock>.adding(limit, limit) == limit)
    }

    @Test func framesWaitingAcrossAGapAreBounded() throws {
        let pipeline = try StageCatalog.standard.pipeline("lowpass:cutoff=5", context: StageContext(sampleRate: 100))
        var metrics = StageMetricsAccumulator(pipeline: pipeline, sampleRate: 100)
        var running = pipeline
        metrics.add(MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)), through: &running)
        let limit = StageMetricsAccumulator.maximumWaitingFrames
        for k in 0 ..< 3 * limit {
            metrics.addFrame(time: Double(k) / 1000, callback: .zero, frameTime: .zero, raw: .zero)
            if k % 997 == 0 { #expect(metrics.frames.count - metrics.frameHead <= limit) }
        }
        #expect(metrics.frames.count <= 2 * limit + 256)
        metrics.add(MotionSample(time: 1e6, acceleration: SIMD3(0, 0, 1)), through: &running)
        _ = metrics.finish()
    }
}
