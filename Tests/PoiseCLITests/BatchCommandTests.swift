import Foundation
import Testing

/// `poise batch` over a folder of real recordings (data/) mixed with bad files: the summary table,
/// the mirrored outputs (equal to running the command on each file), resuming, --force, --shard,
/// errors with their position, exit statuses, and Ctrl-C.
@Suite(.serialized) struct BatchCommandTests {
    static let data = SpectrumCommandTests.packageRoot.appendingPathComponent("data")

    /// `in/`: walking.csv, shake.csv, sub/tilt-steps.csv (real data/ recordings), an empty file,
    /// a truncated one (cut inside its 23rd line), one that is no recording, and README.md.
    static func mixedFolder(_ scratch: Scratch) throws -> String {
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        for name in ["walking.csv", "shake.csv"] {
            try FileManager.default.copyItem(atPath: data.appendingPathComponent(name).path, toPath: folder + "/" + name)
        }
        try FileManager.default.copyItem(atPath: data.appendingPathComponent("tilt-steps.csv").path, toPath: folder + "/sub/tilt-steps.csv")
        let still = try Data(contentsOf: data.appendingPathComponent("still.csv"))
        let lines = still.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let cut = lines.prefix(22).reduce(0) { $0 + $1.count + 1 } + 10  // 10 bytes into line 23
        try still.prefix(cut).write(to: URL(fileURLWithPath: folder + "/truncated.csv"))
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.csv"))
        try "minutes of the meeting, not a recording\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        try "what is in this folder\n".write(toFile: folder + "/README.md", atomically: true, encoding: .utf8)
        return folder
    }

    /// The summary CSV as rows of named fields (quoted fields with commas handled).
    static func table(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var records: [[String]] = []
        var record: [String] = [], field = "", quoted = false, previous: Character = " "
        for character in text {
            if quoted {
                if character == "\"" { quoted = false } else { field.append(character) }
            } else if character == "\"" {
                if previous == "\"" { field.append("\"") }
                quoted = true
            } else if character == "," {
                record.append(field); field = ""
            } else if character == "\n" {
                record.append(field); records.append(record); record = []; field = ""
            } else {
                field.append(character)
            }
            previous = character
        }
        let header = try #require(records.first)
        return records.dropFirst().map { values in
            Dictionary(uniqueKeysWithValues: zip(header, values))
        }
    }

