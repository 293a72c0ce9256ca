import Testing
@testable import Poise

/// `FrameSamplerSettings.maximumGap`: no frames for a gap in the samples.
@Suite struct FrameSamplerGapTests {
    func frames(gap: Double, maximumGap: Double?) throws -> (frames: [Frame<Double>], sampler: FrameSampler<Double>) {
        var sampler = try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 60, maximumGap: maximumGap))
        var frames: [Frame<Double>] = []
        // 1 s at 100 Hz of value 1, the gap, 1 s of value 3.
        for i in 0 ..< 100 { sampler.process(time: Double(i) / 100, value: 1) { frames.append($0) } }
        for i in 0 ..< 100 { sampler.process(time: 0.99 + gap + Double(i + 1) / 100, value: 3) { frames.append($0) } }
        sampler.finish { frames.append($0) }
        return (frames, sampler)
    }

    @Test func aGapLongerThanTheLimitGetsNoFrames() throws {
        let (skipped, sampler) = try frames(gap: 7200, maximumGap: 1)
        let (full, fullSampler) = try frames(gap: 7200, maximumGap: nil)
        #expect(full.count > 400_000 && fullSampler.gapCount == 0)
        #expect(skipped.count >= 120 && skipped.count <= 123, "\(skipped.count)")
        #expect(sampler.gapCount == 1)
        #expect(sampler.skippedFrames + skipped.count == full.count, "\(sampler.skippedFrames) + \(skipped.count) vs \(full.count)")
        // Every frame has samples (nothing held through the gap), times stay t₀ + k/f.
        #expect(skipped.allSatisfy { $0.sampleCount > 0 })
        for f in skipped { #expect(abs(f.time - Double(f.index) / 60) < 1e-9) }
        // Values: 1 before the gap, 3 after it.
        #expect(skipped.filter { $0.time < 1 }.allSatisfy { $0.value == 1 })
        #expect(skipped.filter { $0.time > 7201 }.allSatisfy { $0.value == 3 })
    }

    @Test func shortGapsAreFramedAsBefore() throws {
        let (limited, sampler) = try frames(gap: 0.5, maximumGap: 1)
        let (full, _) = try frames(gap: 0.5, maximumGap: nil)
        #expect(sampler.gapCount == 0 && sampler.skippedFrames == 0)
        #expect(limited.map(\.time) == full.map(\.time) && limited.map(\.value) == full.map(\.value))
        #expect(throws: OrientationSettingsError.self) {
            _ = try FrameSampler<Double>(settings: FrameSamplerSettings(frameRate: 60, maximumGap: 0))
        }
    }
}
