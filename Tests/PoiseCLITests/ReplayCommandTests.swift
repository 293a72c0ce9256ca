import Foundation
import Testing

/// Runs the built `poise` executable (it sits next to the test bundle in the build folder).
struct PoiseProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    static var executable: URL? {
        let testBinary = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0])
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0 ..< 4 {
            let candidate = folder.appendingPathComponent("poise")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `poise arguments…`; `interruptAfter` sends SIGINT after that many seconds;
    /// `standardInput` replaces the test's own.
    /// `environment`: variables set for this run on top of the test's own environment.
    static func run(_ arguments: [String], interruptAfter: Double? = nil, standardInput: FileHandle? = nil,
                    environment: [String: String] = [:]) throws -> PoiseProcess {
        let process = Process()
        process.executableURL = try #require(executable, "the poise executable was not built next to the tests")
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let standardInput { process.standardInput = standardInput }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: interruptAfter)
            process.interrupt()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PoiseProcess(status: process.terminationStatus,
                            stdout: String(decoding: stdoutData, as: UTF8.self),
                            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// A scratch folder with a simulated recording: `count` samples at `rate` Hz, lying flat
/// (0, 0, 1 g) with a small known wobble on x, tilting upright (0, 1 g, 0) halfway.
struct Scratch {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func recording(_ name: String = "tilt.csv", count: Int, rate: Double, timeColumn: Bool = true) throws -> String {
        var text = (timeColumn ? "t_s," : "") + "acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for i in 0 ..< count {
            let upright = i >= count / 2
            let wobble = 0.001 * Double(i % 5 - 2)
            if timeColumn { text += "\(Double(i) / rate)," }
            text += "\(wobble),\(upright ? 1.0 : 0.0),\(upright ? 0.0 : 1.0),0.001,-0.002,0.003\n"
        }
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".partial-") }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

func csvRows(_ path: String) throws -> [[String]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
}

@Suite(.serialized) struct ReplayCommandTests {
    @Test func maximumSpeedReplayWritesEverySampleAndJSONReport() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 400, rate: 100)
        let result = try PoiseProcess.run(["replay", input, "--pipeline", "none", "--speed", "max", "--json", "--out", scratch.path("out.csv")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no status line on a pipe")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 400)
        #expect(report["speed"] as? String == "max")
        #expect(abs((report["sample_rate_hz"] as? Double ?? 0) - 100) < 1e-9)
        #expect(report["lateness_us"] == nil)
        let rows = try csvRows(scratch.path("out.csv"))
        #expect(rows.first == ["t_s", "acc_x_g", "acc_y_g", "acc_z_g", "gyr_x_radps", "gyr_y_radps", "gyr_z_radps"])
        #expect(rows.count == 401)
        let inputRows = try csvRows(input)
        // An empty pipeline passes values through exactly.
        for (written, read) in zip(rows.dropFirst(), inputRows.dropFirst()) {
            #expect(written.map { Double($0)! } == read.map { Double($0)! })
        }
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func fileWithoutTimeColumnReplaysAtTheGivenRate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording("notime.csv", count: 300, rate: 50, timeColumn: false)
        let result = try PoiseProcess.run(["replay", input, "--rate", "50", "--pipeline", "none", "--speed", "max", "--json",
                                           "--out", scratch.path("out.csv")])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 300)
        #expect(abs((report["sample_rate_hz"] as? Double ?? 0) - 50) < 1e-9)
        let rows = try csvRows(scratch.path("out.csv"))
        #expect(rows.count == 301)
        // Row n is timed n / 50 s.
        for (n, row) in rows.dropFirst().enumerated() { #expect(Double(row[0]) == Double(n) / 50) }
        // poise info says how the rows were timed.
        let info = try PoiseProcess.run(["info", input, "--rate", "50", "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        let fields = try json(info.stdout)
        #expect(fields["assigned_sample_rate_hz"] as? Double == 50)
        #expect(abs((fields["sample_rate_hz"] as? Double ?? 0) - 50) < 1e-6)
        #expect(abs((fields["duration_s"] as? Double ?? 0) - 299.0 / 50) < 1e-9)
    }

    @Test func reportHasFilteringFiguresPerStageAndForThePipeline() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 600, rate: 100)   // still 3 s flat, then 3 s upright
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--json", "--pipeline", "factor:k=0.1 | factor:k=0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        // conventions.md: y ← 0.1·x + 0.9·y takes 22 samples; followed by y ← 0.5·x + 0.5·y, 23
        // (scipy: lfilter([0.5], [1, -0.5], lfilter([0.1], [1, -0.9], ones)) first reaches 0.9 at k = 23).
        #expect(report["latency90_samples"] as? [String: Int] == ["tilt": 23, "shake": 23])
        let stages = try #require(report["stages"] as? [[String: Any]])
        #expect(stages.map { $0["stage"] as? String } == ["factor:k=0.1", "factor:k=0.5"])
        #expect((stages[0]["latency90_samples"] as? [String: Int])?["tilt"] == 22)
        #expect(report["still_segments"] as? Int == 2)
        let jitter = try #require(report["jitter"] as? [String: Double])
        #expect(jitter["attenuation"]! > 1)
        #expect(jitter["input"]! > jitter["output"]!)
        // The text report shows the same figures.
        let text = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "factor:k=0.1"])
        let row = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("  factor:k=0.1") })
        #expect(row.split(separator: " ").prefix(3) == ["factor:k=0.1", "22", "220"])
    }

    @Test func realTimeReplayIsPacedAndReportsTiming() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 60, rate: 100)
        let start = Date()
        let result = try PoiseProcess.run(["replay", input, "--json"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(elapsed >= 0.59)
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 60)
        let lateness = try #require(report["lateness_us"] as? [String: Double])
        for key in ["p50", "p90", "p99", "max", "mean"] { #expect(lateness[key] != nil, "\(key)") }
        // A loose bound, because tests share the machine with builds and other tests (the
        // benchmark measures real pacing): the median sample must arrive within one period.
        #expect(lateness["p50"]! < 10_000)
        #expect(report["drift_us"] as? Double != nil)
        #expect(report["late_samples"] as? Int != nil)
    }

    @Test func controlCStopsCleanlyCompletesTheFileAndStillReports() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 20 s in real time, interrupted after 3 s: the signal lands after the handler is set up
        // and before the end even when a loaded machine starts the process slowly.
        let input = try scratch.recording(count: 2000, rate: 100)
        let result = try PoiseProcess.run(["replay", input, "--out", scratch.path("out.csv")], interruptAfter: 3)
        #expect(result.status == 130, "\(result.stderr)")  // interrupted, after the report
        #expect(result.stdout.contains("stopped"))
        let delivered = try #require(result.stdout.split(separator: "\n").first { $0.contains("delivery") })
        let count = try #require(Int(delivered.split(separator: " ").first { Int($0) != nil } ?? ""))
        #expect(count > 10 && count < 2000)
        let rows = try csvRows(scratch.path("out.csv"))
        #expect(rows.count == count + 1)
        #expect(rows.dropFirst().allSatisfy { $0.count == 7 })
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func frameModeWritesOneRowPerFrameWithStackedSamples() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 301, rate: 100)   // 0 … 3 s
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--frame-rate", "30", "--json", "--out", scratch.path("frames.csv")])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        let frames = try #require(report["frames"] as? [String: Any])
        #expect(frames["frames"] as? Int == 90)
        let rows = try csvRows(scratch.path("frames.csv"))
        #expect(Array(rows[0].prefix(4)) == ["frame", "t_s", "stacked", "acc_x_g"])
        #expect(rows.count == 91)
        #expect(rows.dropFirst().map { Int($0[2])! }.reduce(0, +) == 301)
    }

    @Test func unreplayableInputGivesClearErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fast = try scratch.recording("fast.csv", count: 100, rate: 2000.0 / 7)
        let noTime = try scratch.recording("notime.csv", count: 100, rate: 100, timeColumn: false)
        let cases: [([String], [String])] = [
            (["replay", fast], ["285.7 Hz", "--rate 100"]),
            // A file without a time column needs --rate, and the reader says so, naming file and line.
            (["replay", noTime], ["notime.csv:1", "missing time column", "--rate HZ"]),
            (["replay", fast, "--rate", "250"], ["above the real-time limit"]),
            (["replay", fast, "--pipeline", "lowpas:cutoff=5", "--speed", "max"], ["stage 1", "unknown stage 'lowpas'"]),
            (["replay", scratch.path("missing.csv")], ["missing.csv"]),
            (["replay", fast, "--speed", "fast"], ["--speed"]),
            (["replay", fast, "--rate", "0"], ["--rate"]),
        ]
        for (arguments, phrases) in cases {
            let result = try PoiseProcess.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            for phrase in phrases { #expect(result.stderr.contains(phrase), "\(arguments): \(result.stderr)") }
        }
    }
}
