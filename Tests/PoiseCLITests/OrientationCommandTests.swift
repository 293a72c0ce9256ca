import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseCLI

/// A temporary directory removed when the value is released.
final class OrientationScratch {
    let directory: String
    init() {
        directory = NSTemporaryDirectory() + "poise-orientation-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: directory) }
    func path(_ name: String) -> String { directory + "/" + name }

    /// A small recording with every column kind: a device turning about a tilted axis.
    func recording(rows: Int = 120, rate: Double = 100, truth: Bool = true) throws -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_dps,gyr_y_dps,gyr_z_dps,mag_x_uT,mag_y_uT,mag_z_uT"
        text += truth ? ",gt_qw,gt_qx,gt_qy,gt_qz,movement\n" : ",movement\n"
        for k in 0..<rows {
            let t = Double(k) / rate
            let q = Quaternion<Double>(axis: SIMD3(0.3, 1, 0.2), angle: 0.9 * Double.sin(2 * t))
            let a = q.conjugate.act(SIMD3(0, 0, 1)), m = q.conjugate.act(SIMD3(0, 22, -40))
            var row = [t, a.x, a.y, a.z, 10 * Double.cos(t), -5.5, 0.25 * t, m.x, m.y, m.z].map { "\($0)" }
            if truth { row += [q.w, q.x, q.y, q.z].map { "\($0)" } }
            row.append(k % 3 == 0 ? "0" : "1")
            text += row.joined(separator: ",") + "\n"
        }
        let p = path(truth ? "input.csv" : "input-no-truth.csv")
        try text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }
}

func runPoise(_ arguments: [String]) throws {
    var command = try PoiseCommand.parseAsRoot(arguments)
    try command.run()
}

@Suite struct RemapCommandTests {
    @Test func remapWritesEveryQuantityInTheNewFrameAndReadsBackExactly() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        let output = scratch.path("out.csv")
        try runPoise(["remap", input, "--axes", "+Y-X+Z", "--out", output])
        let original = try Recording.load(path: input)
        let remapped = try Recording.load(path: output)
        #expect(remapped.schema.columns.map(\.name) == ["t_s", "acc_x_g", "acc_y_g", "acc_z_g", "gyr_x_radps", "gyr_y_radps", "gyr_z_radps",
                                                         "mag_x_uT", "mag_y_uT", "mag_z_uT", "gt_qw", "gt_qx", "gt_qy", "gt_qz", "movement"])
        let remap = try FrameRemap<Double>(alignment: AxisAlignment("+Y-X+Z"))
        #expect(remapped.samples == original.samples.map { remap.sample($0) })
        // landscapeLeft is the same alignment.
        let viaOrientation = scratch.path("orientation.csv")
        try runPoise(["remap", input, "--orientation", "landscapeLeft", "--out", viaOrientation])
        #expect(try String(contentsOfFile: viaOrientation, encoding: .utf8) == String(contentsOfFile: output, encoding: .utf8))
    }

    @Test func remappingBackWithTheInverseRestoresTheRecording() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        for spec in ["-Z+X-Y", "+Y-X+Z", "-X-Y+Z"] {
            let inverse = try AxisAlignment(spec).inverse.description
            let there = scratch.path("there.csv"), back = scratch.path("back.csv")
            try runPoise(["remap", input, "--axes", spec, "--out", there])
            try runPoise(["remap", there, "--axes", inverse, "--out", back])
            let a = try Recording.load(path: input).samples, b = try Recording.load(path: back).samples
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) {
                #expect(x.acceleration == y.acceleration && x.rotationRate == y.rotationRate && x.magneticField == y.magneticField)
                #expect(x.movement == y.movement && x.time == y.time)
                let d = (x.truth!.conjugate * y.truth!).angle
                #expect(d < 1e-12, "\(spec)")
            }
        }
    }

    @Test func mountRotationRemapsTruthConsistentlyWithGravity() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        let output = scratch.path("mount.csv")
        try runPoise(["remap", input, "--mount", "10,-35,120", "--out", output])
        for s in try Recording.load(path: output).samples {
            // The remapped truth still predicts the remapped accelerometer (gravity only here).
            #expect((s.truth!.conjugate.act(SIMD3(0, 0, 1)) - s.acceleration).maxMagnitude < 1e-12)
        }
    }

    @Test func errorsAreClear() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        #expect(throws: (any Error).self) { try runPoise(["remap", input]) }
        #expect(throws: (any Error).self) { try runPoise(["remap", input, "--orientation", "portrait", "--axes", "+X+Y+Z"]) }
        func message(_ arguments: [String]) -> String {
            do { try runPoise(arguments); return "" } catch { return PoiseCommand.message(for: error) }
        }
        #expect(message(["remap", input, "--axes", "+Y+X+Z"]).contains("reflection"))
        #expect(message(["remap", input, "--axes", "+Y+X+Z", "--allow-reflection", "--out", scratch.path("r.csv")]).contains("gt_q"))
        #expect(message(["remap", input, "--mount", "1,2"]).contains("--mount"))
        #expect(message(["remap", scratch.path("missing.csv"), "--orientation", "portrait"]).contains("missing.csv"))
        // A reflection is fine without truth: vectors are permuted.
        let plain = try scratch.recording(truth: false)
        let reflected = scratch.path("reflected.csv")
        try runPoise(["remap", plain, "--axes", "+Y+X+Z", "--allow-reflection", "--out", reflected])
        let a = try Recording.load(path: plain).samples, b = try Recording.load(path: reflected).samples
        #expect(zip(a, b).allSatisfy { $0.acceleration.x == $1.acceleration.y && $0.rotationRate.z == $1.rotationRate.z })
    }
}

