import Poise
import Testing

@Suite struct GyroAimFramesTests {
    static func output(_ t: Double, yaw: Double, flags: GyroAimFlags = []) -> GyroAimOutput {
        GyroAimOutput(time: t, yaw: yaw, pitch: -yaw, turnRate: .zero, smoothedRate: .zero, flags: flags)
    }

    /// Frames on the clock t₀ + k/f sum the turns of their window; empty frames turn nothing;
    /// the frames' total equals the samples' total.
    @Test func framesSumTheirWindows() throws {
        var frames = try GyroAimFrames(frameRate: 60)
        var random = SplitMix(seed: 11)
        var t = 0.0, total = 0.0
        var out: [TimedAimFrame] = []
        for _ in 0..<1000 {
            let yaw = random.uniform()
            total += yaw
            frames.add(Self.output(t, yaw: yaw)) { out.append($0) }
            t += random.uniform() * 0.03          // 0–30 ms: some frames get none
        }
        frames.finish { out.append($0) }
        #expect(abs(out.map(\.frame.yaw).reduce(0, +) - total) < 1e-9)
        #expect(out.map(\.index) == Array(0..<out.count))
        #expect(out.contains { $0.frame.sampleCount == 0 && $0.frame.yaw == 0 })
        for f in out { #expect(abs(f.time - Double(f.index) / 60) < 1e-12) }
    }

    /// A timestamp jump longer than the maximum gap emits no frames for it.
    @Test func gapsAreSkipped() throws {
        var frames = try GyroAimFrames(frameRate: 60)
        var out: [TimedAimFrame] = []
        frames.add(Self.output(0, yaw: 1)) { out.append($0) }
        frames.add(Self.output(1e12, yaw: 1, flags: .gap)) { out.append($0) }
        frames.finish { out.append($0) }
        #expect(out.count == 2 && frames.gapCount == 1 && out[1].frame.flags.contains(.gap))
    }
}
