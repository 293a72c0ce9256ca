import Foundation
import PoiseCLI
import Testing

@Suite("poise bench end to end")
struct BenchCommandTests {
    /// A 100 Hz recording written as a Poise CSV: still 0–4 s, turning about x (1 rad/s out and
    /// back) 4–8 s, still 8–12 s; small deterministic accelerometer noise throughout.
    static let csv: String = {
        var lines = ["t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps"]
        for i in 0..<1200 {
            let t = Double(i) / 100
            let noise = Double((i * 7919) % 13 - 6) * 0.0005
            var angle = 0.0, rate = 0.0
            if t >= 4 && t < 6 { angle = t - 4; rate = 1 }
            if t >= 6 && t < 8 { angle = 8 - t; rate = -1 }
            lines.append("\(t),\(noise),\(sin(angle) - noise),\(cos(angle) + noise),\(rate),0,0")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    func withRecording<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poise-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("turn.csv").path
        try Self.csv.write(toFile: path, atomically: true, encoding: .utf8)
        return try body(path)
    }

    func run(_ arguments: [String]) throws -> String {
        let command = try BenchCommand.parse(arguments)
        return try command.output()
    }

    @Test("JSON: latencies, Pareto flags and the recommendation for a sample target")
    func json() throws {
        let text = try withRecording { try run([$0, "--filter", "factor", "--grid", "k=0.05:0.3:0.05", "--target-latency", "22", "--json"]) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let points = try #require(object["points"] as? [[String: Any]])
        #expect(points.count == 6)
        #expect(points.map { $0["tilt_samples"] as? Int } == [45, 22, 15, 11, 9, 7])
        #expect(object["recommendation"] as? String == "factor:k=0.1")
        #expect(points.filter { $0["recommended"] as? Bool == true }.map { $0["spec"] as? String } == ["factor:k=0.1"])
        #expect(points.allSatisfy { ($0["jitter_g"] as? Double ?? 0) > 0 && ($0["attenuation"] as? Double ?? 0) > 1 })
        let recordings = try #require(object["recordings"] as? [[String: Any]])
        #expect(recordings.first?["still_segments"] as? Int == 2)
    }

    @Test("CSV: one row per point with the grid's columns")
    func csvOutput() throws {
        let text = try withRecording { try run([$0, "--filter", "butter", "--grid", "order=2/4,cutoff=2:6:2", "--csv"]) }
        let rows = text.split(separator: "\n")
        #expect(rows.count == 7)
        #expect(rows[0].hasPrefix("kind,spec,order,cutoff,tilt_samples"))
        #expect(rows[1].hasPrefix("butter,\"butter:lowpass,order=2,cutoff=2\",2,2,"))
        #expect(rows.dropFirst().filter { $0.hasSuffix(",1") }.count == 1)   // exactly one recommendation
    }

    @Test("Table marks the front and the recommendation; a ms target is honoured")
    func table() throws {
        let text = try withRecording { try run([$0, "--filter", "factor", "--grid", "k=0.1:0.5:0.1", "--target-latency", "80ms"]) }
        #expect(text.contains("target: latency ≤ 80 ms"))
        #expect(text.contains("recommendation for latency ≤ 80 ms: factor:k=0.3"))   // 7 samples = 70 ms; k=0.2 needs 110 ms
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("  >*") }.count == 1)
    }

    @Test("Compare mode reports every kind at its best within the target")
    func compare() throws {
        let text = try withRecording { try run([$0, "--compare", "--target-latency", "150ms", "--json"]) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let kinds = try #require(object["kinds"] as? [[String: Any]])
        #expect(kinds.map { $0["kind"] as? String } == ["factor", "lowpass", "butter", "accelgraph", "oneeuro", "adaptive"])
        for kind in kinds {
            let best = try #require(kind["best"] as? [String: Any])
            #expect((best["latency_ms"] as? Double ?? 1e9) <= 150)
        }
    }

    @Test("Bad arguments are reported, naming what is wrong")
    func errors() throws {
        try withRecording { path in
            #expect(throws: (any Error).self) { try BenchCommand.parse([path]) }   // neither --filter nor --compare
            #expect(throws: (any Error).self) { try BenchCommand.parse([path, "--compare", "--grid", "k=1"]) }
            #expect(throws: (any Error).self) { try BenchCommand.parse([path, "--filter", "factor", "--target-latency", "fast"]) }
            #expect(throws: (any Error).self) { try BenchCommand.parse([path, "--filter", "factor", "--json", "--csv"]) }
            #expect {
                try run([path, "--filter", "factor", "--grid", "k=0.1:0.5:0"])
            } throws: { "\($0)".contains("'k=0.1:0.5:0' at column 1") }
        }
    }
}
