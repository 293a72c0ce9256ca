import Foundation
import PoiseSpectral
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
        let document = try Self.json([path, "--channels", "acc_x,gyr_z", "--json"])
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

    /// `spectrum -` reads standard input (kept once, read by every pass) and says what the same
    /// file says.
    @Test func standardInputEqualsTheFile() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try PoiseProcess.run(["spectrum", path, "--json"])
        let piped = try PoiseProcess.run(["spectrum", "-", "--json"], standardInput: try #require(FileHandle(forReadingAtPath: path)))
        #expect(fromFile.status == 0 && piped.status == 0, "\(piped.stderr)")
        func withoutName(_ text: String) throws -> NSDictionary {
            var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(document["samples"] as? Int == 2000)
            document["file"] = nil
            return NSDictionary(dictionary: document)
        }
        #expect(try withoutName(piped.stdout) == withoutName(fromFile.stdout))
    }

    @Test func csvAndTextOutputs() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let csv = try SpectrumCommand.parse([path, "--channels", "acc_x,acc_z", "--nperseg", "200", "--csv"]).render()
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "frequency_hz,acc_x,acc_z")
        #expect(lines.count == 1 + 101)
        #expect(lines[1].hasPrefix("0.0,"))
        let text = try SpectrumCommand.parse([path, "--channels", "acc_x", "--window", "flattop"]).render()
        #expect(text.contains("flattop window, 256-sample segments"))
        #expect(text.contains("peaks: 12.50 Hz"))
    }

    /// `--still` picks the still first 6 s of a recording (white noise σ = 0.002 g on each axis,
    /// then a 2 Hz tilt-like motion) and reports the noise density σ·√(2/fs).
    @Test func stillSegmentNoiseDensity() throws {
        var random = SeededGenerator(state: 2026)
        func normal() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        let sigma = 0.002, rate = 200.0
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for n in 0..<2400 {
            let t = Double(n) / rate
            let moving = t >= 6 ? 1.0 : 0.0
            let swing = moving * 0.3 * sin(2 * Double.pi * 2 * t)
            text += "\(t),\(sigma * normal() + swing),\(sigma * normal()),\(1 + sigma * normal()),\(moving * 0.5),0,0\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("poise-still-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let document = try Self.json([url.path, "--still", "--channels", "acc_x,acc_y,acc_z", "--nperseg", "256", "--json"])
        #expect(try #require(document["end_s"] as? Double) < 6)
        #expect(try #require(document["samples"] as? Int) > 1000)
        let expected = sigma * (2 / rate).squareRoot()
        for column in try #require(document["columns"] as? [[String: Any]]) {
            let density = try #require(column["noise_density"] as? Double)
            #expect(abs(density - expected) < 0.1 * expected, "\(column["name"] ?? ""): \(density) vs \(expected)")
        }
    }

    /// `--spectrogram` shows when a tone is on: a 12.5 Hz sine of amplitude 0.1 g starting at
    /// 10 s appears in the segments after 10 s only, with power A²/2 in the 5–20 Hz band; the JSON
    /// rows equal the library's Spectrogram of the same column.
    @Test func spectrogramShowsWhenAToneStarts() throws {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        var column: [Double] = []
        var random = SeededGenerator(state: 7)
        for n in 0..<2000 {
            let t = Double(n) / 100
            let x = (t >= 10 ? 0.1 * sin(2 * Double.pi * 12.5 * t) : 0) + 0.001 * Double.random(in: -1...1, using: &random)
            column.append(Double("\(x)")!)
            text += "\(t),\(x),0,1,0,0,0\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("poise-tone-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let arguments = [url.path, "--spectrogram", "--channels", "acc_x", "--nperseg", "200", "--overlap=0"]
        let document = try Self.json(arguments + ["--json"])
        let times = try #require(document["times_s"] as? [Double])
        #expect(times.count == 10 && abs(times[0] - 1) < 1e-9)   // centres of 2 s segments
        let acc = try #require((document["columns"] as? [[String: Any]])?.first)
        let peaks = try #require(acc["peak_hz"] as? [Double])
        let bands = try #require(acc["band_power"] as? [[Double]])   // default bands: 0–1, 1–5, 5–20, 20– Hz
        for (t, time) in times.enumerated() {
            if time > 10 {
                #expect(abs(peaks[t] - 12.5) < 0.01)   // bins are 0.5 Hz apart
                #expect(abs(bands[t][2] - 0.005) < 2e-4, "\(time) s: \(bands[t][2])")
            } else {
                #expect(bands[t][2] < 1e-5, "\(time) s: \(bands[t][2])")
            }
        }
        let power = try #require(acc["power"] as? [[Double]])
        let rate = try #require(document["sample_rate_hz"] as? Double)
        let library = try Spectrogram(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: 200, overlap: 0)).compute(column)
        // Same numbers as the library on the column (to 1e-12: the sample rate, estimated from
        // the timestamps, comes back through JSON text and may differ in its last bit).
        #expect(power.count == library.power.count)
        for (row, expected) in zip(power, library.power) {
            #expect(zip(row, expected).allSatisfy { abs($0 - $1) <= 1e-12 * max(abs($1), 1e-300) })
        }
        let csv = try SpectrumCommand.parse(arguments + ["--csv"]).render().split(separator: "\n")
        #expect(csv.first == "time_s,frequency_hz,acc_x")
        #expect(csv.count == 1 + 10 * 101)
        let table = try SpectrumCommand.parse(arguments).render()
        #expect(table.contains("acc_x: dominant peak and band power (g²) per segment"))
    }

    @Test func badArgumentsAreNamed() throws {
        let path = try Self.syntheticRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        func message(_ arguments: [String]) -> String {
            do { _ = try SpectrumCommand.parse(arguments).render(); return "" } catch { return "\(error)" }
        }
        #expect(message([path, "--channels", "acc_w"]).contains("unknown channel 'acc_w'"))
        #expect(message([path, "--window", "kaiser"]).contains("unknown window 'kaiser'"))
        #expect(message([path, "--channels", "mag_x"]).contains("no magnetometer"))
        #expect(message([path, "--nperseg", "5000"]).contains("fewer than one segment"))
        #expect(message([path, "--bands", "5-1"]).contains("bad band '5-1'"))
        #expect(message([path, "--json", "--csv"]).contains("choose one"))
        #expect(message(["/nonexistent.csv"]).contains("/nonexistent.csv"))
    }

    /// The phone-vibration peak of BROAD trial 27 is found and reported
    /// where scipy.signal.welch puts it (Tests/Goldens/spectral_golden.py wrote the scipy values).
    static var broadTrial27: URL {
        packageRoot.appendingPathComponent("../shared/data/broad/27_disturbed_phone_vibration_B.csv").standardized
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: broadTrial27.path), "../shared/data/broad is absent"))
    func findsTheVibrationInBroadTrial27() throws {
        let data = Self.broadTrial27
        let fixture = Self.packageRoot.appendingPathComponent("Tests/PoiseCLITests/Fixtures/broad27_vibration.json")
        let golden = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        let scipyPeaks = try #require(golden["peaks"] as? [String: [String: Double]])
        let document = try Self.json([data.path, "--channels", "acc_x,acc_y,acc_z", "--json"])
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

/// A deterministic generator (64-bit LCG with an xor-shifted output) so the test never flakes.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
