import Foundation
import Poise
import PoiseRecording
import Testing

/// Examples/GyroAim, the game loop a developer copies, on the recording it reads by default: the
/// frames' gyro turns add up to what `GyroAim` gives sample by sample, and the scripted flick
/// stick turns the camera right by the flick plus the stick's rotation.
@Suite struct GyroAimExampleTests {
    @Test func theGameLoopLosesNoTurnAndFlicks() throws {
        let example = try #require(PoiseProcess.executable?.deletingLastPathComponent().appendingPathComponent("ExampleGyroAim"),
                                   "the example is built next to poise")
        try #require(FileManager.default.isExecutableFile(atPath: example.path), "swift build builds ExampleGyroAim")
        let root = SpectrumCommandTests.packageRoot
        let process = Process()
        process.executableURL = example
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let last = try #require(text.split(separator: "\n").last.map(String.init))
        let pattern = try NSRegularExpression(pattern: "gyro turned the camera ([-+0-9.]+)° in yaw, the flick stick ([-+0-9.]+)°")
        let match = try #require(pattern.firstMatch(in: last, range: NSRange(last.startIndex..., in: last)), "\(last)")
        let gyroYaw = try #require(Double(last[Range(match.range(at: 1), in: last)!]))
        let flickYaw = try #require(Double(last[Range(match.range(at: 2), in: last)!]))
        // The same settings sample by sample, every sample up to the last frame.
        let recording = try Recording.load(path: root.appendingPathComponent("data/rotations-with-breaks.csv").path)
        var settings = GyroAimSettings()
        let samples = recording.samples
        settings.sampleRate = Double(samples.count - 1) / (samples.last!.time - samples.first!.time)
        var aim = try GyroAim(settings: settings)
        let end = samples.first!.time + Double(Int((samples.last!.time - samples.first!.time) * 60)) / 60
        let total = samples.filter { $0.time <= end + 1e-9 }.reduce(0.0) { $0 + aim.process($1).yaw }
        #expect(abs(gyroYaw - total) < 0.01, "\(gyroYaw) vs \(total)")
        // 90° flick, then the stick rotates 90° more (its last frame at 6.483 s: 178.5°).
        #expect(flickYaw > 175 && flickYaw <= 180, "\(flickYaw)")
    }
}
