import Foundation
import Testing
import Poise

/// `prlimit` (util-linux), which runs a command under a resource limit.
private let prlimitPath: String? = ["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A temporary folder that fills up while a command keeps per-sample values in it: the command
/// stops with an error that names the folder and what it was keeping, exits non-zero, writes no
/// output file (not even in part) and no NaN.
///
/// The full disk is a file-size limit (RLIMIT_FSIZE, set by `prlimit`) with SIGXFSZ ignored, so
/// that every write past the limit fails with EFBIG, as a write to a full disk fails with ENOSPC:
/// the commands' own writes and reservations meet it, not a stand-in.
@Suite(.serialized, .enabled(if: prlimitPath != nil, "needs prlimit (util-linux)"))
struct FullDiskTests {

    /// Largest file the command may write: more than one block of a temporary file (256 KB), far
    /// less than the values of the recording below.
    static let limit = 300_000

    /// 60 000 samples at 100 Hz of a device turning about the vertical and, more slowly, about
    /// its own x axis (so through every direction), with magnetometer, ground truth and
    /// movement: every command below keeps more than `limit` bytes for it.
    static func recording(in folder: URL) throws -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT,gt_qw,gt_qx,gt_qy,gt_qz,movement\n"
        let (yawRate, rollRate) = (0.8, 0.31)
        for i in 0..<60_000 {
            let t = Double(i) / 100
            let roll = Quaternion<Double>(axis: SIMD3(1, 0, 0), angle: rollRate * t)
            let q = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: yawRate * t) * roll
            let up = q.conjugate.act(SIMD3<Double>(0, 0, 1)), field = q.conjugate.act(SIMD3<Double>(0, 20, -40))
            let w = roll.conjugate.act(SIMD3<Double>(0, 0, yawRate)) + SIMD3(rollRate, 0, 0)
            let wobble = 0.001 * Double(i % 7 - 3)
            text += "\(t),\(up.x + wobble),\(up.y),\(up.z),\(w.x),\(w.y + wobble),\(w.z),\(field.x),\(field.y + wobble),\(field.z),"
                + "\(q.w),\(q.x),\(q.y),\(q.z),1\n"
        }
        let path = folder.appendingPathComponent("turning.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `poise arguments…` with the file-size limit and SIGXFSZ ignored (an ignored signal
    /// stays ignored across exec).
    static func runLimited(_ arguments: [String], temporary: String) throws -> PoiseProcess {
        let poise = try #require(PoiseProcess.executable, "the poise executable was not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; exec \"$0\" --fsize=\(limit) -- \"$@\"", try #require(prlimitPath), poise.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PoiseProcess(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Each command that keeps per-sample values in temporary files, with what it keeps.
    static let cases: [(arguments: [String], keeps: String)] = [
        (["evaluate", "--mode", "6d"], "the heading errors of the 6D alignment"),
        (["evaluate", "--mode", "6d", "--json"], "the heading errors of the 6D alignment"),
        (["calibrate", "mag", "--out", "OUT"], "the magnetometer readings"),
        (["gyro", "--compare-smoothing", "--out", "OUT"], "the turn rates"),
        // The recording's spool (192 B per sample) is the largest file of --offline: it fails first.
        (["fuse", "--mode", "9d", "--offline", "--out", "OUT"], "the recording"),
        (["evaluate", "--mode", "9d", "--offline", "--json"], "the recording"),
    ]

    @Test(arguments: cases.indices)
    func aFullTemporaryFolderStopsTheCommandCleanly(_ index: Int) throws {
        let (arguments, keeps) = Self.cases[index]
        let scratch = try Scratch()
        defer { scratch.remove() }
        let temporary = scratch.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let input = try Self.recording(in: scratch.folder)
        let output = scratch.path("out.json")
        let command = [arguments[0]] + (arguments[0] == "calibrate" ? [arguments[1], input] + arguments.dropFirst(2) : [input] + arguments.dropFirst())
        let run = try Self.runLimited(command.map { $0 == "OUT" ? output : $0 }, temporary: temporary)
        #expect(run.status != 0, "\(command): \(run.stdout)")
        #expect(run.stderr.contains("cannot keep \(keeps)"), "\(run.stderr)")
        #expect(run.stderr.contains(temporary) && run.stderr.contains("File too large"), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.lowercased().contains("nan"), "\(run.stderr)")
        #expect(!run.stdout.lowercased().contains("nan"), "\(run.stdout)")
        #expect(run.stdout.isEmpty, "no result after a failure: \(run.stdout)")
        // No output, not even in part; the temporary files were unlinked when made.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path).sorted() == ["tmp", "turning.csv"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        // A temporary folder that does not exist: named, with what the command keeps there.
        if keeps != "the recording" {
            let missing = scratch.path("missing")
            let run = try PoiseProcess.run(command.map { $0 == "OUT" ? output : $0 }, environment: ["TMPDIR": missing])
            #expect(run.status != 0 && run.stdout.isEmpty, "\(run.stdout)")
            #expect(run.stderr.contains(missing) && run.stderr.contains(keeps) && !run.stderr.contains("Fatal error"), "\(run.stderr)")
        }
        // Without the limit the same command succeeds (the limit is what failed).
        let free = try PoiseProcess.run(command.map { $0 == "OUT" ? output : $0 }, environment: ["TMPDIR": temporary])
        #expect(free.status == 0, "\(free.stderr)")
    }
}