@Suite struct TiltCommandTests {
    func rows(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func tiltOutputEqualsTheLibraryOnTheSameSamples() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        let output = scratch.path("tilt.csv")
        try runPoise(["tilt", input, "--source", "gravity", "--orientation", "landscapeRight", "--dead-zone", "2", "--saturation", "20",
                      "--curve", "exponent:1.5", "--out", output])
        let table = try rows(output)
        // The pipeline remap | tilt: the sensor columns, then the tilt stage's.
        #expect(Array(table[0].prefix(4)) == ["t_s", "acc_x_g", "acc_y_g", "acc_z_g"])
        #expect(Array(table[0].suffix(5)) == ["axis_x", "axis_y", "tilt_roll_deg", "tilt_pitch_deg", "home_event"])
        let x = table[0].count - 5, (y, roll, event) = (x + 1, x + 2, x + 4)
        let remap = FrameRemap<Double>(orientation: .landscapeRight)
        var controller = try TiltController(settings: TiltSettings(stick: StickResponse(deadZone: 2, saturation: 20, curve: .exponent(1.5))))
        let expected = controller.process(try Recording.load(path: input).samples.map { remap.sample($0) })
        #expect(table.count == expected.count + 1)
        for (row, e) in zip(table.dropFirst(), expected) {
            #expect(Double(row[0]) == e.time && Double(row[x]) == e.stick.x && Double(row[y]) == e.stick.y)
            #expect(abs(Double(row[roll])! - e.angles.roll / Units.radiansPerDegree) < 1e-12)
        }
        #expect(table[1][event] == "initial" && table[2][event] == "")
        #expect(table.dropFirst().contains { Double($0[x]) != 0 })  // the motion moves the stick
    }

