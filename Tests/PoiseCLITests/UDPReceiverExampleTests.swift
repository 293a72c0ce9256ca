import Foundation
import Testing

/// Examples/UDPReceiver, the game loop a developer copies, fed by `poise replay --send` in real
/// time: it gets every sample, and the newest sample per 60 Hz frame advances at the recorded pace.
@Suite struct UDPReceiverExampleTests {
    @Test func aRealTimeReplayReachesTheGameLoopAtTheRecordedPace() throws {
        let example = try #require(PoiseProcess.executable?.deletingLastPathComponent().appendingPathComponent("ExampleUDPReceiver"),
                                   "the example is built next to poise")
        try #require(FileManager.default.isExecutableFile(atPath: example.path), "swift build builds ExampleUDPReceiver")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 100, rate: 100)   // 1 s
        let port = try LiveCommandTests.freePort()
        let receiver = Process()
        receiver.executableURL = example
        receiver.arguments = [String(port), "120"]                  // 2 s of frames
        let output = Pipe()
        receiver.standardOutput = output
        try receiver.run()
        Thread.sleep(forTimeInterval: 0.3)
        let replay = try PoiseProcess.run(["replay", input, "--pipeline", "none", "--normal-priority",
                                           "--send", "udp://127.0.0.1:\(port)"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        receiver.waitUntilExit()
        #expect(text.contains("received 100 samples"), "\(text)")
        // (frame number, newest sample time) per frame that got data.
        let frames: [(Int, Double)] = text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 4, parts[0] == "frame", let frame = Int(parts[1]), let time = Double(parts[3]) else { return nil }
            return (frame, time)
        }
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.1 < $1.1 }, "the newest sample moves forward")
        let wall = Double(last.0 - first.0) / 60, recorded = last.1 - first.1
        #expect(recorded > 0.8 && abs(wall / recorded - 1) < 0.25, "recorded \(recorded) s over \(wall) s of frames")
    }
}
