import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// A recording with NaN and ±Inf values replayed through a full pipeline: strict reading names
/// the first bad value; lenient reading repairs it, and the replay output and report stay finite.
@Suite struct ReplayNonFiniteTests {
    func write(badEvery: Int) throws -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        let bad = ["nan", "inf", "-inf", "NaN", "-Infinity", "1e400"]
        for (n, s) in simulatedRecording().enumerated() {
            var fields = [s.time, s.acceleration.x, s.acceleration.y, s.acceleration.z,
                          s.rotationRate.x, s.rotationRate.y, s.rotationRate.z].map { "\($0)" }
            if n > 0, n % badEvery == 0 { fields[1 + (n / badEvery) % 6] = bad[(n / badEvery) % bad.count] }
            text += fields.joined(separator: ",") + "\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-nonfinite-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func strictReadingNamesTheFirstNonFiniteValue() throws {
        let path = try write(badEvery: 50)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: RecordingError.self) {
            _ = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=5|tilt", speed: .maximum,
                                                realTimePriority: false))
        }
        // Row 50 is line 52 (header + 1-based); its bad value is in field (50 / 50) % 6 + 1 = 2, column 3.
        #expect(error?.line == 52 && error?.column == 3, "\(String(describing: error))")
    }

    @Test(arguments: ["lowpass:cutoff=5|tilt", "remap:+Y-X+Z|butter:lowpass,order=4,cutoff=8|tilt", "oneeuro:mincutoff=1,beta=0.3"])
    func lenientReplayKeepsEveryOutputFinite(pipeline: String) throws {
        let path = try write(badEvery: 23)
        let output = path + ".out.csv"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: output) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: pipeline, speed: .maximum, outputPath: output,
                                                      readOptions: ReadOptions(strict: false), realTimePriority: false))
        #expect(session.scan.sampleCount == 1400)
        #expect(session.scan.issues.count >= 1400 / 23 - 1)
        let report = try session.run(clock: ScriptedClock())
        #expect(report.samples == 1400)
        let text = try String(contentsOfFile: output, encoding: .utf8).lowercased()
        #expect(!text.contains("nan") && !text.contains("inf"))
        let lines = text.split(separator: "\n")
        let rows = lines.dropFirst()
        #expect(rows.count == 1400)
        // `home_event` is the one text column (the tilt stage's home events: "initial", …).
        let header = lines.first.map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? []
        let textColumns = Set(header.indices.filter { header[$0] == "home_event" })
        for row in rows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() where !textColumns.contains(index) && !field.isEmpty
                && (Double(field) == nil || !Double(field)!.isFinite) {
                Issue.record("non-numeric or non-finite field '\(field)' in \(row)")
                return
            }
        }
        for stage in report.stages {
            if let jitter = stage.jitter { #expect(jitter.output.isFinite && jitter.input.isFinite) }
            if let lag = stage.lagMilliseconds { #expect(lag.isFinite) }
        }
    }
}
