import Foundation
import Testing
@testable import PoiseCLI

/// `poise allan` end to end: noise figures of a simulated still recording with known noise, the
/// Kalibr file and the HTML page, reading options, and the refusals of unusable recordings.
@Suite struct AllanCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("poise-allan-\(UUID().uuidString)-\(name)").path
    }

    /// A still recording with perfect sensors plus white noise (gyro 1e-4 rad/s/√Hz, accel
    /// 1e-3 m/s²/√Hz) and a gyroscope rate random walk of 3e-4 rad/s²/√Hz, 300 s at 100 Hz.
    static func stillRecording() throws -> String {
        let path = temporary("still.csv")
        _ = try SimulateCommand.parse(["--scenario", "still", "--ideal", "--duration", "300", "--gyro-noise-density", "1e-4",
                                       "--gyro-random-walk", "3e-4", "--accel-noise-density", "1e-3", "--out", path]).output()
        return path
    }

    @Test func jsonKalibrAndReportCarryTheSimulatedNoise() throws {
        let path = try Self.stillRecording()
        let yaml = Self.temporary("imu.yaml"), page = Self.temporary("allan.html")
        defer { for p in [path, yaml, page] { try? FileManager.default.removeItem(atPath: p) } }
        let output = try AllanCommand.parse([path, "--json", "--kalibr", yaml, "--report", page, "--rostopic", "/imu"]).render()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(document["samples"] as? Int == 30001)
        #expect(abs(try #require(document["sample_rate_hz"] as? Double) - 100) < 1e-6)
        let axes = try #require(document["axes"] as? [[String: Any]])
        #expect(axes.map { $0["name"] as? String } == ["gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z"])
        for axis in axes {
            let gyroscope = (axis["name"] as! String).hasPrefix("gyr")
            let density = try #require(axis["noise_density"] as? Double)
            #expect(abs(density / (gyroscope ? 1e-4 : 1e-3) - 1) < 0.1, "\(axis["name"]!): \(density)")
            if gyroscope {
                let walk = try #require(axis["random_walk"] as? Double)
                #expect(abs(walk / 3e-4 - 1) < 0.25, "\(axis["name"]!): K \(walk)")
            } else {
                // White noise alone over 300 s: no random walk to read, and it says why.
                #expect(axis["random_walk"] == nil)
                #expect((axis["not_determined"] as? [String: String])?["acceleration random walk K"]?.contains("too short") == true)
            }
        }
        let kalibr = try String(contentsOfFile: yaml, encoding: .utf8)
        let line = try #require(kalibr.split(separator: "\n").first { $0.hasPrefix("gyroscope_noise_density: ") })
        let value = try #require(Double(line.dropFirst("gyroscope_noise_density: ".count).split(separator: " ")[0]))
        #expect(abs(value / 1e-4 - 1) < 0.1)
        #expect(kalibr.contains("\ngyroscope_random_walk: "))
        #expect(kalibr.contains("# accelerometer_random_walk: not determined"))
        #expect(kalibr.contains("rostopic: /imu\n") && kalibr.contains("update_rate: 100.000"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("Gyroscope overlapping Allan deviation") && html.contains("not determined"))
    }

    /// A headerless copy read through --columns (time in ms) gives the same figures.
    @Test func readingOptionsApply() throws {
        let path = try Self.stillRecording()
        let bare = Self.temporary("bare.csv")
        defer { for p in [path, bare] { try? FileManager.default.removeItem(atPath: p) } }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let columns = ["t_s", "acc_x_g", "acc_y_g", "acc_z_g", "gyr_x_radps", "gyr_y_radps", "gyr_z_radps"].map { header.firstIndex(of: $0)! }
        var text = ""
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            text += "\(Double(fields[columns[0]])! * 1000)," + columns.dropFirst().map { String(fields[$0]) }.joined(separator: ",") + "\n"
        }
        try text.write(toFile: bare, atomically: true, encoding: .utf8)
        let plain = try AllanCommand.parse([path]).render()
        let mapped = try AllanCommand.parse([bare, "--columns", "t=1:ms,acc=2,3,4:g,gyr=5,6,7:radps"]).render()
        #expect(plain.split(separator: "\n").dropFirst() == mapped.split(separator: "\n").dropFirst())
    }

    static func expectRefusal(_ arguments: [String], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try AllanCommand.parse(arguments).render()
            Issue.record("no error for \(arguments)", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func movingRecordingIsRefusedWithItsShare() {
        let demo = SpectrumCommandTests.packageRoot.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        Self.expectRefusal([demo], "ADEV needs a still recording; 26 % of this one moves")
        // A still stretch of it is accepted.
        #expect((try? AllanCommand.parse([demo, "--end", "3"]).render()) != nil)
    }

    @Test func shortSaturatedAndNonFiniteRecordingsAreRefused() throws {
        let path = Self.temporary("bad.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func write(_ count: Int, _ row: (Int) -> String) throws {
            var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
            for i in 0..<count { text += "\(Double(i) / 100)," + row(i) + "\n" }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let noise = { (i: Int) in Double((i * 7919) % 13) * 1e-4 }
        try write(50) { "0,0,1,\(noise($0)),0,0" }
        Self.expectRefusal([path], "50 samples; the Allan deviation needs at least 100")
        try write(1000) { "8,0,1,\(noise($0)),0,0" }
        Self.expectRefusal([path], "acc_x is saturated: 1000 samples (100 %) sit at ±8.0 g")
        try write(1000) { $0 == 500 ? "0,0,1,nan,0,0" : "0,0,1,\(noise($0)),0,0" }
        // The reader itself refuses it, with the place.
        Self.expectRefusal([path], "bad.csv:502:5: non-finite value nan in gyr_x_radps")
    }

    /// `--end` stops reading at the first sample after it: a malformed row a few rows later is
    /// never parsed, and the output is that of the file cut there.
    @Test func endStopsReadingAtTheEndTime() throws {
        let path = Self.temporary("tail.csv"), cut = Self.temporary("cut.csv")
        defer { for p in [path, cut] { try? FileManager.default.removeItem(atPath: p) } }
        let header = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        let rows = (0..<3000).map { i in "\(Double(i) / 100),0,0,1,\(Double((i * 7919) % 13) * 1e-4),0,0\n" }
        try (header + rows.joined() + "30.00,0,0,one,0,0,0\n").write(toFile: path, atomically: true, encoding: .utf8)
        try (header + rows.prefix(2001).joined()).write(toFile: cut, atomically: true, encoding: .utf8)
        Self.expectRefusal([path], "tail.csv:3002:")
        let ended = try AllanCommand.parse([path, "--end", "20", "--json"]).render()
        let whole = try AllanCommand.parse([cut, "--json"]).render()
        let escaped = { (path: String) in path.replacingOccurrences(of: "/", with: "\\/") }  // as JSON writes it
        #expect(ended.replacingOccurrences(of: escaped(path), with: escaped(cut)) == whole)
        #expect(ended.contains("\"samples\":2001"))
    }

    /// BROAD trial 02 (../shared, skipped when absent) lies still for its first 39.7 s: the white
    /// noise is determined (docs/noise.md quotes it), the bias terms are not, with their reasons.
    static let broad02 = SpectrumCommandTests.packageRoot
        .appendingPathComponent("../shared/data/broad/02_undisturbed_slow_rotation_B.csv").standardizedFileURL.path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: broad02), "../shared/data/broad is absent (fresh clone): skipped"))
    func realStillStretchGivesWhiteNoiseOnly() throws {
        let output = try AllanCommand.parse([Self.broad02, "--end", "39.6", "--json"]).render()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(document["samples"] as? Int == 11315)
        let axes = try #require(document["axes"] as? [[String: Any]])
        let gyroDensity = axes.prefix(3).compactMap { $0["noise_density"] as? Double }
        #expect(gyroDensity.count == 3 && gyroDensity.allSatisfy { $0 > 5e-5 && $0 < 2e-4 }, "\(gyroDensity)")
        let accelDensity = axes.suffix(3).compactMap { $0["noise_density"] as? Double }
        #expect(accelDensity.count == 3 && accelDensity.allSatisfy { $0 > 1e-3 && $0 < 1e-2 }, "\(accelDensity)")
        for axis in axes {
            #expect(axis["random_walk"] == nil && axis["bias_instability"] == nil)
            #expect((axis["not_determined"] as? [String: String])?.count == 2)
        }
    }
}
