import Foundation
import Testing
import Poise
@testable import PoiseRun

@Suite struct ReplaySessionTests {
    func write(_ samples: [MotionSample]) throws -> String { try writeRecording(samples) }

    @Test func reportCombinesExactTimingWithStageFigures() throws {
        let path = try write(simulatedRecording())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = path + ".out.csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "factor:k=0.1", outputPath: output,
                                                      realTimePriority: false))
        // Every wake-up 40 µs late, except sample 700's: 12 ms (more than one 10 ms period).
        var clock = ScriptedClock()
        clock.lateness = { $0 == lead + 7_000_000_000 ? 12_000_000 : 40_000 }
        let report = try session.run(clock: clock)

        #expect(report.samples == 1400)
        #expect(report.pipeline == "factor:k=0.1")
        let lateness = try #require(report.timing.latenessMicroseconds)
        #expect(lateness.p50 == 40)
        #expect(lateness.max == 12_000)
        #expect(report.timing.lateSamples == 1)
        #expect(report.timing.driftMicroseconds == 0)
        // Sample 701 is due 2 ms before 700 arrives, so it is delivered at once, 2000 µs late;
        // every other sample sleeps and wakes 40 µs late: mean (1398·40 + 12000 + 2000) / 1400.
        #expect(abs(lateness.mean - (1398.0 * 40 + 12_000 + 2_000) / 1400) < 1e-9)
        #expect(report.latency90Samples == StepLatencySamples(tilt: 22, shake: 22))
        #expect(report.stages.count == 1)
        #expect(report.stillSegments == 2)
        #expect(report.jitter?.attenuation ?? 0 > 5)
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 1401)
        // JSON round trip keeps the report.
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(ReplayReport.self, from: data) == report)
    }

    /// `delivered` runs once, after the output file is complete and before the metrics pass (the
    /// CLI restores Ctrl-C there, so the metrics pass can be interrupted without losing output).
    @Test func deliveredHookRunsOnceWithTheOutputComplete() throws {
        let path = try write(simulatedRecording())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = path + ".hook.csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=5", speed: .maximum,
                                                      outputPath: output, realTimePriority: false))
        var calls = 0
        var rowsAtHook = 0
        let report = try session.run(clock: ScriptedClock(), delivered: {
            calls += 1
            rowsAtHook = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count
        })
        #expect(calls == 1)
        #expect(rowsAtHook == 1401)
        #expect(report.stages.count == 1)
    }
}
