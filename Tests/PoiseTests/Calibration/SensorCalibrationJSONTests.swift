import Foundation
import Testing
@testable import Poise

/// The calibration file: written and read back exactly, and bad files refused with where and what.
@Suite struct SensorCalibrationJSONTests {
    static let sample = SensorCalibration(
        accelerometer: SensorCorrection(offset: SIMD3(0.012, -0.0031, 0.02),
                                        matrix: Matrix3(SIMD3(1.002, 0.001, 0), SIMD3(0.001, 0.998, -0.0004), SIMD3(0, -0.0004, 1.01))),
        gyroscope: SensorCorrection(offset: SIMD3(0.0123, -1e-5, 3.3e-3)),
        magnetometer: SensorCorrection(offset: SIMD3(31.25, -42, 17.1),
                                       matrix: Matrix3(SIMD3(0.9, 0.05, 0.01), SIMD3(0.05, 1.1, 0.02), SIMD3(0.01, 0.02, 1 / 3))),
        facts: ["magnetometer": ["field_strength": 48.75, "samples": 4000]])

    @Test func roundTripsExactly() throws {
        let text = Self.sample.json
        let read = try SensorCalibration(json: text)
        #expect(read == Self.sample)
        #expect(read.json == text)
        // Foundation's JSON parser reads it too (what C and Python callers might use).
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect((object["magnetometer"] as? [String: Any])?["unit"] as? String == "uT")
    }

    @Test func aSensorWithoutMatrixGetsTheIdentity() throws {
        let read = try SensorCalibration(json: #"{"format": "poise-calibration", "version": 1, "gyroscope": {"unit": "rad/s", "offset": [1, 2, 3], "note": "x"}}"#)
        #expect(read.gyroscope == SensorCorrection(offset: SIMD3(1, 2, 3)))
        #expect(read.magnetometer == nil && read.accelerometer == nil)
    }

    @Test(arguments: [
        (#"{"format": "poise-calibration", "version": 1, "gyroscope": {"unit": "rad/s", "offset": [1, 2]}}"#, "\"gyroscope\".\"offset\" must be an array of three numbers"),
        (#"{"format": "poise-calibration", "version": 2, "gyroscope": {"unit": "rad/s", "offset": [1, 2, 3]}}"#, "version 2.0 is not supported"),
        (#"{"format": "other", "version": 1}"#, "not a Poise calibration"),
        (#"{"format": "poise-calibration", "version": 1}"#, "has no sensor"),
        (#"{"format": "poise-calibration", "version": 1, "gyroscope": {"unit": "deg/s", "offset": [1, 2, 3]}}"#, "\"gyroscope\".\"unit\" must be \"rad/s\""),
        (#"{"format": "poise-calibration", "version": 1, "magnetometer": {"unit": "uT", "offset": [1, 2, 3], "matrix": [[1, 0, 0], [0, 1, 0]]}}"#, "three rows"),
        ("{\"format\": \"poise-calibration\",\n  \"version\": 1,,}", "line 2, column 16 (byte 47): expected a member name in double quotes"),
        (#"{"format": "poise-calibration", "version": 1, "gyroscope": {"unit": "rad/s", "offset": [1, 2, NaN]}}"#, "line 1, column 95 (byte 94): expected a JSON value"),
        (#"{"format": "poise-calibration", "version": 1e999}"#, "'1e999' is not a finite JSON number"),
        ("", "unexpected end"),
        (#"{"format": "poise-calibration"} x"#, "unexpected text after the JSON value"),
    ])
    func badFilesAreRefused(text: String, expected: String) {
        #expect {
            _ = try SensorCalibration(json: text)
        } throws: { error in
            let message = (error as? CalibrationError)?.message ?? ""
            return message.contains(expected)
        }
    }

    @Test func readsAFileAndNamesItInErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-cal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("cal.json").path
        try Self.sample.json.write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try SensorCalibration(contentsOf: good) == Self.sample)
        let bad = folder.appendingPathComponent("bad.json").path
        try "{\"format\": 1}".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(throws: CalibrationError("\(bad): not a Poise calibration: \"format\" must be \"poise-calibration\"")) {
            try SensorCalibration(contentsOf: bad)
        }
        let missing = folder.appendingPathComponent("missing.json").path
        #expect { try SensorCalibration(contentsOf: missing) } throws: { error in
            ((error as? CalibrationError)?.message ?? "").hasPrefix("\(missing): cannot open the calibration file (No such file")
        }
    }

    @Test func mergingReplacesOnlyTheNewSensor() {
        let gyro = SensorCalibration(gyroscope: SensorCorrection(offset: SIMD3(9, 9, 9)), facts: ["gyroscope": ["segments": 3]])
        let merged = Self.sample.merging(gyro)
        #expect(merged.gyroscope == gyro.gyroscope)
        #expect(merged.magnetometer == Self.sample.magnetometer && merged.accelerometer == Self.sample.accelerometer)
        #expect(merged.facts["gyroscope"] == ["segments": 3] && merged.facts["magnetometer"] == Self.sample.facts["magnetometer"])
    }
}
