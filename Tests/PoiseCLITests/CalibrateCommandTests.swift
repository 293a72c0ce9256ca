import Foundation
import Testing
import Poise
import PoiseRecording

/// `poise calibrate` end to end: record (simulate), calibrate, fuse with the result, see the
/// heading improve; the JSON output, --update, the stage in other commands, and refusals.
@Suite struct CalibrateCommandTests {
    static let distortion = ["--mag-hard-iron", "25,-40,12", "--mag-soft-iron", "1.1,0.05,0.02,0.05,0.95,-0.03,0.02,-0.03,1.02"]

    func simulate(_ scratch: Scratch, _ scenario: String, seed: Int, distorted: Bool = true, name: String) throws -> String {
        let path = scratch.path(name)
        let result = try PoiseProcess.run(["simulate", "--scenario", scenario, "--seed", "\(seed)", "--out", path] + (distorted ? Self.distortion : []))
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    func heading(_ arguments: [String]) throws -> Double {
        let result = try PoiseProcess.run(["evaluate"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try json(result.stdout)["heading_rmse_deg"] as? Double)
    }

    @Test func calibratingTheMagnetometerImprovesTheHeading() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Calibrate on one recording (the device tumbled), evaluate on another of the same device.
        let dance = try simulate(scratch, "tumble", seed: 2, name: "dance.csv")
        let cal = scratch.path("cal.json")
        let calibrated = try PoiseProcess.run(["calibrate", "mag", dance, "--out", cal])
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        #expect(calibrated.stdout.hasPrefix("dance.csv: magnetometer, full ellipsoid"))
        #expect(calibrated.stdout.contains("wrote \(cal)"))
        let file = try SensorCalibration(contentsOf: cal)
        let offset = try #require(file.magnetometer).offset
        // The phone model adds its own 2 µT bias and 1 % scale to the 25, −40, 12 µT hard iron.
        #expect(abs(offset.x - 25) < 5 && abs(offset.y + 40) < 5 && abs(offset.z - 12) < 5)
        let trial = try simulate(scratch, "rotations-with-breaks", seed: 5, name: "trial.csv")
        let raw = try heading([trial])
        let fixed = try heading([trial, "--calibration", cal])
        #expect(raw > 90 && fixed < 15, "heading error \(raw)° raw, \(fixed)° calibrated")
        // fuse applies it too: the attitude differs from the uncalibrated run.
        let plain = try PoiseProcess.run(["fuse", trial, "--json"]).stdout
        let withCalibration = try PoiseProcess.run(["fuse", trial, "--json", "--calibration", cal])
        #expect(withCalibration.status == 0, "\(withCalibration.stderr)")
        #expect(try json(plain)["final_heading_deg"] as? Double != json(withCalibration.stdout)["final_heading_deg"] as? Double)
        // The stage works in every command with a pipeline.
        let replay = try PoiseProcess.run(["replay", trial, "--speed", "max", "--pipeline", "calibrate:file=\(cal) | fusion:9d", "--out", scratch.path("replayed.csv")])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func gyroAndAccelWriteJSONAndUpdateMerges() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let positions = try simulate(scratch, "multi-position", seed: 4, distorted: false, name: "positions.csv")
        let gyro = try PoiseProcess.run(["calibrate", "gyro", positions, "--out", "-"])
        #expect(gyro.status == 0, "\(gyro.stderr)")
        #expect(gyro.stderr.hasPrefix("positions.csv: gyroscope, 13 still segments"))
        let gyroFile = scratch.path("gyro.json")
        try gyro.stdout.write(toFile: gyroFile, atomically: true, encoding: .utf8)
        let merged = scratch.path("both.json")
        let accel = try PoiseProcess.run(["calibrate", "accel", positions, "--update", gyroFile, "--out", merged])
        #expect(accel.status == 0, "\(accel.stderr)")
        #expect(accel.stdout.hasPrefix("positions.csv: accelerometer, full model"))
        let both = try SensorCalibration(contentsOf: merged)
        #expect(both.gyroscope == (try SensorCalibration(json: gyro.stdout)).gyroscope)
        #expect(both.accelerometer != nil && both.magnetometer == nil)
        // An input is never overwritten.
        let refused = try PoiseProcess.run(["calibrate", "accel", positions, "--update", gyroFile, "--out", gyroFile])
        #expect(refused.status == 1)
        #expect(try SensorCalibration(contentsOf: gyroFile) == SensorCalibration(json: gyro.stdout))
    }

    @Test func recordingsThatCannotBeCalibratedAreRefusedClearly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let still = try simulate(scratch, "still", seed: 1, name: "still.csv")
        let mag = try PoiseProcess.run(["calibrate", "mag", still, "--out", scratch.path("x.json")])
        #expect(mag.status == 1)
        #expect(mag.stderr.contains("\(still): the device hardly turned"))
        let steering = try simulate(scratch, "steering", seed: 1, name: "steering.csv")
        let partial = try PoiseProcess.run(["calibrate", "mag", steering])
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("the device turned through only") && partial.stderr.contains("turn it in all directions"))
        let accel = try PoiseProcess.run(["calibrate", "accel", still])
        #expect(accel.status == 1)
        #expect(accel.stderr.contains("found 1 distinct still orientation"))
        let noMagnetometer = try scratch.recording(count: 400, rate: 100)
        let missing = try PoiseProcess.run(["calibrate", "mag", noMagnetometer])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("magnetometer calibration"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.json")))
        try "{\"format\": \"poise-calibration\", \"version\": 1, \"gyroscope\": {\"unit\": \"rad/s\", \"offset\": [1, 2]}}"
            .write(toFile: scratch.path("bad.json"), atomically: true, encoding: .utf8)
        let bad = try PoiseProcess.run(["evaluate", still, "--calibration", scratch.path("bad.json")])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--calibration: \(scratch.path("bad.json")): \"gyroscope\".\"offset\" must be an array of three numbers"))
    }

    static var ximu3: String {
        SpectrumCommandTests.packageRoot.appendingPathComponent("../shared/data/formats/xio_ximu3_logged/Left Foot 64F0EBCE (UDP)").standardized.path
    }

    /// The x-IMU3 sample (magnetometer in arbitrary units, 20 Hz, a foot walking): it does not
    /// turn enough for the full fit, and the hard-iron fit lowers the spread of |B|.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ximu3), "../shared/data/formats is absent"))
    func theXIMU3SampleKeepsItsUnitAndItsSpreadFalls() throws {
        let full = try PoiseProcess.run(["calibrate", "mag", Self.ximu3])
        #expect(full.status == 1 && full.stderr.contains("(or fit the hard-iron offset only: model offset)"))
        let offset = try PoiseProcess.run(["calibrate", "mag", Self.ximu3, "--model", "offset", "--out", "-"])
        #expect(offset.status == 0, "\(offset.stderr)")
        let line = try #require(offset.stderr.split(separator: "\n").first { $0.contains("|B| spread") })
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 2 && numbers[1] < numbers[0] / 2, "\(line)")
        #expect(line.contains("a.u."))
        #expect(try SensorCalibration(json: offset.stdout).magnetometerUnit == "au")
    }
}
