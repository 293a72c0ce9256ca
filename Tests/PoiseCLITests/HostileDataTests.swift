import Foundation
import Testing

/// Recordings that would give confident wrong numbers: missing sensors, time in the wrong unit,
/// nothing to score, every row dropped, long gaps, carriage-return line ends. Each case runs the
/// built `poise` and checks the exit status, the message, and that no number was printed from
/// data the file does not have.
@Suite struct HostileDataTests {
    // MARK: - Missing sensors

    @Test func fusionWithoutAGyroscopeStopsAndNamesTheSensor() throws {
        let files = try HostileFiles()
        let file = try files.recording("acc-only.csv", sensors: [.accelerometer], truth: "1,0,0,0", movement: "1")
        for arguments in [["fuse", file, "--mode", "6d"], ["fuse", file, "--mode", "6d", "--json"],
                          ["evaluate", file, "--mode", "6d"], ["evaluate", file, "--mode", "6d", "--json"]] {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("acc-only.csv"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no gyroscope columns"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("gyr_x_radps"), "the columns looked for: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) printed \(result.stdout.prefix(200))")
        }
    }

    @Test func commandsOnTheAccelerationRefuseAFileWithoutAccelerometer() throws {
        let files = try HostileFiles()
        let file = try files.recording("gyr-only.csv", sensors: [.gyroscope])
        let cases: [[String]] = [
            ["fuse", file, "--mode", "6d"],
            ["jitter", file, "--filter", "lowpass:cutoff=5"],
            ["jitter", file, "--filter", "lowpass:cutoff=5", "--json"],
            ["bench", file, "--filter", "factor"],
            ["step", "--filter", "factor:k=0.1", "--noise", file],
            ["replay", file, "--speed", "max"],
            ["tilt", file],
            ["gyro", file],
            ["report", file, "--out", files.path("report.html")],
            ["spectrum", file, "--channels", "acc_x"],
        ]
        for arguments in cases {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 1, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("gyr-only.csv") && result.stderr.contains("no accelerometer columns"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("acc_x_g"), "the columns looked for: \(result.stderr)")
            // Nothing computed: no jitter, attenuation, recommendation or rms figure.
            for word in ["attenuation", "recommend", "rms", "jitter "] {
                #expect(!result.stdout.contains(word), "\(arguments) printed \(word): \(result.stdout.prefix(300))")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: files.path("report.html")))
    }

    @Test func spectrumLeavesOutAbsentSensorsAndRefusesNamedOnes() throws {
        let files = try HostileFiles()
        let accOnly = try files.recording("acc-only.csv", sensors: [.accelerometer])
        let text = try PoiseProcess.run(["spectrum", accOnly])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("acc_x (g)"))
        #expect(!text.stdout.contains("gyr_"), "gyroscope columns analysed as zeros: \(text.stdout)")

        let json = try PoiseProcess.run(["spectrum", accOnly, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let columns = try #require(object["columns"] as? [[String: Any]], "\(object.keys)")
        #expect(columns.compactMap { $0["name"] as? String } == ["acc_x", "acc_y", "acc_z"])

        let gyrOnly = try files.recording("gyr-only.csv", sensors: [.gyroscope])
        let gyro = try PoiseProcess.run(["spectrum", gyrOnly])
        #expect(gyro.status == 0, "\(gyro.stderr)")
        #expect(gyro.stdout.contains("gyr_x (rad/s)") && !gyro.stdout.contains("acc_"), "\(gyro.stdout)")

        for (column, sensor) in [("gyr_x", "gyroscope"), ("mag_norm", "magnetometer")] {
            let named = try PoiseProcess.run(["spectrum", accOnly, "--channels", "acc_x,\(column)"])
            #expect(named.status == 1, "\(column): \(named.stderr)")
            #expect(named.stderr.contains("no \(sensor) columns") && named.stderr.contains("channel \(column)"), "\(named.stderr)")
            #expect(named.stdout.isEmpty)
        }
    }

    @Test func fusionStagesAndNineAxisModesNeedTheirSensors() throws {
        let files = try HostileFiles()
        let accOnly = try files.recording("acc-only.csv", sensors: [.accelerometer])
        let sixAxis = try files.recording("six.csv", sensors: [.accelerometer, .gyroscope], truth: "1,0,0,0", movement: "1")
        let cases: [([String], String)] = [
            (["replay", accOnly, "--speed", "max", "--pipeline", "fusion"], "fusion needs a gyroscope"),
            (["replay", sixAxis, "--speed", "max", "--pipeline", "fusion:9d"], "needs a magnetometer"),
            (["fuse", sixAxis, "--mode", "9d"], "magnetometer"),
            (["evaluate", sixAxis, "--mode", "9d"], "magnetometer"),
            (["tilt", accOnly, "--source", "fusion"], "gyroscope"),
            (["gyro", accOnly], "gyro aiming needs gyroscope columns"),
        ]
        for (arguments, phrase) in cases {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(phrase), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout.prefix(200))")
        }
        // Without a gyroscope tilt falls back to the accelerometer's gravity, which it has.
        let gravity = try PoiseProcess.run(["tilt", accOnly])
        #expect(gravity.status == 0, "\(gravity.stderr)")
        // replay writes no rotation-rate columns for a file without a gyroscope.
        let out = files.path("replayed.csv")
        let replayed = try PoiseProcess.run(["replay", accOnly, "--speed", "max", "--pipeline", "gravity", "--out", out])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let header = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").first.map(String.init)
        #expect(header == "t_s,acc_x_g,acc_y_g,acc_z_g,grav_x_g,grav_y_g,grav_z_g,uacc_x_g,uacc_y_g,uacc_z_g", "\(header ?? "")")
    }

    @Test func remapWritesOnlyTheSensorsTheFileHas() throws {
        let files = try HostileFiles()
        for (sensors, header) in [([HostileFiles.Sensor.gyroscope], "t_s,gyr_x_radps,gyr_y_radps,gyr_z_radps"),
                                  ([.accelerometer], "t_s,acc_x_g,acc_y_g,acc_z_g")] {
            let file = try files.recording("in-\(header.count).csv", sensors: sensors)
            let out = files.path("out-\(header.count).csv")
            let result = try PoiseProcess.run(["remap", file, "--axes", "+Y-X+Z", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(written.split(separator: "\n").first.map(String.init) == header, "\(written.prefix(200))")
        }
    }

    // MARK: - Time unit

    @Test func millisecondsUnderASecondsHeaderAreRefusedWithTheUnitThatFixesThem() throws {
        let files = try HostileFiles()
        let file = try files.recording("ms.csv", sensors: [.accelerometer, .gyroscope], timeScale: 1000)
        let cases: [[String]] = [
            ["fuse", file, "--mode", "6d"], ["jitter", file, "--filter", "lowpass:cutoff=5"],
            ["spectrum", file], ["replay", file, "--speed", "max"], ["tilt", file], ["gyro", file],
            ["bench", file, "--filter", "factor"], ["remap", file, "--axes", "+Y-X+Z", "--out", files.path("r.csv")],
            ["report", file, "--out", files.path("r.html")],
        ]
        for arguments in cases {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status == 1, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("ms.csv") && result.stderr.contains("sample rate 0.1 Hz"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--time-unit ms") && result.stderr.contains("100 Hz"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout.prefix(200))")
        }
        // The advice works: the same commands run at 100 Hz.
        let fixed = try PoiseProcess.run(["fuse", file, "--mode", "6d", "--json", "--time-unit", "ms"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        let rate = try #require(object["sample_rate_hz"] as? Double)
        #expect(abs(rate - 100) < 1e-6)
        let jitter = try PoiseProcess.run(["jitter", file, "--filter", "lowpass:cutoff=5", "--time-unit", "ms"])
        #expect(jitter.status == 0 && jitter.stdout.contains("rate 100.00 Hz"), "\(jitter.stdout) \(jitter.stderr)")
    }

    @Test func epochNanosecondsUnderASecondsHeaderAreRefused() throws {
        let files = try HostileFiles()
        let file = try files.recording("ns.csv", sensors: [.accelerometer, .gyroscope], timeScale: 1e9,
                                       timeOffset: 1_700_000_000_000_000_000)
        let result = try PoiseProcess.run(["fuse", file, "--mode", "6d", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("1e-7 Hz") && result.stderr.contains("--time-unit ns"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let fixed = try PoiseProcess.run(["replay", file, "--speed", "max", "--json", "--time-unit", "ns"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        let rate = try #require(report["sample_rate_hz"] as? Double)
        #expect(abs(rate - 100) < 0.01, "\(rate)")
    }

    @Test func infoReportsAnImplausibleRateAndTheTimeUnitOverridesIt() throws {
        let files = try HostileFiles()
        let file = try files.recording("ms.csv", sensors: [.accelerometer, .gyroscope], timeScale: 1000)
        let plain = try PoiseProcess.run(["info", file])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("suspicious:") && plain.stdout.contains("--time-unit ms"), "\(plain.stdout)")
        let fixed = try PoiseProcess.run(["info", file, "--time-unit", "ms", "--json"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        #expect(abs((object["sample_rate_hz"] as? Double ?? 0) - 100) < 0.01)
        let suspicious = object["suspicious"] as? [String] ?? ["missing"]
        #expect(!suspicious.contains { $0.contains("sample rate") }, "\(suspicious)")
    }

    // MARK: - Nothing to score, nothing read

    @Test func evaluateWithNoScoredRowIsAnErrorThatSaysWhy() throws {
        let files = try HostileFiles()
        let resting = try files.recording("mask0.csv", sensors: [.accelerometer, .gyroscope], truth: "1,0,0,0", movement: "0")
        let untracked = try files.recording("nantruth.csv", sensors: [.accelerometer, .gyroscope], truth: "nan,nan,nan,nan", movement: "1")
        for (file, phrase) in [(resting, "0 have movement = 1"), (untracked, "has a finite ground-truth quaternion")] {
            for extra in [[], ["--json"]] {
                let result = try PoiseProcess.run(["evaluate", file, "--mode", "6d"] + extra)
                #expect(result.status == 1, "\(file): \(result.stderr)")
                #expect(result.stderr.contains("no row can be scored") && result.stderr.contains(phrase), "\(result.stderr)")
                #expect(!result.stdout.contains("nan") && !result.stdout.contains("total"), "\(result.stdout)")
            }
        }
    }

    @Test func infoCallsDroppedRowsSuspicious() throws {
        let files = try HostileFiles()
        var all = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 300 { all += "\(Double(i) / 100),x,0,1\n" }
        let allDropped = files.path("all-dropped.csv")
        try all.write(toFile: allDropped, atomically: true, encoding: .utf8)
        let result = try PoiseProcess.run(["info", allDropped])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("nothing suspicious"), "\(result.stdout)")
        #expect(result.stdout.contains("every data row (300) was dropped"), "\(result.stdout)")
        // One line for the 300 bad fields: the kind, its count and where it first happened.
        #expect(result.stdout.contains("notANumber × 300, first: \(allDropped):2:2"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "is not a number").count - 1 == 1, "\(result.stdout)")

        var some = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 300 { some += "\(Double(i) / 100),\(i % 10 == 0 ? "x" : "0"),0,1\n" }
        let someDropped = files.path("some-dropped.csv")
        try some.write(toFile: someDropped, atomically: true, encoding: .utf8)
        let partly = try PoiseProcess.run(["info", someDropped])
        #expect(partly.status == 0)
        #expect(partly.stdout.contains("30 of 300 data rows (10 %) were dropped"), "\(partly.stdout)")
    }

    // MARK: - Gaps

    @Test(.timeLimit(.minutes(2)))
    func realTimeReplaySkipsATwoHourGapAndListsIt() throws {
        let files = try HostileFiles()
        let file = try files.recording("gap.csv", sensors: [.accelerometer, .gyroscope], count: 100, gapAfter: 50, gap: 7200)
        // Real time (speed 1): waiting out the gap would take two hours; the watchdog fails at 60 s.
        let result = try HostileFiles.run(["replay", file, "--json", "--normal-priority"], watchdog: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["stopped"] as? Bool == false)
        #expect(report["samples"] as? Int == 100)
        #expect(report["gaps_skipped"] as? Int == 1)
        let gaps = try #require(report["gaps"] as? [[String: Double]])
        #expect(gaps.count == 1)
        #expect(abs((gaps.first?["start_s"] ?? 0) - 0.49) < 1e-9 && abs((gaps.first?["end_s"] ?? 0) - 7200.5) < 1e-9, "\(gaps)")
        #expect(abs((report["gap_limit_s"] as? Double ?? 0) - 1) < 1e-6)

        let text = try HostileFiles.run(["replay", file, "--speed", "max"], watchdog: 60)
        #expect(text.stdout.contains("gaps      1 longer than 1.000 s skipped"), "\(text.stdout)")
    }

    @Test func frameClocksEmitNoFramesForAGapUnlessAsked() throws {
        let files = try HostileFiles()
        let file = try files.recording("gap.csv", sensors: [.accelerometer, .gyroscope], count: 100, gapAfter: 50, gap: 100)
        func rows(_ path: String) throws -> Int {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count - 1
        }
        // tilt: about 1 s of data at 60 frames/s, not 100 s of held frames.
        let skipped = try PoiseProcess.run(["tilt", file, "--frame-rate", "60", "--out", files.path("t.csv")])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("gaps: 1 longer than 1 s, no frames written"), "\(skipped.stdout)")
        let skippedRows = try rows(files.path("t.csv"))
        #expect(skippedRows <= 62, "\(skippedRows) frames")
        let kept = try PoiseProcess.run(["tilt", file, "--frame-rate", "60", "--keep-gaps", "--out", files.path("k.csv")])
        #expect(kept.status == 0 && !kept.stdout.contains("gaps:"), "\(kept.stdout)")
        #expect(try rows(files.path("k.csv")) >= 6000)
        let larger = try PoiseProcess.run(["tilt", file, "--frame-rate", "60", "--max-gap", "200", "--out", files.path("l.csv")])
        #expect(larger.status == 0 && !larger.stdout.contains("gaps:"))

        // replay --frame-rate: frames only around the samples.
        let replay = try PoiseProcess.run(["replay", file, "--speed", "max", "--frame-rate", "60", "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        let frames = try #require((report["frames"] as? [String: Any])?["frames"] as? Int)
        #expect(frames <= 62, "\(frames) frames")
        let full = try PoiseProcess.run(["replay", file, "--speed", "max", "--frame-rate", "60", "--keep-gaps", "--json"])
        let fullReport = try #require(try JSONSerialization.jsonObject(with: Data(full.stdout.utf8)) as? [String: Any])
        #expect(((fullReport["frames"] as? [String: Any])?["frames"] as? Int ?? 0) >= 6000)
        #expect(fullReport["gaps_skipped"] as? Int == 0)

        let bad = try PoiseProcess.run(["replay", file, "--max-gap", "0"])
        #expect(bad.status == 64 && bad.stderr.contains("--max-gap"), "\(bad.stderr)")
    }

    // MARK: - Carriage-return line ends

    @Test func carriageReturnOnlyFilesAreReadLikeAnyOther() throws {
        let files = try HostileFiles()
        let lf = try files.recording("lf.csv", sensors: [.accelerometer, .gyroscope], count: 400)
        let text = try String(contentsOfFile: lf, encoding: .utf8)
        let cr = files.path("cr.csv")
        try text.replacingOccurrences(of: "\n", with: "\r").write(toFile: cr, atomically: true, encoding: .utf8)

        let info = try PoiseProcess.run(["info", cr])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("400 rows") && info.stdout.contains("carriage return only"), "\(info.stdout)")
        #expect(!info.stdout.contains("unknown"), "\(info.stdout)")
        for extra in [[String](), ["--strict"]] {
            let strict = try PoiseProcess.run(["info", cr, "--json"] + extra)
            #expect(strict.status == 0, "\(strict.stderr)")
        }
        let fromLF = try PoiseProcess.run(["fuse", lf, "--mode", "6d"])
        let fromCR = try PoiseProcess.run(["fuse", cr, "--mode", "6d"])
        #expect(fromCR.status == 0, "\(fromCR.stderr)")
        #expect(fromCR.stdout == fromLF.stdout && !fromCR.stdout.isEmpty)

        // A bad row is located on its line, counted the way an editor counts CR lines.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[5] = "0.05,oops,0,1,0,0,0"
        let bad = files.path("cr-bad.csv")
        try lines.joined(separator: "\r").write(toFile: bad, atomically: true, encoding: .utf8)
        let located = try PoiseProcess.run(["fuse", bad, "--mode", "6d"])
        #expect(located.status == 1)
        #expect(located.stderr.contains("cr-bad.csv:6:2:"), "\(located.stderr)")
    }
}

/// Small recordings written into a temporary folder, removed with the value.
private final class HostileFiles {
    enum Sensor { case accelerometer, gyroscope, magnetometer }

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `count` rows at 100 Hz with the given sensors: still for the first half (small wobble),
    /// then slowly rotating about x. Times are `timeOffset + t × timeScale` (t in seconds), with
    /// `gap` seconds added after row `gapAfter`. `truth` / `movement`: fixed text for the gt_q*
    /// and movement columns (omitted when nil).
    func recording(_ name: String, sensors: [Sensor], count: Int = 600, timeScale: Double = 1,
                   timeOffset: Double = 0, gapAfter: Int? = nil, gap: Double = 0,
                   truth: String? = nil, movement: String? = nil) throws -> String {
        var header = ["t_s"]
        if sensors.contains(.accelerometer) { header += ["acc_x_g", "acc_y_g", "acc_z_g"] }
        if sensors.contains(.gyroscope) { header += ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"] }
        if sensors.contains(.magnetometer) { header += ["mag_x_uT", "mag_y_uT", "mag_z_uT"] }
        if truth != nil { header += ["gt_qw", "gt_qx", "gt_qy", "gt_qz"] }
        if movement != nil { header.append("movement") }
        var text = header.joined(separator: ",") + "\n"
        for i in 0 ..< count {
            var t = Double(i) / 100
            if let gapAfter, i >= gapAfter { t += gap }
            let moving = i >= count / 2
            let angle = moving ? 0.5 * Double(i - count / 2) / 100 : 0
            let wobble = 0.001 * Double(i % 5 - 2)
            var fields = [timeScale == 1 && timeOffset == 0 ? "\(t)" : String(format: "%.0f", timeOffset + t * timeScale)]
            if sensors.contains(.accelerometer) { fields += ["\(wobble)", "\(sin(angle))", "\(cos(angle))"] }
            if sensors.contains(.gyroscope) { fields += [moving ? "0.5" : "\(wobble)", "0.0", "0.0"] }
            if sensors.contains(.magnetometer) { fields += ["20", "0", "-40"] }
            if let truth { fields.append(truth) }
            if let movement { fields.append(movement) }
            text += fields.joined(separator: ",") + "\n"
        }
        let file = path(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Runs `poise`, killing it and failing when it takes longer than `watchdog` seconds.
    static func run(_ arguments: [String], watchdog: Double) throws -> PoiseProcess {
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable, "the poise executable was not built next to the tests")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(watchdog)
        // Read the pipes on another thread so a full pipe cannot stall the child.
        nonisolated(unsafe) var stdoutData = Data(), stderrData = Data()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { stdoutData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        readers.wait()
        #expect(!timedOut, "poise \(arguments.joined(separator: " ")) ran longer than \(watchdog) s")
        return PoiseProcess(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
