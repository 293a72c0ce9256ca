import Foundation
import Testing
import Poise
@testable import PoiseRun

@Suite struct FrameComparisonTests {
    /// The frame comparison of a `--speed max` replay of `samples` (100 Hz, frames at 25 Hz).
    func comparison(_ samples: [MotionSample], pipeline: String) throws -> FrameComparison {
        let path = try writeRecording(samples)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: pipeline, speed: .maximum, frameRate: 25))
        return try #require(try session.run(clock: MonotonicClock()).frames?.comparison)
    }

    /// The simulated latencies (ms) of `spec` at exactly 100 Hz with frames at 25 Hz.
    func latency(_ spec: String) throws -> (callback: Double?, frameTime: Double?) {
        FrameComparison.latency(pipeline: try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 100)),
                                framePipeline: try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 25)),
                                signal: .acceleration, sampleRate: 100, frameRate: 25)
    }

    @Test func callbackAndFrameTimeLatencyMatchHandComputedFrames() throws {
        // y ← 0.1·x + 0.9·y reaches 90 % on its 22nd input. Samples at 100 Hz, frames at 25 Hz
        // (every 4th sample time; a sample at a frame's time is seen by that frame). The step
        // sample lies at offset m = 0…3 samples after a frame.
        // Callback: 90 % at sample 21 after the step, seen by the next frame: 240, 230, 220,
        // 210 ms → mean 225 ms.
        // Frame time: the first frame at or after the step (0, 30, 20, 10 ms later) then 21 more
        // frames of 40 ms → 840 + 15 = 855 ms.
        let (callback, frameTime) = try latency("factor:k=0.1")
        #expect(abs(try #require(callback) - 225) < 1e-9)
        #expect(abs(try #require(frameTime) - 855) < 1e-9)
        let comparison = try comparison(simulatedRecording(), pipeline: "factor:k=0.1")
        // Both see the same raw input on the same frames of the two still segments; the callback
        // filter averages all samples.
        let callbackJitter = try #require(comparison.callback.jitter)
        let frameJitter = try #require(comparison.frameTime.jitter)
        #expect(callbackJitter.input == frameJitter.input)
        #expect(callbackJitter.segments == 2 && frameJitter.segments == 2)
        #expect(callbackJitter.attenuation > 1)
    }

    @Test func withoutFilteringTheFramesSeeTheRawInput() throws {
        // Both ways give each frame the latest raw sample: jitter equals the raw jitter, one frame
        // after the step reaches it (the step at a frame's time: 0 ms; 30, 20, 10 ms otherwise).
        let (callback, frameTime) = try latency("none")
        #expect(abs(try #require(callback) - 15) < 1e-9)
        #expect(abs(try #require(frameTime) - 15) < 1e-9)
        let comparison = try comparison(simulatedRecording(), pipeline: "none")
        for report in [comparison.callback, comparison.frameTime] {
            let jitter = try #require(report.jitter)
            #expect(jitter.output == jitter.input && jitter.attenuation == 1)
        }
    }
}
