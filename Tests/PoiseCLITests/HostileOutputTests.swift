import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Hostile outputs for every command that writes: an output that is an input (same name, through
/// a symbolic link, through a hard link), `-`, a FIFO, a symbolic link, `/dev/null`, a full
/// standard output (`/dev/full`), a missing or unwritable folder, SIGTERM and SIGINT mid-write. Every case runs in
/// its own temporary folder and checks the exit status, the message, and that no input or
/// unrelated file changed (content hash, kind and link target of every entry before and after).
@Suite(.serialized) struct HostileOutputTests {
    // MARK: - Output equal to an input

    /// The commands that take `FILE` and an output option, with the arguments they need.
    static let writers: [(name: String, arguments: @Sendable (String, String) -> [String])] = [
        ("fuse", { ["fuse", $0, "--mode", "6d", "--out", $1] }),
        ("remap", { ["remap", $0, "--orientation", "portrait", "--out", $1] }),
        ("tilt", { ["tilt", $0, "--out", $1] }),
        ("replay", { ["replay", $0, "--speed", "max", "--out", $1] }),
        ("report", { ["report", $0, "--kinds", "factor", "--out", $1] }),
    ]

    @Test(arguments: ["same path", "symbolic link", "hard link"])
    func anOutputThatIsTheInputIsRefusedBeforeAnyWork(how: String) throws {
        for writer in Self.writers {
            let scratch = try Scratch()
            defer { scratch.remove() }
            let input = try scratch.recording(count: 300, rate: 100)
            let output: String
            switch how {
            case "same path": output = input
            case "symbolic link":
                output = scratch.path("link.csv")
                try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "tilt.csv")
            default:
                output = scratch.path("hard.csv")
                #expect(link(input, output) == 0)
            }
            let before = try FolderState(scratch.folder.path)
            let result = try HostileRun.run(writer.arguments(input, output))
            #expect(result.status == 1, "\(writer.name) (\(how)): \(result.stderr)")
            #expect(result.stderr.contains("refusing to write") && result.stderr.contains("input file"),
                    "\(writer.name) (\(how)): \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(writer.name): a data error, not a usage error")
            if how != "same path" { #expect(result.stderr.contains("another name"), "\(writer.name): \(result.stderr)") }
            #expect(try FolderState(scratch.folder.path) == before, "\(writer.name) (\(how)) changed a file")
        }
    }

    @Test func standardOutputAppendedToTheInputIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let before = try FolderState(scratch.folder.path)
        let append = try #require(FileHandle(forWritingAtPath: input))
        append.seekToEndOfFile()
        let result = try HostileRun.run(["fuse", input, "--mode", "6d"], standardOutput: append)
        try append.close()
        #expect(result.status == 1)
        #expect(result.stderr.contains("standard output: refusing to write"), "\(result.stderr)")
        #expect(try FolderState(scratch.folder.path) == before)
    }

    // MARK: - `-` and standard input

    @Test func dashWritesStandardOutputForEveryOutputOption() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        // Each data stream, and the summary or report that must not be mixed into it.
        let cases: [(arguments: [String], firstLine: String, summary: String)] = [
            (["fuse", input, "--mode", "6d", "--json", "--out", "-"], "t_s,", "flag_counts"),
            (["remap", input, "--orientation", "portrait", "--out", "-"], "t_s,acc_x_g", "remapped "),
            (["remap", input, "--orientation", "portrait"], "t_s,acc_x_g", "remapped "),
            (["tilt", input, "--out", "-"], "t_s,acc_x_g", "tilt: "),
            (["replay", input, "--speed", "max", "--out", "-"], "t_s,acc_x_g", "delivery"),
            (["simulate", "--scenario", "walking", "--duration", "1", "--out", "-"], "t_s,acc_x_g", "wrote "),
            (["bench", input, "--filter", "factor", "--grid", "k=0.1/0.2", "--csv", "--output", "-"], "", "\u{0}"),
            (["report", input, "--kinds", "factor", "--out", "-"], "<!DOCTYPE html>", "KiB; pipeline"),
        ]
        let before = try FolderState(scratch.folder.path)
        for (arguments, firstLine, summary) in cases {
            let result = try HostileRun.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.hasPrefix(firstLine) && !result.stdout.isEmpty, "\(arguments): \(result.stdout.prefix(120))")
            #expect(!result.stdout.contains(summary), "\(arguments): a summary in the data stream")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("-")) && !FileManager.default.fileExists(atPath: "-"))
        }
        // `/dev/stdout` is standard output too, written through (never renamed onto), when it is
        // the usual link to /proc/self/fd/1.
        var info = stat()
        if lstat("/dev/stdout", &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            for arguments in [["simulate", "--scenario", "walking", "--duration", "1", "--out", "/dev/stdout"],
                              ["remap", input, "--orientation", "portrait", "--out", "/dev/stdout"]] {
                let result = try HostileRun.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stdout.hasPrefix("t_s,acc_x_g") && !result.stdout.contains("wrote ") && !result.stdout.contains("remapped "),
                        "\(arguments): \(result.stdout.prefix(120))")
                #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "\(arguments) replaced /dev/stdout")
            }
        }
        // `replay --out -` puts its report on standard error instead.
        let replay = try HostileRun.run(["replay", input, "--speed", "max", "--out", "-"])
        #expect(replay.stderr.contains("delivery"), "\(replay.stderr)")
        #expect(try FolderState(scratch.folder.path) == before)
    }

    /// Standard input for a command: `path` opened (`redirect` "file", as `< path`), or its bytes
    /// written into a pipe by another thread ("pipe", as `cat path |`).
    static func standardInput(reading path: String, through redirect: String) throws -> FileHandle {
        if redirect == "file" { return try #require(FileHandle(forReadingAtPath: path)) }
        let pipe = Pipe()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        Thread.detachNewThread { pipe.fileHandleForWriting.write(bytes); try? pipe.fileHandleForWriting.close() }
        return pipe.fileHandleForReading
    }

    @Test func dashReadsStandardInputReplayIncluded() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let direct = try HostileRun.run(["fuse", input, "--mode", "6d"])
        for redirect in ["file", "pipe"] {
            let stdin = try Self.standardInput(reading: input, through: redirect)
            let piped = try HostileRun.run(["fuse", "-", "--mode", "6d"], standardInput: stdin)
            #expect(piped.status == 0, "\(redirect): \(piped.stderr)")
            #expect(piped.stdout == direct.stdout && !piped.stdout.isEmpty, "\(redirect)")
        }
        let info = try HostileRun.run(["info", "-"], standardInput: try #require(FileHandle(forReadingAtPath: input)))
        #expect(info.status == 0 && info.stdout.contains("300"), "\(info.stderr)")
        // Replay reads its input twice (the pre-scan, then the delivery): standard input is copied
        // once, and the output stream equals the file's.
        let replayed = try HostileRun.run(["replay", input, "--speed", "max", "--pipeline", "lowpass:cutoff=5", "--out", "-"])
        for redirect in ["file", "pipe"] {
            let stdin = try Self.standardInput(reading: input, through: redirect)
            let replay = try HostileRun.run(["replay", "-", "--speed", "max", "--pipeline", "lowpass:cutoff=5", "--out", "-"],
                                            standardInput: stdin)
            #expect(replay.status == 0, "\(redirect): \(replay.stderr)")
            #expect(replay.stdout == replayed.stdout && replay.stdout.split(separator: "\n").count == 301, "\(redirect)")
        }
        // A bad row on standard input is named `-:LINE:COLUMN`, as for a file, however it is read.
        let bad = scratch.folder.appendingPathComponent("bad.csv").path
        var lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[5] = "x" + lines[5].dropFirst()
        try lines.joined(separator: "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        for redirect in ["file", "pipe"] {
            let stdin = try Self.standardInput(reading: bad, through: redirect)
            let replay = try HostileRun.run(["replay", "-", "--speed", "max"], standardInput: stdin)
            #expect(replay.status == 1 && replay.stderr.contains("-:6:1"), "\(redirect): \(replay.stderr)")
            #expect(!replay.stderr.contains("/dev/stdin") && !replay.stderr.contains("poise-input"), "\(redirect): \(replay.stderr)")
        }
        // The report reads its input in several passes: standard input (a pipe) is kept in a
        // temporary file for them, removed afterwards; the page's numbers equal the file's.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let spoolsBefore = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("poise-stdin-") }
        let piped = try HostileRun.run(["report", "-", "--kinds", "factor", "--out", "-"],
                                       standardInput: try Self.standardInput(reading: input, through: "pipe"))
        let fromFile = try HostileRun.run(["report", input, "--kinds", "factor", "--out", "-"])
        #expect(piped.status == 0 && fromFile.status == 0, "\(piped.stderr)")
        func table(_ html: String) -> String { html.components(separatedBy: "<table>").dropFirst().first ?? "" }
        #expect(!table(piped.stdout).isEmpty && table(piped.stdout) == table(fromFile.stdout))
        let spoolsAfter = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("poise-stdin-") }
        #expect(Set(spoolsAfter).subtracting(spoolsBefore).isEmpty, "temporary copy of standard input left behind")
    }

    // MARK: - Devices, FIFOs, symbolic links

    @Test func devNullStaysADevice() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let before = try FolderState(scratch.folder.path)
        for arguments in [["fuse", input, "--mode", "6d", "--out", "/dev/null"], ["remap", input, "--orientation", "portrait", "--out", "/dev/null"],
                          ["replay", input, "--speed", "max", "--out", "/dev/null"], ["tilt", input, "--out", "/dev/null"]] {
            let result = try HostileRun.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            var info = stat()
            #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(arguments) replaced /dev/null")
        }
        #expect(try FolderState(scratch.folder.path) == before)
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func aFifoIsWrittenThroughAndStaysAFifo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let fifo = scratch.path("stream.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let expected = try HostileRun.run(["remap", input, "--orientation", "portrait"]).stdout
        for arguments in [["remap", input, "--orientation", "portrait", "--out", fifo], ["fuse", input, "--mode", "6d", "--out", fifo],
                          ["replay", input, "--speed", "max", "--out", fifo]] {
            let before = try FolderState(scratch.folder.path)
            let received = FifoReader(fifo)
            let result = try HostileRun.run(arguments)
            let text = received.wait()
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(text.hasPrefix("t_s,") && text.split(separator: "\n").count == 301, "\(arguments): \(text.prefix(100))")
            if arguments[0] == "remap" { #expect(text == expected) }
            #expect(try FolderState(scratch.folder.path) == before, "\(arguments): the FIFO must stay a FIFO")
        }
    }

    @Test func aSymbolicLinkKeepsPointingAtItsReplacedTarget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        try FileManager.default.createDirectory(atPath: scratch.path("results"), withIntermediateDirectories: true)
        let target = scratch.path("results/motion.csv")
        try "old contents\n".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(chmod(target, 0o640) == 0)
        let link = scratch.path("latest.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "results/motion.csv")
        let inputState = try FileState(input)
        let result = try HostileRun.run(["fuse", input, "--mode", "6d", "--out", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "results/motion.csv")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("t_s,") && written.split(separator: "\n").count == 301)
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o640, "the target's permissions are kept")
        #expect(try FileState(input) == inputState)
        #expect(scratch.leftovers.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("results")) == ["motion.csv"])

        // A dangling link: its target is created, the link stays.
        let dangling = scratch.path("next.csv")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "results/next.csv")
        let second = try HostileRun.run(["remap", input, "--orientation", "portrait", "--out", dangling])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "results/next.csv")
        #expect(try String(contentsOfFile: scratch.path("results/next.csv"), encoding: .utf8).hasPrefix("t_s,"))
    }

    // MARK: - Failed writes and messages

    @Test func aFullStandardOutputIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let cases = [["info", input], ["info", input, "--json"], ["spectrum", input, "--json"],
                     ["replay", input, "--speed", "max", "--json"], ["fuse", input, "--mode", "6d"], ["remap", input, "--orientation", "portrait"],
                     ["tilt", input], ["simulate", "--scenario", "walking", "--duration", "1", "--out", "-"]]
        let before = try FolderState(scratch.folder.path)
        for arguments in cases {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let result = try HostileRun.run(arguments, standardOutput: full)
            try full.close()
            #expect(result.status == 1, "\(arguments): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.contains("standard output") && (result.stderr.contains("no space left") || result.stderr.contains("write failed")),
                    "\(arguments): \(result.stderr)")
        }
        #expect(try FolderState(scratch.folder.path) == before)
    }

    @Test func outputProblemsAreSaidInPlainWords() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let missing = scratch.path("no-such-folder/out.csv")
        let before = try FolderState(scratch.folder.path)
        for arguments in [["fuse", input, "--mode", "6d", "--out", missing], ["remap", input, "--orientation", "portrait", "--out", missing],
                          ["tilt", input, "--out", missing], ["replay", input, "--speed", "max", "--out", missing],
                          ["simulate", "--scenario", "walking", "--duration", "1", "--out", missing],
                          ["bench", input, "--filter", "factor", "--grid", "k=0.1", "--output", missing],
                          ["report", input, "--kinds", "factor", "--out", missing]] {
            let result = try HostileRun.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(missing): cannot create the file: the folder \(scratch.path("no-such-folder")) does not exist"),
                    "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Usage:"), "\(arguments): \(result.stderr)")
        }
        let folder = try HostileRun.run(["fuse", input, "--mode", "6d", "--out", scratch.folder.path])
        #expect(folder.status == 1 && folder.stderr.contains("it is a folder"), "\(folder.stderr)")
        let full = try HostileRun.run(["fuse", input, "--mode", "6d", "--out", "/dev/full"])
        #expect(full.status == 1 && full.stderr.contains("/dev/full: write failed: no space left"), "\(full.stderr)")
        #expect(try FolderState(scratch.folder.path) == before)
        #expect(scratch.leftovers.isEmpty)
    }

    /// As root every folder is writable, so this runs the commands as `nobody` (uid 65534).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnwritableFolderIsSaidInPlainWords() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let locked = scratch.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        #expect(chmod(locked, 0o555) == 0 && chmod(scratch.folder.path, 0o755) == 0 && chmod(input, 0o644) == 0)
        let out = locked + "/out.csv"
        let before = try FolderState(scratch.folder.path)
        for arguments in [["fuse", input, "--mode", "6d", "--out", out], ["remap", input, "--orientation", "portrait", "--out", out],
                          ["tilt", input, "--out", out], ["replay", input, "--speed", "max", "--out", out],
                          ["simulate", "--scenario", "walking", "--duration", "1", "--out", out],
                          ["bench", input, "--filter", "factor", "--grid", "k=0.1", "--output", out],
                          ["report", input, "--kinds", "factor", "--out", out]] {
            let result = try HostileRun.run(arguments, asNobody: true)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(out): cannot create the file: no permission to create files in the folder \(locked)"),
                    "\(arguments): \(result.stderr)")
        }
        #expect(try FolderState(scratch.folder.path) == before)
    }

    @Test func benchDataErrorsExitOneWithoutTheUsage() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bad = scratch.path("bad.csv")
        try "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,zero,0,1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try HostileRun.run(["bench", bad, "--filter", "factor"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("bad.csv:3:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
        let missing = try HostileRun.run(["bench", scratch.path("none.csv"), "--filter", "factor"])
        #expect(missing.status == 1 && !missing.stderr.contains("Usage:"), "\(missing.stderr)")
        let usage = try HostileRun.run(["bench", bad])
        #expect(usage.status == 64 && usage.stderr.contains("Usage:"), "\(usage.stderr)")
    }

    // MARK: - Signals

    @Test func sigtermDuringReplayPrintsTheReportCompletesTheFileAndExits143() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 3000, rate: 100)   // 30 s in real time
        let out = scratch.path("out.csv")
        let before = try FolderState(scratch.folder.path)
        let result = try HostileRun.run(["replay", input, "--out", out], signal: SIGTERM, whenExists: { scratch.leftovers.first })
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stdout.contains("stopped") && result.stdout.contains("delivery"), "\(result.stdout)")
        let rows = try csvRows(out)
        #expect(rows.count > 1 && rows.count < 3001)
        #expect(scratch.leftovers.isEmpty)
        var after = try FolderState(scratch.folder.path)
        after.entries["out.csv"] = nil
        #expect(after == before)
    }

    @Test func sigintDuringReplayExits130AfterTheReport() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 3000, rate: 100)
        let result = try HostileRun.run(["replay", input, "--json", "--out", scratch.path("out.csv")], signal: SIGINT,
                                        whenExists: { scratch.leftovers.first })
        #expect(result.status == 130, "\(result.stderr)")
        #expect(try json(result.stdout)["stopped"] as? Bool == true)
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func sigtermDuringFuseLeavesNoFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try InterruptTests.longRecording(scratch, rows: 600_000)
        let out = scratch.path("motion.csv")
        try "previous\n".write(toFile: out, atomically: true, encoding: .utf8)
        let before = try FolderState(scratch.folder.path)
        let result = try HostileRun.run(["fuse", input, "--mode", "9d", "--out", out], signal: SIGTERM,
                                        whenExists: { scratch.leftovers.first })
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stderr.contains("terminated"), "\(result.stderr)")
        #expect(scratch.leftovers.isEmpty)
        #expect(try FolderState(scratch.folder.path) == before, "the previous output and the input are untouched")
    }

    @Test func aClosedOutputPipeEndsTheCommandWithStatus141() throws {
        // `poise fuse … --out - | head -1` once head has gone: the reading end is closed before
        // the command writes. Streamed output (an OutputFile) and printed text (info) both end
        // with 128 + SIGPIPE and no message, instead of dying from the signal.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 6000, rate: 100)
        for arguments in [["fuse", input, "--mode", "6d", "--out", "-"], ["info", input]] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let result = try HostileRun.run(arguments, standardOutput: pipe.fileHandleForWriting)
            try? pipe.fileHandleForWriting.close()
            #expect(result.status == 141, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(arguments[0]): \(result.stderr)")
        }
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func sigtermDuringAWriteWithoutAFlagLeavesNoTemporaryFile() throws {
        // `report` has no interrupt flag; it opens its output first, then sweeps for a while, so
        // the signal lands mid-work: the handler deletes the temporary file and exits 143.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 6000, rate: 100)
        let out = scratch.path("page.html")
        let result = try HostileRun.run(["report", input, "--out", out], signal: SIGTERM, whenExists: { scratch.leftovers.first })
        #expect(result.status == 143, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(scratch.leftovers.isEmpty)
    }
}

