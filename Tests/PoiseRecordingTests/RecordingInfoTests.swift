import Foundation
import Testing
@testable import PoiseRecording

@Suite struct RecordingInfoTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func xioIntervalsGapsHeldMagnetometerAndStillStart() throws {
        let data = try #require(sharedDataFolder())
        let info = try RecordingInfo.inspect(path: data + "/xio/sensor_data.csv")
        #expect(info.rows == 13_514)
        let groups = info.intervals!.histogram
        #expect(groups.count == 3)
        #expect(abs(groups[0].intervalMs - 7.56) < 0.01 && groups[0].count == 427)
        #expect(abs(groups[1].intervalMs - 10.08) < 0.01)
        #expect(abs(groups[2].intervalMs - 30.24) < 0.01 && groups[2].count == 10)
        #expect(info.gapCount == 10 && info.gaps.allSatisfy { $0.missingSamples == 2 })
        #expect(abs(info.sampleRateHz - 1000 / 10.079) < 0.05)
        let mag = info.held["magnetometer"]!
        #expect(mag.updateIntervalMs > 45 && mag.updateIntervalMs < 55)
        #expect(info.held["accelerometer"]!.fraction < 0.01)
        // README: still from 0 to 13.4 s and from 94.6 s to the end.
        let first = info.stillSegments.first!
        // (The core detector's centred 0.5 s accelerometer window ends a segment slightly early.)
        #expect(first.startS == 0 && first.endS > 12.5 && first.endS <= 13.45)
        #expect(abs(info.stillSegments.last!.endS - info.endS) < 1e-9)
        #expect(info.stillSegments.allSatisfy { $0.endS <= 13.5 || $0.startS >= 50 })
        #expect(info.suspicious.contains { $0.contains("gap") })
        #expect(!info.suspicious.contains { $0.contains("unit") || $0.contains("saturates") })
    }

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func broadRateMagnetometerRepeatsAndStillSegmentsAgreeWithTheSummary() throws {
        let data = try #require(sharedDataFolder())
        struct Trial: Decodable { var rows: Int; var mag_repeated_sample_fraction: Double; var heuristic_still_segments_s: [[Double]] }
        let trials = try JSONDecoder().decode([String: Trial].self, from: Data(contentsOf: URL(fileURLWithPath: data + "/broad/summary.json")))
        for (name, trial) in trials.sorted(by: { $0.key < $1.key }) {
            let info = try RecordingInfo.inspect(path: "\(data)/broad/\(name).csv")
            #expect(info.rows == trial.rows, "\(name)")
            #expect(abs(info.sampleRateHz - 285.714) < 0.01, "\(name)")
            #expect(info.gapCount == 0 && info.duplicateTimestamps == 0, "\(name)")
            #expect(abs(info.held["magnetometer"]!.fraction - trial.mag_repeated_sample_fraction) < 0.005, "\(name)")
            #expect(info.rowsWithTruth! < info.rows, "\(name)")
            // Against the summary's heuristic still periods (|gyro| < 0.05 rad/s for ≥ 2 s): the core
            // rest detector (which also requires a quiet accelerometer: RMS below 0.01 g or 1.5 × the
            // sensor's noise floor; BROAD's accelerometer noise alone is ≈ 0.0095–0.0101 g) finds
            // still time only inside them (precision) and at least half of their long periods (recall).
            let heuristic = trial.heuristic_still_segments_s
            func overlap(_ a: (Double, Double), _ b: (Double, Double)) -> Double { max(0, min(a.1, b.1) - max(a.0, b.0)) }
            let detected = info.stillSegments.reduce(0.0) { $0 + $1.durationS }
            let inside = info.stillSegments.reduce(0.0) { sum, s in
                sum + heuristic.reduce(0.0) { $0 + overlap((s.startS, s.endS), ($1[0], $1[1])) }
            }
            #expect(detected > 0 && inside >= 0.95 * detected, "\(name): \(inside) of \(detected) s inside")
            let long = heuristic.filter { $0[1] - $0[0] >= 5 }
            let longTime = long.reduce(0.0) { $0 + $1[1] - $1[0] }
            let covered = long.reduce(0.0) { sum, h in
                sum + info.stillSegments.reduce(0.0) { $0 + overlap(($1.startS, $1.endS), (h[0], h[1])) }
            }
            #expect(covered >= 0.5 * longTime, "\(name): covered \(covered) of \(longTime) s")
            #expect(!info.suspicious.contains { $0.contains("unit") }, "\(name)")
        }
    }

    /// On the bundled default recording the rest detector agrees with the simulator's movement mask.
    @Test func recognitionReportNamesFormatDialectMappedAndIgnoredColumns() throws {
        let file = TemporaryFile("\u{FEFF}# bench log\nt_s;acc_x_g;acc_y_g;acc_z_g;Barometer (hPa);speed_kmh\n0;0;0;1;1013,2;0\n0,01;0;0;1;1013,2;0\n")
        defer { file.remove() }
        let info = try RecordingInfo.inspect(path: file.path)
        #expect(info.dialect == CSVDialect(delimiter: .semicolon, decimalComma: true, byteOrderMark: true, preambleLines: 1))
        let text = info.text
        #expect(text.split(separator: "\n").first.map(String.init) == file.path)
        #expect(text.contains("  recognised: Poise / BROAD CSV; semicolon-separated, decimal comma, UTF-8 byte order mark, 1 comment line before the header"))
        #expect(text.contains("    acc_z_g → acceleration.z [g]; specific force, device axes, as in the file (+1 g up at rest)"))
        #expect(text.contains("  ignored columns:\n    Barometer (hPa): barometer (not used)\n    speed_kmh: not a quantity Poise reads"))
        #expect(info.issueCounts["unknownColumn"] == 1)
        let json = try info.json()
        #expect(json.contains("\"convention\" : \"barometer (not used)\"") && json.contains("\"delimiter\" : \"semicolon\""))
    }

    @Test func defaultRecordingStillSegmentsMatchTheTruth() throws {
        let path = Self.packageRoot.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        let info = try RecordingInfo.inspect(path: path)
        let recording = try Recording.load(path: path)
        #expect(info.rows == recording.samples.count && info.rows > 5900)
        #expect(abs(info.durationS - 60) < 0.05 && abs(info.sampleRateHz - 100) < 1.5)
        #expect(info.gapCount == 6001 - info.rows)  // every dropped sample is one gap
        // Detected still samples are truly still (movement == 0), except the first and last few
        // of a minimum-jerk move, whose rate starts and ends below the detector's thresholds.
        var wrong = 0
        var still = 0
        for s in recording.samples where info.stillSegments.contains(where: { $0.startS <= s.time && s.time <= $0.endS }) {
            still += 1
            if s.movement == true { wrong += 1 }
        }
        #expect(Double(wrong) < 0.02 * Double(still), "\(wrong) of \(still) detected still samples are moving")
        let trulyStill = recording.samples.filter { $0.movement == false }.count
        #expect(Double(still) > 0.9 * Double(trulyStill))
        #expect(info.stillSegments.count >= 12)
        #expect(info.suspicious.allSatisfy { $0.contains("gap") })
    }

    /// `poise info` streams (constant memory); its still segments must be exactly the batch
    /// detector's on the whole recording, and its rest norms the exact medians to 0.024 %.
    @Test(arguments: ["data/phone-tilt-steer-100hz.csv", "data/rotations-with-breaks.csv", "data/shake.csv", "data/still.csv"])
    func streamingInspectionMatchesTheBatchDetector(file: String) throws {
        let path = Self.packageRoot.appendingPathComponent(file).path
        let info = try RecordingInfo.inspect(path: path)
        let recording = try Recording.load(path: path)
        let batch = info.restDetector.stillSegments(in: recording.samples)
        let samples = recording.samples
        #expect(info.stillSegments == batch.map { TimeSegment(startS: samples[$0.lowerBound].time, endS: samples[$0.upperBound - 1].time) })
        let stillSamples = batch.isEmpty ? samples : batch.flatMap { samples[$0] }
        for (k, name) in ["accelerometer", "gyroscope", "magnetometer"].enumerated() {
            guard let range = info.ranges[name] else { continue }
            var norms: [Double] = []
            for sample in stillSamples {
                let vector: SIMD3<Double>? = k == 0 ? sample.acceleration : (k == 1 ? sample.rotationRate : sample.magneticField)
                if let v = vector { norms.append((v * v).sum().squareRoot()) }
            }
            norms.sort()
            let exact: Double = norms[norms.count / 2]
            let streamed: Double = try #require(range.restNorm)
            #expect((streamed - exact).magnitude <= 2.5e-4 * exact, "\(file) \(name): \(streamed) vs \(exact)")
        }
    }

    @Test func suspiciousUnitsSaturationAndJSONKeys() throws {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n"
        for i in 0..<300 {
            let ax = i % 50 == 0 ? 16.0 : (i % 50 == 1 ? 16.0 : (i % 50 == 2 ? 16.0 : 0.01))
            text += "\(Double(i) / 100),\(ax),0,9.81,0.001,0,0,0.2,0.1,-0.4\n"
        }
        let file = TemporaryFile(text)
        defer { file.remove() }
        let info = try RecordingInfo.inspect(path: file.path)
        #expect(info.suspicious.contains { $0.contains("probably m/s²") })
        #expect(info.suspicious.contains { $0.contains("accelerometer X saturates at +16") })
        #expect(info.suspicious.contains { $0.contains("probably gauss") })
        let json = try JSONSerialization.jsonObject(with: Data(info.json().utf8)) as! [String: Any]
        for key in ["rows", "duration_s", "sample_rate_hz", "gaps", "still_segments", "intervals", "held", "ranges", "suspicious", "columns"] {
            #expect(json[key] != nil, "missing key \(key)")
        }
        #expect(json["rows"] as? Int == 300)
        #expect(abs((json["sample_rate_hz"] as? Double ?? 0) - 100) < 1e-6)
    }
}
