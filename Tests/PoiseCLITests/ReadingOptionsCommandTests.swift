import Foundation
import Testing
import Poise
import PoiseRecording

/// `--columns`, `--skip-lines` and `--mount` (`ReadingOptions`) with one spelling on the commands
/// that read a recording, and session folders (the real x-IMU3 and Sensor Logger samples in
/// ../shared/data/formats, skipped when absent) through the commands.
@Suite struct ReadingOptionsCommandTests {
    static let formats = RecordingFormatCommandTests.formats
    static let formatsPresent = RecordingFormatCommandTests.formatsPresent
    static let ximu3 = formats + "/xio_ximu3_logged/Left Foot 64F0EBCE (UDP)"
    static let sensorLogger = formats + "/sensor_logger_ios_iphone12"

    /// A folder for one test's files.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-reading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// 4 s at 100 Hz without a header after a two-line preamble: time in ms, acceleration in
    /// m/s² (at rest, z up, with a 2 Hz wobble on x), rotation rate in °/s.
    static func headerlessFile(in folder: String) throws -> String {
        var text = "IMU logger 1.2\nboard 7\n"
        for i in 0 ..< 400 {
            let t = Double(i) * 10
            text += String(format: "%.0f,%.5f,0,9.80665,%.4f,0,0\n", t, 0.05 * sin(2 * Double.pi * 2 * t / 1000), 0.5 * cos(t / 100))
        }
        let path = folder + "/log.txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let mapping = ["--skip-lines", "2", "--columns", "t=1:ms,acc=2,3,4:mps2,gyr=5,6,7:dps"]

    @Test func headerlessFilesReadOnEveryCommandThroughOneMapping() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.headerlessFile(in: folder)
        let cases: [[String]] = [
            ["info", file], ["spectrum", file], ["replay", file, "--speed", "max"],
            ["jitter", file, "--filter", "lowpass:cutoff=5"], ["fuse", file, "--mode", "6d", "--out", folder + "/fused.csv"],
            ["tilt", file, "--out", folder + "/tilt.csv"], ["convert", file, "--out", folder + "/converted.csv"],
            ["report", file, "--out", folder + "/report.html"],
        ]
        for arguments in cases {
            let result = try PoiseProcess.run(arguments + Self.mapping)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            // Without the mapping the file is refused with how to map it.
            let refused = try PoiseProcess.run(arguments + ["--skip-lines", "2"])
            #expect(refused.status == 1 && refused.stderr.contains("log.txt:3: the first line is numbers") && refused.stderr.contains("--columns"),
                    "\(arguments): \(refused.stderr)")
        }
        let converted = try Recording.load(path: folder + "/converted.csv")
        #expect(converted.samples.count == 400 && converted.samples[1].time == 0.01)
        #expect(abs(converted.samples[0].acceleration.z - 1) < 1e-15 && converted.samples[0].rotationRate.x == 0.5 * (Double.pi / 180))
        let info = try PoiseProcess.run(["info", file] + Self.mapping)
        #expect(info.stdout.contains("recognised: CSV with columns mapped by --columns; comma-separated, decimal point, 2 lines skipped (--skip-lines), no header line (columns by number)"), "\(info.stdout)")
        #expect(info.stdout.contains("column mapping (--columns): t=1:ms,acc=2,3,4:mps2,gyr=5,6,7:dps"))
        #expect(info.stdout.contains("column 2 → acceleration.x [m/s² → g]"), "\(info.stdout)")
    }

    @Test func mappingMistakesPointAtThePart() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.headerlessFile(in: folder)
        // Syntax: a usage error (exit 64) with a caret, on any command.
        for command in ["info", "spectrum", "convert"] {
            let result = try PoiseProcess.run([command, file, "--columns", "t=1:ms,acc=2,3,4:mg", "--out", folder + "/x.csv"].filter { command == "convert" || ($0 != "--out" && !$0.hasSuffix("x.csv")) })
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--columns: column mapping 't=1:ms,acc=2,3,4:mg', 'mg' at column 18: unknown unit 'mg' for acc"), "\(result.stderr)")
            #expect(result.stderr.contains("  t=1:ms,acc=2,3,4:mg\n                   ^~"), "\(result.stderr)")
        }
        // A column the file lacks: the input's error (exit 1) names it with the header.
        let named = folder + "/named.csv"
        try "time,ax,ay,az\n0,0,0,1\n0.01,0,0,1\n".write(toFile: named, atomically: true, encoding: .utf8)
        let missing = try PoiseProcess.run(["info", named, "--columns", "t=time:s,acc=ax,ay,azz:g"])
        #expect(missing.status == 1 && missing.stderr.contains("named.csv:1: column mapping") && missing.stderr.contains("no header cell 'azz' (header: 'time', 'ax', 'ay', 'az')"),
                "\(missing.stderr)")
        let mount = try PoiseProcess.run(["info", named, "--mount", "x=y,y=x,z=z"])
        #expect(mount.status == 64 && mount.stderr.contains("did you mean x=y,y=x,z=-z"), "\(mount.stderr)")
    }

    @Test func mountTurnsTheSensorAxesOnEveryCommand() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.headerlessFile(in: folder)
        // The board lies on its side: sensor x is up. --mount z=x,x=y,y=z puts it on device z.
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for i in 0 ..< 200 { text += "\(Double(i) / 100),1,0,0,0.2,0,0.1\n" }
        let side = folder + "/side.csv"
        try text.write(toFile: side, atomically: true, encoding: .utf8)
        try PoiseCommandRunner.run(["convert", side, "--mount", "x=y,y=z,z=x", "--out", folder + "/up.csv"])
        let up = try Recording.load(path: folder + "/up.csv")
        #expect(up.samples.allSatisfy { $0.acceleration == SIMD3(0, 0, 1) && $0.rotationRate == SIMD3(0, 0.1, 0.2) })
        // Angles spell the same rotation (x=y,y=z,z=x is pitch −90° then yaw −90°): equal within rounding.
        let replay = try PoiseProcess.run(["replay", side, "--speed", "max", "--mount", "0,-90,-90", "--out", folder + "/r.csv"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayed = try Recording.load(path: folder + "/r.csv")
        #expect(replayed.samples.allSatisfy { ($0.acceleration - SIMD3(0, 0, 1)).maxMagnitude < 1e-12 })
        let info = try PoiseProcess.run(["info", side, "--mount", "x=y,y=z,z=x"])
        #expect(info.stdout.contains("accelerometer [g]: min (0.0000, 0.0000, 1.0000)"), "\(info.stdout)")
        // The mapping and the mount together on a file without a header.
        let both = try PoiseProcess.run(["info", file, "--mount", "-Y+X+Z"] + Self.mapping)
        #expect(both.status == 0 && both.stdout.contains("mount (--mount): -Y+X+Z"), "\(both.stderr)")
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func ximu3SessionThroughTheCommands() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for arguments in [["info", Self.ximu3], ["spectrum", Self.ximu3], ["replay", Self.ximu3, "--speed", "max"],
                          ["report", Self.ximu3, "--out", folder + "/report.html"]] {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let info = try PoiseProcess.run(["info", Self.ximu3])
        #expect(info.stdout.contains("Inertial.csv: accelerometer (g) and gyroscope (°/s); 921 rows, 49.5 Hz (the timeline)"), "\(info.stdout)")
        #expect(info.stdout.contains("Magnetometer.csv: magnetometer in arbitrary units (a.u., kept as they are, not µT); 371 rows, 19.9 Hz"), "\(info.stdout)")
        #expect(info.stdout.contains("magnetometer [a.u.]"))
        // A CSV mapping is refused, not dropped, by a folder and by a bag.
        let mapped = try PoiseProcess.run(["info", Self.ximu3, "--columns", "t=1:s,acc=2,3,4:g"])
        #expect(mapped.status == 1 && mapped.stderr.contains("--columns and --skip-lines describe one CSV file"), "\(mapped.stderr)")
        let bag = try PoiseProcess.run(["info", Self.formats + "/ros1_bag_imu/test2.bag", "--skip-lines", "1"])
        #expect(bag.status == 1 && bag.stderr.contains("a ROS bag's topics are chosen with --topic"), "\(bag.stderr)")
        // 9D fusion runs on the a.u. field; its output never calls it µT.
        let fuse = try PoiseProcess.run(["fuse", Self.ximu3, "--mode", "9d", "--out", folder + "/fused.csv"])
        #expect(fuse.status == 0, "\(fuse.stderr)")
        let header = try String(contentsOfFile: folder + "/fused.csv", encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains("mag_x_au") && !header.contains("uT"), "\(header)")
        // convert writes mag_*_au, which reads back as a.u. with the same values.
        let convert = try PoiseProcess.run(["convert", Self.ximu3, "--out", folder + "/session.csv"])
        #expect(convert.status == 0, "\(convert.stderr)")
        let back = try Recording.load(path: folder + "/session.csv")
        let original = try Recording.load(path: Self.ximu3)
        #expect(back.schema.magneticFieldIsArbitrary && back.samples == original.samples)
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func sensorLoggerWithoutGravityIsGyroscopeAndMagnetometerOnly() throws {
        let info = try PoiseProcess.run(["info", Self.sensorLogger])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("format sensorLogger, 1038 rows"), "\(info.stdout)")
        #expect(info.stdout.contains("Accelerometer.csv: ignored, gravity-free (user) acceleration"), "\(info.stdout)")
        let spectrum = try PoiseProcess.run(["spectrum", Self.sensorLogger])
        #expect(spectrum.status == 0 && spectrum.stdout.contains("gyr_x (rad/s)") && !spectrum.stdout.contains("acc_x"), "\(spectrum.stderr)")
        let replay = try PoiseProcess.run(["replay", Self.sensorLogger, "--speed", "max", "--pipeline", "lowpass:cutoff=5"])
        #expect(replay.status == 1 && replay.stderr.contains("no accelerometer columns"), "\(replay.stderr)")
        let fuse = try PoiseProcess.run(["fuse", Self.sensorLogger, "--mode", "6d"])
        #expect(fuse.status == 1 && fuse.stderr.contains("no accelerometer columns"), "\(fuse.stderr)")
    }
}

/// Runs a `poise` command in a child process and throws with its standard error when it fails.
enum PoiseCommandRunner {
    static func run(_ arguments: [String]) throws {
        let result = try PoiseProcess.run(arguments)
        guard result.status == 0 else { throw InputFailure(message: "\(arguments): \(result.stderr)") }
    }

    struct InputFailure: Error { var message: String }
}

/// `--comment` with one spelling on the commands that read a recording.
extension ReadingOptionsCommandTests {
    /// 4 s at 100 Hz with `%` and `;` comment lines before the header and between rows.
    static func commentedFile(in folder: String) throws -> String {
        var text = "% logger 3\n; bench\nt_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 400 {
            if i % 100 == 50 { text += "% marker \(i)\n;note\n" }
            text += String(format: "%.2f,%.5f,0,1\n", Double(i) / 100, 0.01 * sin(2 * Double.pi * 2 * Double(i) / 100))
        }
        let path = folder + "/commented.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func commentPrefixesReadOnEveryCommandWithOneSpelling() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.commentedFile(in: folder)
        let cases: [[String]] = [
            ["info", file], ["spectrum", file], ["replay", file, "--speed", "max"],
            ["jitter", file, "--filter", "lowpass:cutoff=5"], ["convert", file, "--out", folder + "/converted.csv"],
        ]
        for arguments in cases {
            // Repeated or comma-separated: the same.
            for comment in [["--comment", "%", "--comment", ";"], ["--comment", "%,;"]] {
                let result = try PoiseProcess.run(arguments + comment)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
            // Without it the file is refused at its first comment line, never read past it.
            let refused = try PoiseProcess.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("commented.csv:1"), "\(arguments): \(refused.stderr)")
        }
        let converted = try Recording.load(path: folder + "/converted.csv")
        #expect(converted.samples.count == 400 && converted.samples[399].time == 3.99)
        let info = try PoiseProcess.run(["info", file, "--comment", "%,;"])
        #expect(info.stdout.contains("comment lines start with % or ; (--comment)"), "\(info.stdout)")
        #expect(info.stdout.contains("comment lines between rows skipped (--comment): 8"), "\(info.stdout)")
        let bad = try PoiseProcess.run(["info", file, "--comment", "-"])
        #expect(bad.status == 64 && bad.stderr.contains("--comment: comment prefix '-' starts like a number"), "\(bad.stderr)")
    }
}