// MARK: - Helpers

/// Runs `poise` with chosen standard streams, optionally sending a signal once a file appears.
private enum HostileRun {
    static func run(_ arguments: [String], standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil,
                    signal: Int32? = nil, whenExists: (() -> String?)? = nil, asNobody: Bool = false) throws -> PoiseProcess {
        let process = Process()
        let poise = try #require(PoiseProcess.executable, "the poise executable was not built next to the tests")
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", poise.path] + arguments
        } else {
            process.executableURL = poise
            process.arguments = arguments
        }
        let out = Pipe(), err = Pipe()
        process.standardInput = standardInput ?? FileHandle.nullDevice
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        // Read both pipes while the process runs, so a large output cannot block it.
        let collected = Collected()
        let group = DispatchGroup()
        for (handle, isOutput) in [(out.fileHandleForReading, true), (err.fileHandleForReading, false)] {
            group.enter()
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                collected.store(data, isOutput: isOutput)
                group.leave()
            }
        }
        try process.run()
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        if let signal {
            // Wait (at most 60 s) until the command is mid-write, then signal it.
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, whenExists?() == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, signal)
        }
        process.waitUntilExit()
        group.wait()
        return PoiseProcess(status: process.terminationStatus, stdout: collected.text(output: true), stderr: collected.text(output: false))
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var output = Data(), error = Data()
        func store(_ data: Data, isOutput: Bool) { lock.lock(); if isOutput { output = data } else { error = data }; lock.unlock() }
        func text(output isOutput: Bool) -> String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: isOutput ? output : error, as: UTF8.self)
        }
    }
}

