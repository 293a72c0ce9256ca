import Foundation
import PoiseCLI
import Testing

@Suite("poise simulate and poise info end to end")
struct RecordingCommandTests {
    func inTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poise-rec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    @Test("simulate writes a deterministic file that info reads back")
    func simulateThenInfo() throws {
        try inTemporaryFolder { folder in
            let a = folder.appendingPathComponent("a.csv").path
            let b = folder.appendingPathComponent("b.csv").path
            let message = try SimulateCommand.parse(["--scenario", "tilt-steps", "--duration", "8", "--rate", "50", "--seed", "9", "--out", a]).output()
            #expect(message.hasPrefix("wrote ") && message.contains("tilt-steps, 8.0 s at 50.0 Hz, seed 9"))
            _ = try SimulateCommand.parse(["--scenario", "tilt-steps", "--duration", "8", "--rate", "50", "--seed", "9", "--out", b]).output()
            #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
            let json = try InfoCommand.parse([a, "--json"]).output()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(abs((object["duration_s"] as? Double ?? 0) - 8) < 0.05)
            #expect(abs((object["sample_rate_hz"] as? Double ?? 0) - 50) < 1)
            #expect((object["rows"] as? Int ?? 0) > 390)
            #expect((object["still_segments"] as? [Any])?.isEmpty == false)
            let text = try InfoCommand.parse([a]).output()
            #expect(text.contains("acc_x_g → acceleration.x [g]") && text.contains("still segments"))
        }
    }

    @Test("bad arguments and bad files are clear errors")
    func errors() throws {
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["--scenario", "dance", "--out", "/tmp/x.csv"]) }
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["--scenario", "still", "--rate", "0", "--out", "/tmp/x.csv"]) }
        try inTemporaryFolder { folder in
            let bad = folder.appendingPathComponent("bad.csv").path
            try "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,0,x,1\n".write(toFile: bad, atomically: true, encoding: .utf8)
            let error = #expect(throws: (any Error).self) { try InfoCommand.parse([bad, "--strict"]).output() }
            #expect("\(error!)".contains("bad.csv:3:3:"))
            let lenient = try InfoCommand.parse([bad]).output()
            #expect(lenient.contains("not_a_number") || lenient.contains("notANumber"))
        }
    }
}
