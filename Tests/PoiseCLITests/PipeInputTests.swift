import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Inputs that can be read only once (a FIFO, a process substitution `<(zcat x.gz)`) are read
/// once, into a temporary copy every pass reads; a command blocked on one ends promptly on a
/// signal; and no interrupted command leaves anything in TMPDIR.
@Suite(.serialized) struct PipeInputTests {
    /// A FIFO at `path` and a thread that writes `contents` into it (when a reader opens it) and
    /// closes it; `keepOpen`: writes and never closes (a writer that never ends).
    static func fifo(_ path: String, writing contents: Data?, keepOpen: Bool = false) throws {
        try #require(mkfifo(path, 0o600) == 0)
        guard let contents else { return }
        Thread.detachNewThread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if keepOpen { Thread.sleep(forTimeInterval: 600) }
            close(descriptor)
        }
    }

    /// A private TMPDIR for one command, and what is in it.
    struct PrivateTemporaryFolder {
        let path: String
        init(_ scratch: Scratch) throws {
            path = scratch.path("tmp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["(missing)"] }
        var environment: [String: String] { ["TMPDIR": path] }
    }

    /// Every command that pre-scans or reads its input more than once gives the same output for a
    /// FIFO as for the file (each copy of the pipe read by every pass), and leaves TMPDIR empty.
    @Test(arguments: [["tilt"], ["spectrum"], ["replay", "--speed", "max", "--out", "-"], ["info"], ["gyro"], ["report", "--out", "-"]])
    func aFIFOReadsLikeItsFile(command: [String]) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.recording(count: 1500, rate: 100)
        let pipe = scratch.path("fifo-input")
        try Self.fifo(pipe, writing: try Data(contentsOf: URL(fileURLWithPath: file)))
        let temporary = try PrivateTemporaryFolder(scratch)
        let expected = try PoiseProcess.run([command[0], file] + command.dropFirst())
        let result = try PoiseProcess.run([command[0], pipe] + command.dropFirst(), environment: temporary.environment)
        #expect(result.status == expected.status, "\(result.stderr)")
        // A replay's and a report's text hold wall times: compared without the digits.
        let timed = command[0] == "replay" || command[0] == "report"
        func normalized(_ text: String) -> String { timed ? String(text.filter { !$0.isNumber }) : text }
        #expect(!result.stdout.isEmpty && normalized(result.stdout.replacingOccurrences(of: pipe, with: file).replacingOccurrences(of: "fifo-input", with: "tilt.csv")) == normalized(expected.stdout),
                "\(result.stdout.prefix(400)) \(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("poise-input-"), "the copy is named as the input")
        #expect(temporary.contents.isEmpty, "\(temporary.contents)")
    }

    /// A FIFO whose writer never comes, or never finishes: SIGTERM ends the command at once
    /// (143) with nothing left in TMPDIR nor next to the output.
    @Test(arguments: [false, true])
    func aBlockedFIFOEndsOnSIGTERM(writerComes: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pipe = scratch.path("pipe")
        try Self.fifo(pipe, writing: writerComes ? Data("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n".utf8) : nil, keepOpen: true)
        let temporary = try PrivateTemporaryFolder(scratch)
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["replay", pipe, "--speed", "max", "--out", scratch.path("out.csv")]
        process.environment = ProcessInfo.processInfo.environment.merging(temporary.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        #expect(process.isRunning, "waits for the pipe")
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        #expect(temporary.contents.isEmpty, "\(temporary.contents)")
        #expect(scratch.leftovers.isEmpty && !FileManager.default.fileExists(atPath: scratch.path("out.csv")))
    }

    /// Interrupted commands leave TMPDIR as it was: standard input being spooled (`tilt -`), and
    /// a paced replay of a FIFO (its copy made, the replay running).
    @Test func interruptedCommandsLeaveTMPDIREmpty() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.recording(count: 3000, rate: 100)
        // tilt - with a writer that never closes standard input.
        do {
            let temporary = try PrivateTemporaryFolder(scratch)
            let process = Process()
            process.executableURL = try #require(PoiseProcess.executable)
            process.arguments = ["tilt", "-"]
            process.environment = ProcessInfo.processInfo.environment.merging(temporary.environment) { $1 }
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: file)))
            let deadline = Date().addingTimeInterval(60)
            while temporary.contents.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(!temporary.contents.isEmpty, "the spool of standard input")
            process.interrupt()
            process.waitUntilExit()
            try input.fileHandleForWriting.close()
            #expect(process.terminationStatus == 130)
            #expect(temporary.contents.isEmpty, "\(temporary.contents)")
        }
        // replay --speed 1 of a FIFO, interrupted while it replays.
        do {
            let temporary = try PrivateTemporaryFolder(scratch)
            let pipe = scratch.path("pipe")
            try Self.fifo(pipe, writing: try Data(contentsOf: URL(fileURLWithPath: file)))
            let out = scratch.path("replayed.csv")
            let process = Process()
            process.executableURL = try #require(PoiseProcess.executable)
            process.arguments = ["replay", pipe, "--speed", "1", "--out", out]
            process.environment = ProcessInfo.processInfo.environment.merging(temporary.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while scratch.leftovers.isEmpty, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(!temporary.contents.isEmpty, "the copy of the pipe")
            process.interrupt()
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
            #expect(temporary.contents.isEmpty, "\(temporary.contents)")
        }
    }
}