    @Test func defaultSourceWithAGyroscopeIsSixAxisFusionInTheRemappedFrame() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        let output = scratch.path("fusion.csv")
        try runPoise(["tilt", input, "--mount", "0,20,0", "--out", output])
        let remap = FrameRemap<Double>(roll: 0, pitch: 20 * Units.radiansPerDegree, yaw: 0)
        let samples = try Recording.load(path: input).samples.map { remap.sample($0) }
        var estimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(
            sampleRate: DeviceMotionConfiguration.estimatedSampleRate(of: samples)!, reference: .arbitraryZVertical))
        var controller = try TiltController()
        let all = try rows(output)
        let x = try #require(all[0].firstIndex(of: "axis_x")), y = x + 1
        let table = all.dropFirst()
        #expect(table.count == samples.count)
        for (row, s) in zip(table, samples) {
            let motion = estimator.process(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate)
            let e = controller.process(time: s.time, attitude: motion.attitude, rotationRate: s.rotationRate)
            #expect(Double(row[x]) == e.stick.x && Double(row[y]) == e.stick.y)
        }
    }

    /// `poise tilt` is the pipeline `[remap |] fusion:6d | tilt` (or `tilt` alone from gravity):
    /// its output is byte for byte what `replay --pipeline` writes for the same pipeline.
    @Test(arguments: [(["--source", "fusion"], "fusion:6d | tilt"), (["--source", "gravity"], "tilt"),
                      (["--dead-zone", "5", "--saturation", "25", "--curve", "quadratic", "--dynamic-home"],
                       "fusion:6d | tilt:deadzone=5,saturation=25,curve=quadratic,dynamic"),
                      (["--orientation", "landscapeRight"], "remap:landscapeRight | fusion:6d | tilt")])
    func tiltWritesWhatThePipelineWrites(options: [String], pipeline: String) throws {
        let input = SpectrumCommandTests.packageRoot.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        let scratch = try Scratch()
        defer { scratch.remove() }
        let tilt = try PoiseProcess.run(["tilt", input, "--out", scratch.path("tilt.csv")] + options)
        #expect(tilt.status == 0, "\(tilt.stderr)")
        let replay = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", pipeline, "--out", scratch.path("replay.csv")])
        #expect(replay.status == 0, "\(replay.stderr)")
        let tilted = try String(contentsOfFile: scratch.path("tilt.csv"), encoding: .utf8)
        #expect(tilted == (try String(contentsOfFile: scratch.path("replay.csv"), encoding: .utf8)))
        #expect(tilted.hasPrefix("t_s,acc_x_g") && tilted.split(separator: "\n").count == 5989)
        #expect(tilted.split(separator: "\n")[0].hasSuffix(",axis_x,axis_y,tilt_roll_deg,tilt_pitch_deg,home_event"))
    }

    @Test func frameRateOutputHasOneRowPerFrame() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording(rows: 200, rate: 100)   // 0 … 1.99 s
        let output = scratch.path("frames.csv")
        try runPoise(["tilt", input, "--source", "truth", "--frame-rate", "60", "--smoothing", "0.05", "--out", output])
        let table = try rows(output)
        #expect(table[0] == ["t_s", "axis_x", "axis_y", "tilt_roll_deg", "tilt_pitch_deg", "home_event", "samples"])
        let times = table.dropFirst().map { Double($0[0])! }
        #expect(times.count == 121)  // frames 0 … 120 (1.99 s · 60 = 119.4: the last window closes at 2.0 s)
        for (k, t) in times.enumerated() { #expect(t == Double(k) / 60) }
        let counts = table.dropFirst().map { Int($0[6])! }
        #expect(counts.reduce(0, +) == 200)
    }

    @Test func truthSourceHoldsTheLastAttitudeWhereTruthIsMissing() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording(rows: 40)
        // Blank out the truth of data rows 0–2 (leading) and 19–23 (tracking lost); line k is data row k − 1.
        var lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").map(String.init)
        for k in [1, 2, 3, 20, 21, 22, 23, 24] {
            var fields = lines[k].split(separator: ",").map(String.init)
            for c in 10...13 { fields[c] = "nan" }
            lines[k] = fields.joined(separator: ",")
        }
        let gappy = scratch.path("gappy.csv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: gappy, atomically: true, encoding: .utf8)
        let output = scratch.path("held.csv")
        try runPoise(["tilt", gappy, "--source", "truth", "--dead-zone", "0", "--saturation", "90", "--out", output])
        let all = try rows(output)
        let x = try #require(all[0].firstIndex(of: "axis_x"))
        let table = all.dropFirst()
        #expect(table.count == 40 - 3)                       // the 3 leading rows are left out
        #expect(Double(table.first![0]) == 3.0 / 100)
        let held = table.filter { (0.18...0.23).contains(Double($0[0])!) }.map { $0[x ..< x + 4] }
        #expect(held.count == 6 && Set(held.map { $0.joined() }).count == 1)  // row 18 held through 23
    }

    @Test func badSettingsAreReported() throws {
        let scratch = OrientationScratch()
        let input = try scratch.recording()
        func message(_ arguments: [String]) -> String {
            do { try runPoise(arguments); return "" } catch { return PoiseCommand.message(for: error) }
        }
        #expect(message(["tilt", input, "--dead-zone", "40", "--saturation", "30"]).contains("saturation"))
        #expect(message(["tilt", input, "--frame-rate", "0"]).contains("frame rate"))
        #expect(message(["tilt", try scratch.recording(truth: false), "--source", "truth"]).contains("gt_qw"))
        #expect(message(["tilt", input, "--curve", "cubic"]).contains("curve"))
    }
}