/// Reads a FIFO to its end on another thread (the writer's open blocks until it is opened).
private final class FifoReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ path: String) {
        Thread.detachNewThread { [self] in
            if let handle = FileHandle(forReadingAtPath: path) {
                data = handle.readDataToEndOfFile()
                try? handle.close()
            }
            done.signal()
        }
    }

    /// The text read (waits at most 60 s).
    func wait() -> String {
        _ = done.wait(timeout: .now() + 60)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a folder entry is: kind, link target, content hash (FNV-1a 64) and size.
private struct FileState: Equatable {
    var kind: UInt32
    var linkTarget: String?
    var hash: UInt64
    var size: Int

    init(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        kind = UInt32(info.st_mode & S_IFMT)
        size = Int(info.st_size)
        hash = 0xcbf2_9ce4_8422_2325
        if kind == UInt32(S_IFLNK) {
            linkTarget = try FileManager.default.destinationOfSymbolicLink(atPath: path)
        } else if kind == UInt32(S_IFREG) {
            for byte in try Data(contentsOf: URL(fileURLWithPath: path)) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
    }
}

/// Every entry of a folder (recursively) with its `FileState`.
private struct FolderState: Equatable {
    var entries: [String: FileState] = [:]

    init(_ folder: String) throws {
        let names = FileManager.default.subpaths(atPath: folder) ?? []
        for name in names { entries[name] = try FileState(folder + "/" + name) }
    }
}
