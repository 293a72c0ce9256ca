import Foundation
import Testing
@testable import PoiseCLI

@Suite struct FilterCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func stepReportsTwentyTwoSamplesForTheClassicFactor() throws {
        let command = try StepCommand.parse(["--filter", "factor:k=0.1", "--rate", "60", "--json"])
        let object = try json(try command.output())
        #expect(object["latency90_samples"] as? Int == 22)
        #expect(abs((object["latency90_ms"] as? Double ?? 0) - 22 / 60.0 * 1000) < 1e-9)
        #expect(object["shake_latency90_samples"] as? Int == 22)
        #expect(object["filter"] as? String == "factor:k=0.1")
    }

    @Test func stepTextNamesBothSteps() throws {
        let text = try StepCommand.parse(["--filter", "accelgraph:cutoff=5,adaptive", "--rate", "60"]).output()
        #expect(text.contains("tilt step"))
        #expect(text.contains("30 samples  500.0 ms"))
        #expect(text.contains("shake step"))
    }

    @Test func poiseAdaptiveFilterTakesTwoSamples() throws {
        let object = try json(try StepCommand.parse(["--filter", "adaptive", "--json"]).output())
        #expect(object["latency90_samples"] as? Int == 2)
        #expect(object["rate_hz"] as? Double == 100)
    }

    @Test func badSpecsAreReportedWithTheirToken() throws {
        // A bad spec is a usage error, found while parsing the arguments (exit 64), with its token.
        do {
            _ = try StepCommand.parse(["--filter", "butter:lowpass,order=12,cutoff=5"])
            Issue.record("a bad spec parsed")
        } catch {
            #expect(StepCommand.message(for: error).contains("order=12"))
            #expect(StepCommand.exitCode(for: error).rawValue == 64)
        }
        #expect(throws: (any Error).self) { try StepCommand.parse(["--filter", "lowpass:cutoff=5", "--rate", "-3"]) }
    }

    /// A small Poise-named recording: 3 s still with noise, then a 1 s rotation.
    static func writeRecording() throws -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        var state: UInt64 = 42
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.01
        }
        for n in 0..<400 {
            let t = Double(n) / 100
            let turning = t >= 3
            text += "\(t),\(noise()),\(noise()),\(1 + noise()),0,0,\(turning ? 1.0 : 0.001)\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-jitter-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func jitterReportsFilteredAndRawJitterOnStillSegments() throws {
        let path = try Self.writeRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let object = try json(try JitterCommand.parse([path, "--filter", "lowpass:cutoff=2", "--json"]).output())
        let jitter = try #require(object["jitter"] as? Double)
        let raw = try #require(object["raw_jitter"] as? Double)
        let seconds = try #require(object["still_seconds"] as? Double)
        #expect(raw > 0.003 && raw < 0.007)         // uniform ±0.005 on 3 axes: ≈ 0.005
        #expect(jitter < raw / 2)
        #expect(abs((object["attenuation"] as? Double ?? 0) - raw / jitter) < 1e-9)
        #expect(seconds > 2.5 && seconds < 3.01)
        #expect(abs((object["rate_hz"] as? Double ?? 0) - 100) < 1e-6)
    }

    @Test func stepWithRealNoiseNamesTheSegmentUsed() throws {
        let path = try Self.writeRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let object = try json(try StepCommand.parse(["--filter", "factor:k=0.1", "--rate", "60", "--noise", path, "--json"]).output())
        let noise = try #require(object["noise"] as? String)
        #expect(noise.contains(path) && noise.contains("samples 0..<"))
        // ±0.005 g of noise cannot move a 22-sample crossing of a 1.41 g step by more than one sample.
        let samples = try #require(object["latency90_samples"] as? Int)
        #expect(abs(samples - 22) <= 1)
    }

    static var xioPath: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("../shared/data/xio/sensor_data.csv").standardizedFileURL.path
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: xioPath), "../shared/data/xio/sensor_data.csv is absent"))
    func jitterOnTheXioExampleShowsPoiseAdaptiveBelowAccelerometerGraph() throws {
        let path = Self.xioPath
        let apple = try json(try JitterCommand.parse([path, "--filter", "accelgraph:cutoff=5,adaptive", "--rate", "100", "--json"]).output())
        let poise = try json(try JitterCommand.parse([path, "--filter", "adaptive", "--rate", "100", "--json"]).output())
        #expect((poise["still_seconds"] as? Double ?? 0) > 30)
        #expect((poise["jitter"] as? Double ?? 1) <= (apple["jitter"] as? Double ?? 0))
        #expect(poise["raw_jitter"] as? Double == apple["raw_jitter"] as? Double)
    }

    @Test func jitterReportsAMissingFileByName() throws {
        let command = try JitterCommand.parse(["/nonexistent/file.csv", "--filter", "adaptive"])
        do {
            _ = try command.output()
            Issue.record("missing file accepted")
        } catch {
            #expect("\(error)".contains("/nonexistent/file.csv"))
        }
    }
}
