import Foundation
import Testing
@testable import PoiseCLI

@Suite struct SpectrumCommandTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// Writes a 100 Hz recording: acc_x carries a 12.5 Hz sine of amplitude 0.1 g on 1 g.
    static func syntheticRecording() throws -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for n in 0..<2000 {
            let t = Double(n) / 100
            let x = 0.1 * sin(2 * Double.pi * 12.5 * t)
            text += "\(t),\(x),0,1,0,0,\(0.01 * sin(2 * Double.pi * 3 * t))\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("poise-spectrum-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let output = try SpectrumCommand.parse(arguments).render()
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func jsonHasFrequenciesPsdAndPeaks() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let document = try Self.json([path, "--columns", "acc_x,gyr_z", "--json"])
        let frequencies = try #require(document["frequencies_hz"] as? [Double])
        #expect(document["segment_length"] as? Int == 256)        // largest power of two ≤ 2000/4
        #expect(frequencies.count == 129 && abs(frequencies.last! - 50) < 1e-9)
        let columns = try #require(document["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ["acc_x", "gyr_z"])
        let psd = try #require(columns[0]["psd"] as? [Double])
        #expect(psd.count == frequencies.count)
        let peak = try #require((columns[0]["peaks"] as? [[String: Any]])?.first)
        #expect(abs(try #require(peak["frequency_hz"] as? Double) - 12.5) < 1e-6)   // on a bin: symmetric neighbours
        let gyroPeak = try #require((columns[1]["peaks"] as? [[String: Any]])?.first)
        #expect(abs(try #require(gyroPeak["frequency_hz"] as? Double) - 3) < 0.05)
        // The 5–20 Hz band holds the sine's power A²/2 = 0.005 g².
        let bands = try #require(columns[0]["band_power"] as? [[String: Any]])
        let band = try #require(bands.first { $0["low_hz"] as? Double == 5 })
        #expect(abs(try #require(band["power"] as? Double) - 0.005) < 1e-5)
        #expect(bands.last?["high_hz"] is NSNull || bands.last?["high_hz"] == nil)
    }

    @Test func csvAndTextOutputs() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let csv = try SpectrumCommand.parse([path, "--columns", "acc_x,acc_z", "--nperseg", "200", "--csv"]).render()
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "frequency_hz,acc_x,acc_z")
        #expect(lines.count == 1 + 101)
        #expect(lines[1].hasPrefix("0.0,"))
        let text = try SpectrumCommand.parse([path, "--columns", "acc_x", "--window", "flattop"]).render()
        #expect(text.contains("flattop window, 256-sample segments"))
        #expect(text.contains("peaks: 12.50 Hz"))
    }

    @Test func badArgumentsAreNamed() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        func message(_ arguments: [String]) -> String {
            do { _ = try SpectrumCommand.parse(arguments).render(); return "" } catch { return "\(error)" }
        }
        #expect(message([path, "--columns", "acc_w"]).contains("unknown column 'acc_w'"))
        #expect(message([path, "--window", "kaiser"]).contains("unknown window 'kaiser'"))
        #expect(message([path, "--columns", "mag_x"]).contains("no magnetometer"))
        #expect(message([path, "--nperseg", "5000"]).contains("fewer than one segment"))
        #expect(message([path, "--bands", "5-1"]).contains("bad band '5-1'"))
        #expect(message([path, "--json", "--csv"]).contains("choose one"))
        #expect(message(["/nonexistent.csv"]).contains("/nonexistent.csv"))
    }

    /// Done-criterion of issue 6: the phone-vibration peak of BROAD trial 27 is found and reported
    /// where scipy.signal.welch puts it (scripts/spectral_golden.py wrote the scipy values).
    @Test func findsTheVibrationInBroadTrial27() throws {
        let data = Self.packageRoot.appendingPathComponent("../shared/data/broad/27_disturbed_phone_vibration_B.csv").standardized
        guard FileManager.default.fileExists(atPath: data.path) else {
            print("skipped: \(data.path) is absent (BROAD data lives in ../shared, never in the repo)")
            return
        }
        let fixture = Self.packageRoot.appendingPathComponent("Tests/PoiseCLITests/Fixtures/broad27_vibration.json")
        let golden = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        let scipyPeaks = try #require(golden["peaks"] as? [String: [String: Double]])
        let document = try Self.json([data.path, "--columns", "acc_x,acc_y,acc_z", "--json"])
        let frequencies = try #require(document["frequencies_hz"] as? [Double])
        let resolution = try #require(document["frequency_resolution_hz"] as? Double)
        #expect(document["segment_length"] as? Int == 1024)
        for column in try #require(document["columns"] as? [[String: Any]]) {
            let name = try #require(column["name"] as? String)
            let scipy = try #require(scipyPeaks[name])
            let peaks = try #require(column["peaks"] as? [[String: Any]]).compactMap { $0["frequency_hz"] as? Double }
            // Reported among the peaks, within half a bin of scipy's peak bin.
            let vibration = try #require(peaks.first { abs($0 - scipy["frequency"]!) <= resolution / 2 }, "\(name): \(peaks)")
            #expect(vibration > 40 && vibration < 48)
            // Where scipy's largest peak is the vibration (acc_x, acc_y), ours is too.
            if scipy["largestPeakFrequency"] == scipy["frequency"] { #expect(peaks.first == vibration) }
            // Same PSD as scipy at that bin.
            let psd = try #require(column["psd"] as? [Double])
            let bin = try #require(frequencies.firstIndex { abs($0 - scipy["frequency"]!) < resolution / 100 })
            #expect(abs(psd[bin] - scipy["psd"]!) <= 1e-9 * scipy["psd"]!)
        }
    }
}
