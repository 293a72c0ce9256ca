import Foundation
import Testing

/// The CSV dialect options (`--delimiter`, `--decimal-comma`) on the commands that read a
/// recording, and the real exports in ../shared/data/formats through `info`, `spectrum` and
/// `replay --speed max` (skipped, and reported so, when that folder is absent).
@Suite struct RecordingFormatCommandTests {
    static let formats: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("../shared/data/formats").standardizedFileURL.path
    }()
    static let formatsPresent = FileManager.default.fileExists(atPath: formats)
    static let xsens = formats + "/xsens_mtmanager_opensense/MT_012005D6_009-001_00B421E6.txt"

    /// A 4 s, 100 Hz accelerometer recording, semicolon-separated with decimal commas, at rest
    /// (+1 g on z) with a 2 Hz wobble on x.
    static func semicolonFile() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-dialect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = "t_s;acc_x_g;acc_y_g;acc_z_g\n"
        for i in 0 ..< 400 {
            let t = Double(i) / 100
            text += String(format: "%.2f;%.5f;0;1", t, 0.01 * sin(2 * Double.pi * 2 * t)).replacingOccurrences(of: ".", with: ",") + "\n"
        }
        let path = folder.appendingPathComponent("semicolon.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func semicolonDecimalCommaFilesReadOnEveryCommandWithOneSpelling() throws {
        let file = try Self.semicolonFile()
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let cases: [[String]] = [
            ["info", file],
            ["spectrum", file],
            ["replay", file, "--speed", "max"],
            ["jitter", file, "--filter", "lowpass:cutoff=5"],
        ]
        for arguments in cases {
            let detected = try PoiseProcess.run(arguments)
            #expect(detected.status == 0, "\(arguments): \(detected.stderr)")
            let forced = try PoiseProcess.run(arguments + ["--delimiter", "semicolon", "--decimal-comma"])
            #expect(forced.status == 0, "\(arguments): \(forced.stderr)")
            #expect(forced.stdout == detected.stdout || arguments[0] == "replay", "\(arguments)")
            // The wrong delimiter: the header is one unknown column, and the error says how to map it.
            let wrong = try PoiseProcess.run(arguments + ["--delimiter", "tab"])
            #expect(wrong.status == 1 && wrong.stderr.contains("semicolon.csv:1:"), "\(arguments): \(wrong.stderr)")
            #expect(wrong.stderr.contains("--delimiter"), "\(arguments): \(wrong.stderr)")
            #expect(wrong.stdout.isEmpty)
        }
        let info = try PoiseProcess.run(["info", file])
        #expect(info.stdout.contains("recognised: Poise / BROAD CSV; semicolon-separated, decimal comma"), "\(info.stdout)")
        #expect(info.stdout.contains("sample rate 100.000 Hz"), "\(info.stdout)")
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func xsensExportThroughInfoSpectrumAndReplay() throws {
        let info = try PoiseProcess.run(["info", Self.xsens])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("format xsens, 2432 rows, 24.310 s (4.720 → 29.030 s), sample rate 100.000 Hz"), "\(info.stdout)")
        let spectrum = try PoiseProcess.run(["spectrum", Self.xsens])
        #expect(spectrum.status == 0 && spectrum.stdout.contains("2432 samples") && spectrum.stdout.contains("acc_z (g)"), "\(spectrum.stderr)")
        let replay = try PoiseProcess.run(["replay", Self.xsens, "--speed", "max"])
        #expect(replay.status == 0 && replay.stdout.contains("2432 samples at 100.0 Hz"), "\(replay.stderr)")
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func ngimuAndPhyphoxReadOrFailWithTheReason() throws {
        let ngimu = formatsFile("xio_ngimu_gait_tracking/short_walk.csv")
        for arguments in [["info", ngimu], ["spectrum", ngimu], ["replay", ngimu, "--speed", "max"]] {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let phyphox = formatsFile("phyphox_csv/cart-backNforth.csv")
        for arguments in [["info", phyphox], ["spectrum", phyphox], ["replay", phyphox, "--speed", "max"]] {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.contains("cart-backNforth.csv:1: no sensor columns") && result.stderr.contains("gravity-free"),
                    "\(arguments): \(result.stderr)")
        }
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func motionSenseIsTimedByTheGivenRate() throws {
        let file = formatsFile("coremotion_motionsense/dws_1/sub_1.csv")
        for arguments in [["info", file, "--rate", "50"], ["spectrum", file, "--rate", "50"], ["replay", file, "--rate", "50", "--speed", "max"]] {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("1751"), "\(arguments): \(result.stdout)")
        }
        let info = try PoiseProcess.run(["info", file, "--rate", "50"])
        #expect(info.stdout.contains("gravity.z → acceleration.z [g (Apple sign) → g]; specific force, device axes, Apple's sign negated"), "\(info.stdout)")
        let untimed = try PoiseProcess.run(["spectrum", file])
        #expect(untimed.status == 1 && untimed.stderr.contains("sub_1.csv:1: missing time column") && untimed.stderr.contains("--rate HZ"))
    }

    func formatsFile(_ relative: String) -> String { Self.formats + "/" + relative }
}
