import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// Long gaps: the replay engine shortens them to one period (no waiting, no frames in them),
/// resampling does not interpolate across them, and both say which gaps they skipped.
@Suite struct GapSkippingTests {
    /// 100 Hz samples from 12.5 s with a `gap` (s) after the first `before` samples.
    func samplesWithGap(before: Int = 50, after: Int = 50, gap: Double = 7200) -> [MotionSample] {
        regularSamples(before) + regularSamples(after, start: 12.5 + Double(before) / 100 + gap)
    }

    @Test func realTimeReplayShortensAGapToOnePeriodAndListsIt() {
        let samples = samplesWithGap()
        let policy = GapPolicy(limit: 1, replacement: 0.01)
        let (result, delivered, clock) = replay(samples, clock: ScriptedClock(), options: ReplayOptions(gapPolicy: policy))
        #expect(delivered.records.count == 100)
        // Deadlines advance 10 ms per sample straight through the gap: 99 periods in all.
        let start = ScriptedClock.origin + lead
        for (i, d) in delivered.deliveries.enumerated() {
            #expect(d.scheduled == start + Int64(i) * 10_000_000, "sample \(i)")
        }
        #expect(clock.time - ScriptedClock.origin < 2_000_000_000, "waited \(clock.time - ScriptedClock.origin) ns")
        #expect(result.gapCount == 1 && result.gaps == [GapPolicy.Gap(start: samples[49].time, end: samples[50].time)])
        #expect(abs(result.skippedSeconds - 7200.01) < 1e-6)
        // The delivered samples keep their recorded times.
        #expect(delivered.records[50].time == samples[50].time)

        // Without a policy the engine waits the two hours out (scripted clock: no real wait).
        let (plain, _, plainClock) = replay(samples, clock: ScriptedClock(), options: ReplayOptions())
        #expect(plain.gapCount == 0 && plain.gaps.isEmpty)
        #expect(plainClock.time - ScriptedClock.origin > 7_200_000_000_000)
    }

    @Test func intervalsUpToTheLimitAreReplayedAsRecorded() {
        let samples = samplesWithGap(gap: 0.5)
        let (result, delivered, _) = replay(samples, clock: ScriptedClock(),
                                            options: ReplayOptions(gapPolicy: GapPolicy(limit: 1, replacement: 0.01)))
        #expect(result.gapCount == 0)
        let jump = delivered.deliveries[50].scheduled - delivered.deliveries[49].scheduled
        #expect(jump == 510_000_000)
    }

    @Test func framesAreNotRunInsideASkippedGapAtAnySpeed() {
        let samples = samplesWithGap(gap: 100)
        for speed in [ReplaySpeed.realTime(1), .maximum] {
            let options = ReplayOptions(speed: speed, frameRate: 60, gapPolicy: GapPolicy(limit: 1, replacement: 0.01))
            let (result, delivered, _) = replay(samples, clock: ScriptedClock(), options: options)
            // One second of samples (0.99 s of recording time after shortening): about 60 frames, not 6000.
            #expect(result.frames >= 59 && result.frames <= 61, "\(speed): \(result.frames)")
            #expect(delivered.frames.allSatisfy { $0.time <= samples[49].time + 0.01 + 1e-9 || $0.time >= samples[50].time - 1e-9 },
                    "a frame inside the gap")
            // Frame times stay on the recording's clock and increase.
            #expect(zip(delivered.frames, delivered.frames.dropFirst()).allSatisfy { $0.time < $1.time })
            #expect(delivered.frames.last.map { $0.time >= samples[99].time - 1 / 60 } == true)
            let (full, _, _) = replay(samples, clock: ScriptedClock(), options: ReplayOptions(speed: speed, frameRate: 60))
            #expect(full.frames > 6000)
        }
    }

    @Test func resamplingResumesAfterAGapInsteadOfInterpolatingAcrossIt() {
        let samples = samplesWithGap(gap: 100)
        let skipped = Array(ResampledSamples(samples, rate: 50, inputRate: 100, gapLimit: 2))
        let filled = Array(ResampledSamples(samples, rate: 50, inputRate: 100))
        #expect(filled.count > 5000)
        #expect(skipped.count >= 49 && skipped.count <= 51, "\(skipped.count)")
        #expect(!skipped.contains { $0.time > samples[49].time && $0.time < samples[50].time }, "a sample inside the gap")
        // After the gap the output clock restarts at the first sample after it, 20 ms apart.
        let afterGap = skipped.filter { $0.time >= samples[50].time }
        #expect(afterGap.first?.time == samples[50].time)
        #expect(zip(afterGap, afterGap.dropFirst()).allSatisfy { abs($1.time - $0.time - 0.02) < 1e-9 })
        // Before the gap the two agree exactly.
        let beforeGap = skipped.filter { $0.time < samples[50].time }
        #expect(beforeGap.map(\.time) == Array(filled.prefix(beforeGap.count)).map(\.time))
    }

    @Test func defaultLimitIsTheLongerOfOneSecondAndAHundredPeriods() {
        #expect(GapPolicy.defaultLimit(rate: 100) == 1)
        #expect(GapPolicy.defaultLimit(rate: 1000) == 1)
        #expect(GapPolicy.defaultLimit(rate: 10) == 10)
        #expect(GapPolicy.defaultLimit(rate: .nan) == 1)
    }
}
