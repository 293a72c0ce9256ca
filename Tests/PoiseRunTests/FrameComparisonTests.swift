import Testing
import Poise
@testable import PoiseRun

@Suite struct FrameComparisonTests {
    @Test func callbackAndFrameTimeLatencyMatchHandComputedFrames() throws {
        // y ← 0.1·x + 0.9·y reaches 90 % on its 22nd input. Samples at 100 Hz, frames at 25 Hz
        // (every 4th sample time; a sample at a frame's time is seen by that frame). The step
        // sample lies at offset m = 0…3 samples after a frame.
        // Callback: 90 % at sample 21 after the step, seen by the next frame: 240, 230, 220,
        // 210 ms → mean 225 ms.
        // Frame time: the first frame at or after the step (0, 30, 20, 10 ms later) then 21 more
        // frames of 40 ms → 840 + 15 = 855 ms.
        let callbackPipeline = try StageCatalog.standard.pipeline("factor:k=0.1", context: StageContext(sampleRate: 100))
        let framePipeline = try StageCatalog.standard.pipeline("factor:k=0.1", context: StageContext(sampleRate: 25))
        let comparison = FrameComparison(pipeline: callbackPipeline, framePipeline: framePipeline, signal: .acceleration,
                                         samples: simulatedRecording(), sampleRate: 100, frameRate: 25,
                                         stillSegments: [0 ..< 600, 800 ..< 1400])
        let callback = try #require(comparison.callback.latency90Milliseconds)
        let frameTime = try #require(comparison.frameTime.latency90Milliseconds)
        #expect(abs(callback - 225) < 1e-9)
        #expect(abs(frameTime - 855) < 1e-9)
        // Both see the same raw input on the same frames; the callback filter averages all samples.
        let callbackJitter = try #require(comparison.callback.jitter)
        let frameJitter = try #require(comparison.frameTime.jitter)
        #expect(callbackJitter.input == frameJitter.input)
        #expect(callbackJitter.attenuation > 1)
    }
}
