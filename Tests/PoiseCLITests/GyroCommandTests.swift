import Foundation
import Poise
import PoiseRecording
import Testing
@testable import PoiseCLI

@Suite struct GyroCommandTests {
    /// A recording of a known turn: still 2 s, 360° to the right about the vertical in 4 s with
    /// the device tilted 30° (top edge up), still 1 s; gyroscope bias (0.9, −0.7, 0.5) °/s.
    static func turnRecording(_ scratch: OrientationScratch, accelerometer: Bool = true) throws -> String {
        let tilt = 30 * Double.pi / 180
        let up = SIMD3(0, Double.sin(tilt), Double.cos(tilt))
        let bias = SIMD3(0.9, -0.7, 0.5)
        var text = accelerometer ? "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_dps,gyr_y_dps,gyr_z_dps\n" : "t_s,gyr_x_dps,gyr_y_dps,gyr_z_dps\n"
        for k in 0...700 {
            let t = Double(k) / 100
            let turning = k > 200 && k <= 600
            let rate = (turning ? -90.0 : 0) * up + bias
            text += ([t] + (accelerometer ? [up.x, up.y, up.z] : []) + [rate.x, rate.y, rate.z]).map { "\($0)" }.joined(separator: ",") + "\n"
        }
        let path = scratch.path(accelerometer ? "turn.csv" : "turn-gyro-only.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func rows(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `poise gyro` is the `gyroaim` stage: each frame is the sum of the per-sample turns that
    /// `replay --pipeline gyroaim` writes for its samples, in order, and carries their flags.
    @Test(arguments: [([String](), "gyroaim"), (["--camera-per-360", "720", "--space", "local", "--smoothing", "0"],
                                               "gyroaim:camera360=720,space=local,smooth=0")])
    func framesAreTheStagesSamplesSummed(options: [String], pipeline: String) throws {
        let input = SpectrumCommandTests.packageRoot.appendingPathComponent("data/rotations-with-breaks.csv").path
        let scratch = try Scratch()
        defer { scratch.remove() }
        let gyro = try PoiseProcess.run(["gyro", input, "--out", scratch.path("gyro.csv")] + options)
        #expect(gyro.status == 0, "\(gyro.stderr)")
        let replay = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", pipeline, "--out", scratch.path("replay.csv")])
        #expect(replay.status == 0, "\(replay.stderr)")
        let frames = try Self.rows(scratch.path("gyro.csv"))
        let samples = try Self.rows(scratch.path("replay.csv"))
        #expect(frames[0] == ["t_s", "aim_yaw_deg", "aim_pitch_deg", "aim_flags", "samples"])
        let yaw = try #require(samples[0].firstIndex(of: "aim_yaw_deg")), pitch = yaw + 1, flags = yaw + 2
        #expect(samples[0][flags] == "aim_flags")
        var next = 1
        var moved = 0
        for frame in frames.dropFirst() {
            let count = try #require(Int(frame[4]))
            let group = samples[next ..< next + count]
            next += count
            #expect(Double(frame[1]) == group.reduce(0.0) { $0 + Double($1[yaw])! } + 0)
            #expect(Double(frame[2]) == group.reduce(0.0) { $0 + Double($1[pitch])! } + 0)
            let names = Set(group.flatMap { $0[flags].split(separator: "|").map(String.init) })
            #expect(Set(frame[3].split(separator: "|").map(String.init)) == names)
            if Double(frame[1]) != 0 { moved += 1 }
        }
        #expect(next == samples.count && moved > 100)
    }

    /// The frames of a 360° turn add up to the configured camera turn within 0.5 %, at 60 Hz,
    /// with the bias calibrated away during the still start.
    @Test(arguments: [(["--sensitivity", "1"], 360.0), (["--camera-per-360", "540"], 540.0)])
    func framesAddUpToTheConfiguredTurn(options: [String], expected: Double) throws {
        let scratch = OrientationScratch()
        let input = try Self.turnRecording(scratch)
        let out = scratch.path("game.csv")
        try runPoise(["gyro", input, "--out", out] + options)
        let rows = try Self.rows(out)
        #expect(rows[0] == ["t_s", "aim_yaw_deg", "aim_pitch_deg", "aim_flags", "samples"])
        let frames = rows.dropFirst()
        #expect(frames.count == 421)                     // 7 s at 60 Hz, and frame 0
        let late = frames.filter { Double($0[0])! >= 1.5 }
        let yaw = late.reduce(0) { $0 + Double($1[1])! }
        #expect(abs(yaw - expected) <= 0.005 * expected, "yaw \(yaw)")
        #expect(frames.contains { $0[3].split(separator: "|").contains("calibrating") })
        for (i, f) in frames.enumerated() {
            let t = Double(f[0]) ?? .nan
            #expect(abs(t - Double(i) / 60) < 1e-9)
        }
    }

    /// The summary's `flags:` line gives, per flag, the samples that carry it (`calibrating` left
    /// out), as `replay --pipeline gyroaim` flags them one by one.
    @Test func summaryCountsEachFlagsSamples() throws {
        let scratch = OrientationScratch()
        var lines = try String(contentsOfFile: Self.turnRecording(scratch), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        lines.insert(lines[100], at: 101)        // a repeated row: time not increasing
        lines.removeSubrange(400..<550)          // 1.5 s of rows left out: a gap
        let input = scratch.path("flagged.csv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let gyro = try PoiseProcess.run(["gyro", input, "--out", scratch.path("gyro.csv")])
        #expect(gyro.status == 0, "\(gyro.stderr)")
        let replay = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "gyroaim", "--out", scratch.path("replay.csv")])
        #expect(replay.status == 0, "\(replay.stderr)")
        let samples = try Self.rows(scratch.path("replay.csv"))
        let column = try #require(samples[0].firstIndex(of: "aim_flags"))
        var expected: [String: Int] = [:]
        for row in samples.dropFirst() {
            for name in row[column].split(separator: "|") where name != "calibrating" { expected[String(name), default: 0] += 1 }
        }
        #expect(expected.keys.contains("gap") && expected.keys.contains("time-not-increasing"), "\(expected)")
        let line = try #require(gyro.stdout.split(separator: "\n").first { $0.hasPrefix("flags: ") })
        var listed: [String: Int] = [:]
        for item in line.dropFirst("flags: ".count).split(separator: ", ") {
            let parts = item.split(separator: " ")
            listed[String(parts[0])] = Int(parts[1])
        }
        #expect(listed == expected, "\(line)")
    }

    /// Player space needs the accelerometer; local space does not.
    @Test func sensorsTheSpaceNeeds() throws {
        let scratch = OrientationScratch()
        let input = try Self.turnRecording(scratch, accelerometer: false)
        #expect(throws: (any Error).self) { try runPoise(["gyro", input, "--out", scratch.path("a.csv")]) }
        do { try runPoise(["gyro", input, "--out", scratch.path("a.csv")]) } catch {
            #expect("\(error)".contains("--space local"), "\(error)")
        }
        try runPoise(["gyro", input, "--space", "local", "--out", scratch.path("b.csv")])
        let yaw = try Self.rows(scratch.path("b.csv")).dropFirst().reduce(0) { $0 + Double($1[1])! }
        // Local space about the tilted screen normal: cos 30° of the turn, plus the uncorrected first second.
        #expect(abs(yaw - 360 * Double.cos(Double.pi / 6)) < 3, "yaw \(yaw)")
    }

    /// --compare-smoothing lists the three kinds with lag, jitter and a Pareto front.
    @Test func compareSmoothingListsTheFront() throws {
        let scratch = OrientationScratch()
        let out = scratch.path("compare.csv")
        try runPoise(["gyro", SpectrumCommandTests.packageRoot.appendingPathComponent("data/rotations-with-breaks.csv").path,
                      "--compare-smoothing", "--out", out])
        let rows = try Self.rows(out)
        #expect(rows[0] == ["kind", "settings", "lag_ms", "jitter_degps", "slow_step_ms", "fast_step_ms", "pareto"])
        let kinds = Set(rows.dropFirst().map { $0[0] })
        #expect(kinds == ["none", "tiered", "onepole", "oneeuro"])
        #expect(rows.contains { $0.last == "front" })
        // A one-pole of 30 ms lags more and jitters less than one of 5 ms (longer ones carry the
        // end of a movement into the still segments and jitter more there).
        let onePole = rows.filter { $0[0] == "onepole" }
        let short = try #require(onePole.first { $0[1] == "\"tau=0.005\"" }), long = try #require(onePole.first { $0[1] == "\"tau=0.03\"" })
        #expect(Double(long[2])! > Double(short[2])! && Double(long[3])! < Double(short[3])!)
        // Tiered smoothing: a slow turn starts as late as with the one-pole of the same τ, a fast
        // one at once (one sample); the one-pole delays both alike.
        let tieredLine = try #require(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("tiered,\"threshold=5.0,tau=0.03\"") })
        let tiered = tieredLine.split(separator: ",").map(String.init)   // the settings hold one comma
        #expect(tiered[5] == long[4] && Double(tiered[6])! <= 10.01 && Double(long[5])! > 50)
    }

    /// --report writes a self-contained page with the aim path, the angles and the speeds.
    @Test func reportPage() throws {
        let scratch = OrientationScratch()
        let input = try Self.turnRecording(scratch)
        let page = scratch.path("aim.html")
        try runPoise(["gyro", input, "--out", scratch.path("aim.csv"), "--report", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Aim path") && html.contains("Device turn speed") && html.components(separatedBy: "<svg").count == 4)
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(throws: (any Error).self) { try runPoise(["gyro", input, "--report", "-"]) }
    }
}