    static func byName(_ rows: [[String: String]]) -> [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: rows.map { (($0["input"]! as NSString).lastPathComponent, $0) })
    }

    static func modified(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    @Test func aMixedFolderGivesOneOutputPerRecordingAndASummary() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try Self.mixedFolder(scratch)
        let out = scratch.path("out")
        let result = try PoiseProcess.run(["batch", "fuse", "--mode", "6d", folder, "--out", out, "--jobs", "2"])
        #expect(result.status == 1, "some inputs failed: \(result.stderr)")
        #expect(result.stdout.hasPrefix("fuse: 7 inputs: 3 ok, 3 failed, 1 skipped\n"), "\(result.stdout)")
        #expect(result.stderr.contains("Error: 3 of 7 inputs failed"))

        let rows = Self.byName(try Self.table(out + "/batch-summary.csv"))
        #expect(Set(rows.keys) == ["walking.csv", "shake.csv", "tilt-steps.csv", "truncated.csv", "empty.csv", "notes.txt", "README.md"])
        for name in ["walking.csv", "shake.csv", "tilt-steps.csv"] {
            let row = try #require(rows[name])
            #expect(row["status"] == "ok" && row["error"] == "")
            // Mirrored output, byte for byte what `poise fuse` writes for the file alone.
            let input = try #require(row["input"])
            let alone = try PoiseProcess.run(["fuse", "--mode", "6d", input, "--out", "-"])
            #expect(try String(contentsOfFile: try #require(row["output"]), encoding: .utf8) == alone.stdout, "\(name)")
            let dataRows = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").count - 1
            #expect(Int(row["rows"] ?? "") == dataRows, "\(name)")
            let rate = try #require(Double(row["sample_rate_hz"] ?? ""))
            #expect(abs(rate - 100) < 1)
            #expect((Double(row["seconds"] ?? "") ?? -1) > 0)
        }
        #expect(rows["tilt-steps.csv"]?["output"] == out + "/sub/tilt-steps.csv")
        #expect(rows["truncated.csv"]?["status"] == "failed")
        #expect(rows["truncated.csv"]?["error"]?.hasPrefix(folder + "/truncated.csv:23:") == true, "\(rows["truncated.csv"] ?? [:])")
        #expect(rows["empty.csv"]?["error"] == folder + "/empty.csv: empty file (no header line)")
        #expect(rows["notes.txt"]?["error"]?.hasPrefix(folder + "/notes.txt:1: missing time column") == true)
        #expect(rows["README.md"]?["status"] == "skipped")
        #expect(rows["README.md"]?["error"]?.contains("not a recording format Poise reads (extension .md)") == true)
        for name in ["truncated.csv", "empty.csv", "notes.txt", "README.md"] {
            #expect(rows[name]?["rows"] == "" && rows[name]?["sample_rate_hz"] == "", "no number for \(name)")
        }
        // Only the three outputs and the summary; nothing partial.
        let written = try FileManager.default.subpathsOfDirectory(atPath: out).sorted()
        #expect(written == ["batch-summary.csv", "batch-summary.json", "shake.csv", "sub", "sub/tilt-steps.csv", "walking.csv"])

        // The JSON holds the same table.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/batch-summary.json"))) as? [[String: Any]])
        #expect(json.count == 7)
        for object in json {
            let name = ((object["input"] as? String ?? "") as NSString).lastPathComponent
            #expect(object["status"] as? String == rows[name]?["status"])
            #expect((object["rows"] as? Int).map(String.init) ?? "" == rows[name]?["rows"])
        }
    }

    @Test func aRerunSkipsWhatIsDoneAndForceRedoesIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try Self.mixedFolder(scratch)
        let out = scratch.path("out")
        let arguments = ["batch", "info", folder, "--out", out, "--exclude", "truncated.csv", "--exclude", "empty.csv", "--exclude", "notes.txt"]
        let first = try PoiseProcess.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("info: 4 inputs: 3 ok, 0 failed, 1 skipped\n"))
        let firstRows = Self.byName(try Self.table(out + "/batch-summary.csv"))
        let walkingOutput = out + "/walking.json"
        let written = try Self.modified(walkingOutput)

        // Nothing changed: everything is skipped, outputs untouched, numbers carried over.
        let second = try PoiseProcess.run(arguments)
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("info: 4 inputs: 0 ok, 0 failed, 4 skipped\n"), "\(second.stdout)")
        let secondRows = Self.byName(try Self.table(out + "/batch-summary.csv"))
        #expect(try Self.modified(walkingOutput) == written)
        for name in ["walking.csv", "shake.csv", "tilt-steps.csv"] {
            #expect(secondRows[name]?["status"] == "skipped")
            for column in ["rows", "duration_s", "sample_rate_hz", "sensors"] {
                #expect(secondRows[name]?[column] == firstRows[name]?[column], "\(name) \(column)")
            }
        }
        #expect(firstRows["walking.csv"]?["sensors"] == "acc+gyr+mag+truth")

        // An input newer than its output is done again.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: folder + "/shake.csv")
        let third = try PoiseProcess.run(arguments)
        #expect(third.stdout.hasPrefix("info: 4 inputs: 1 ok, 0 failed, 3 skipped\n"), "\(third.stdout)")
        #expect(Self.byName(try Self.table(out + "/batch-summary.csv"))["shake.csv"]?["status"] == "ok")

        let forced = try PoiseProcess.run(arguments + ["--force"])
        #expect(forced.stdout.hasPrefix("info: 4 inputs: 3 ok, 0 failed, 1 skipped\n"), "\(forced.stdout)")
        #expect(try Self.modified(walkingOutput) > written)
    }

    @Test func shardsShareTheInputsWithoutOverlap() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try Self.mixedFolder(scratch)
        func planned(_ extra: [String]) throws -> [String] {
            let result = try PoiseProcess.run(["batch", "evaluate", folder, "--out", scratch.path("out"), "--plan"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            return rows.compactMap { $0["input"] as? String }
        }
        let all = try planned([])
        #expect(all.count == 7)
        let shards = try (0 ..< 3).map { try planned(["--shard", "\($0)/3"]) }
        #expect(shards.map(\.count) == [3, 2, 2])
        #expect(shards.flatMap { $0 }.sorted() == all.sorted())
        #expect(Set(shards[0]).isDisjoint(with: shards[1]) && Set(shards[1]).isDisjoint(with: shards[2]))
        let bad = try PoiseProcess.run(["batch", "info", folder, "--out", scratch.path("out"), "--shard", "3/3"])
        #expect(bad.status == 64 && bad.stderr.contains("--shard"))
    }

    @Test func aMissingInputFailsAloneAndABadOptionStopsBeforeAnyFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let walking = Self.data.appendingPathComponent("walking.csv").path
        let out = scratch.path("out")
        let result = try PoiseProcess.run(["batch", "info", scratch.path("gone.csv"), walking, "--out", out])
        #expect(result.status == 1)
        let rows = Self.byName(try Self.table(out + "/batch-summary.csv"))
        #expect(rows["walking.csv"]?["status"] == "ok")
        #expect(rows["gone.csv"]?["status"] == "failed")
        #expect(rows["gone.csv"]?["error"] == "cannot read \(scratch.path("gone.csv")): no such file or folder", "\(rows["gone.csv"] ?? [:])")

        let usage = try PoiseProcess.run(["batch", "fuse", "--mode", "7d", walking, "--out", scratch.path("never")])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("poise fuse:") && usage.stderr.contains("7d"), "\(usage.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("never")))
        let stdin = try PoiseProcess.run(["batch", "info", "-", "--out", scratch.path("never")])
        #expect(stdin.status == 64)
    }

    @Test func ctrlCKeepsWhatFinishedAndARerunDoesTheRest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.path("long")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0 ..< 8 {
            let made = try PoiseProcess.run(["simulate", "--scenario", "walking", "--duration", "150", "--seed", "\(index)",
                                             "--out", folder + "/r\(index).csv"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let out = scratch.path("out")
        // Interrupted once the workers write their first outputs (a condition, not a time: a
        // loaded machine starts them late).
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["batch", "fuse", folder, "--out", out, "--jobs", "2"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline,
              !((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).contains(where: { $0.hasPrefix("r") }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.interrupt()
        let interrupted = (status: { process.waitUntilExit(); return process.terminationStatus }(),
                           stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        let rows = try Self.table(out + "/batch-summary.csv")
        #expect(rows.count == 8)
        let finished = rows.filter { $0["status"] == "ok" }
        #expect(rows.allSatisfy { $0["status"] == "ok" || $0["status"] == "interrupted" }, "\(rows.map { $0["status"] ?? "" })")
        #expect(finished.count < 8, "interrupted while its first outputs were written")
        // Every output present is complete; none is partial.
        let present = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("r") }
        #expect(present.allSatisfy { !$0.contains(".partial-") }, "\(present)")
        #expect(Set(present.map { out + "/" + $0 }) == Set(finished.compactMap { $0["output"] }))

        let resumed = try PoiseProcess.run(["batch", "fuse", folder, "--out", out, "--jobs", "2"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasPrefix("fuse: 8 inputs: \(8 - finished.count) ok, 0 failed, \(finished.count) skipped\n"), "\(resumed.stdout)")
        let after = try Self.table(out + "/batch-summary.csv")
        #expect(after.allSatisfy { !($0["rows"] ?? "").isEmpty }, "every row has its numbers, skipped ones from the earlier summary")
    }

    /// The worker processes of `pid` (from /proc; empty where the kernel does not list children).
    static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task/\(getpid())/children"), "needs /proc/PID/task/PID/children"))
    func aKilledWorkerAndAFileDeletedDuringTheRunFailAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try PoiseProcess.run(["simulate", "--scenario", "walking", "--duration", "300", "--out", folder + "/a-long.csv"])
        try #require(made.status == 0)
        for name in ["b-walking.csv", "z-steering.csv"] {
            try FileManager.default.copyItem(atPath: Self.data.appendingPathComponent(String(name.dropFirst(2))).path, toPath: folder + "/" + name)
        }
        let out = scratch.path("out")
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["batch", "fuse", folder, "--out", out, "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first worker (a-long.csv, seconds of work): crash it, and delete the last input meanwhile.
        var worker: Int32?
        for _ in 0 ..< 500 where worker == nil {
            worker = Self.children(of: process.processIdentifier).first
            if worker == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        try FileManager.default.removeItem(atPath: folder + "/z-steering.csv")
        kill(try #require(worker, "no worker started"), SIGKILL)  // as a crash or the OOM killer would; uncatchable
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let rows = Self.byName(try Self.table(out + "/batch-summary.csv"))
        #expect(rows["a-long.csv"]?["status"] == "failed")
        #expect(rows["a-long.csv"]?["error"] == "the worker process was ended by SIGKILL; no output was written")
        #expect(rows["b-walking.csv"]?["status"] == "ok")
        #expect(rows["z-steering.csv"]?["status"] == "failed")
        #expect(rows["z-steering.csv"]?["error"] == folder + "/z-steering.csv: cannot open the file (No such file or directory)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["b-walking.csv", "batch-summary.csv", "batch-summary.json"])
    }

    /// A 96 KiB tmpfs (only where this process may mount one: root on Linux), unmounted by `remove`.
    struct SmallDisk {
        let folder: String

        init?(in scratch: Scratch) {
            guard geteuid() == 0 else { return nil }
            folder = scratch.path("small")
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=96k", "tmpfs", folder]) else { return nil }
        }

        func remove() { _ = Self.run("/bin/umount", [folder]) }

        static func run(_ tool: String, _ arguments: [String]) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }

    static let canMount: Bool = {
        guard let scratch = try? Scratch() else { return false }
        defer { scratch.remove() }
        guard let disk = SmallDisk(in: scratch) else { return false }
        disk.remove()
        return true
    }()

    @Test(.enabled(if: canMount, "needs to mount a small tmpfs (root on Linux)"))
    func aFullDiskStopsTheBatchAndKeepsTheCompletedOutputs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let disk = try #require(SmallDisk(in: scratch))
        defer { disk.remove() }
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0 ..< 24 {
            try FileManager.default.copyItem(atPath: Self.data.appendingPathComponent("walking.csv").path, toPath: folder + "/w\(index).csv")
        }
        let out = disk.folder + "/out"
        let result = try PoiseProcess.run(["batch", "info", folder, "--out", out, "--jobs", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no space left on the device"), "\(result.stderr)")
        #expect(result.stderr.contains("free space and run the same command again"), "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("w") }
        #expect(!written.isEmpty && written.count < 24, "\(written)")
        #expect(written.allSatisfy { !$0.contains(".partial-") }, "\(written)")
        // Every output kept is complete: what `poise info --json` prints for the file alone.
        let alone = try PoiseProcess.run(["info", folder + "/w0.csv", "--json"]).stdout
        for name in written {
            let input = folder + "/" + (name as NSString).deletingPathExtension + ".csv"
            let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            #expect(text == alone.replacingOccurrences(of: folder + "/w0.csv", with: input), "\(name)")
        }
    }
}

/// `batch` walks stay inside the given folders: a link to `/proc/self` or to a folder elsewhere is
/// listed as skipped, a link inside is followed (each folder once), `--follow-links` follows all.
@Suite struct BatchLinkTests {
    @Test func linksOutsideTheInputFoldersAreNotFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.path("in"), elsewhere = scratch.path("elsewhere")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        _ = try scratch.recording("in/sub/a.csv", count: 20, rate: 100)
        _ = try scratch.recording("elsewhere/b.csv", count: 20, rate: 100)
        try FileManager.default.createSymbolicLink(atPath: folder + "/self", withDestinationPath: "/proc/self")
        try FileManager.default.createSymbolicLink(atPath: folder + "/other", withDestinationPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: folder + "/again", withDestinationPath: folder + "/sub")
        func plan(_ extra: [String]) throws -> [[String: Any]] {
            let result = try PoiseProcess.run(["batch", "info", folder, "--out", scratch.path("out"), "--plan"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        }
        let rows = try plan([])
        let pending = rows.filter { $0["status"] as? String == "pending" }.compactMap { $0["input"] as? String }
        // again/ (first by name) and sub/ are one folder, walked once.
        #expect(pending == [folder + "/again/a.csv"], "\(rows)")
        let skipped = rows.filter { $0["status"] as? String == "skipped" }.compactMap { $0["input"] as? String }
        #expect(skipped.sorted() == [folder + "/other", folder + "/self"], "\(rows)")
        let followed = try plan(["--follow-links", "--exclude", "self"]).filter { $0["status"] as? String == "pending" }
        #expect(followed.compactMap { $0["input"] as? String } == [folder + "/again/a.csv", folder + "/other/b.csv"])
    }
}
