#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import PoiseRecording

/// `poise batch COMMAND [command options] INPUT… --out DIR`: one command over many recordings,
/// one worker process per input (`BatchRunner`), one output per input mirrored under `--out`,
/// one summary table (`BatchSummary`). See docs/scaling.md.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run \(BatchKind.namesInWords) over files and folders, on every core, with one summary table.",
        discussion: """
        Folders are walked recursively; a session folder or a .zip export is one input. Each input is \
        run by its own `poise COMMAND` process (a crash ends only that input), its output written to \
        OUT with the input's path below its argument and the command's extension (fuse, convert: \
        .csv; evaluate, info, spectrum: the command's JSON, .json; report: .html). \
        The summary (OUT/batch-summary.csv and .json unless --summary) has per input: input, output, \
        status (ok, failed, skipped, interrupted), error, seconds, rows and the command's headline \
        numbers. A rerun skips inputs whose output is newer than the input (--force redoes them). \
        On a terminal a progress line shows files done, rows/s and the time left. \
        Exit status: 0 when every input is ok or skipped, 1 when any failed (the summary says \
        which and why), 130/143 when interrupted (the summary lists what finished; a rerun resumes).
        """)

    @Argument(help: ArgumentHelp("The command run on each input: \(BatchKind.allCases.map(\.rawValue).joined(separator: ", "))."))
    var command: BatchKind

    @Option(help: ArgumentHelp("Folder for the outputs (created when missing).", valueName: "folder"))
    var out: String

    @Option(parsing: .unconditional, help: "Worker processes at once (default: the number of active processors).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Only files (and session folders) whose name or path below the argument matches this glob (repeatable), whatever their extension.", valueName: "glob"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Leave out files and folders whose name or path below the argument matches this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Summary table: PREFIX.csv and PREFIX.json (default: OUT/batch-summary, with --shard OUT/batch-summary-K-of-N); '-': the JSON on standard output.", valueName: "prefix"))
    var summary: String?

    @Flag(help: "Process every input, also those whose output is newer than the input.")
    var force = false

    @Option(help: ArgumentHelp("Take only every N-th input, starting at the K-th (K = 0…N−1, in the sorted input order): N array tasks with K = 0…N−1 share the inputs without overlap.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "Print the plan (the summary table with status pending for what would run) as JSON and stop.")
    var plan = false

    @Flag(name: .customLong("follow-links"), help: "In walked folders, follow symbolic links whose target lies outside the given folders too (default: only links that stay inside them).")
    var followLinks = false

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Files and folders, and the command's own options.", valueName: "input"))
    var arguments: [String] = []

    func validate() throws {
        try OptionRange("--jobs", 1, 1024, unit: "processes").check(jobs)
        _ = try shardSelection()
        _ = try split()
    }

    /// `--shard K/N` as (K, N), or nil.
    func shardSelection() throws -> (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0 ..< count).contains(index) else {
            throw ValidationError("--shard: expected K/N with N ≥ 1 and K = 0…N−1 (e.g. 0/4), got '\(shard)'")
        }
        return (index, count)
    }

    /// The arguments split into inputs and the command's options, each option checked by the
    /// command's own parser (a mistake is a usage error before any file is touched).
    func split() throws -> (inputs: [String], options: [String]) {
        let placeholder = ["INPUT"] + (command.writesOutOption ? ["--out", "OUTPUT"] : [])
        func parses(_ options: [String]) -> Bool { (try? command.command.parse(placeholder + options)) != nil }
        var inputs: [String] = []
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { inputs += arguments[index...]; break }
            guard token.hasPrefix("-") && token != "-" else { inputs.append(token); continue }
            let name = String(token.prefix { $0 != "=" })
            if BatchKind.reservedOptions.contains(name) {
                if name == "--json" { continue }  // batch asks for the JSON itself
                throw ValidationError("\(name) is batch's own option (the outputs go under --out)")
            }
            if token.contains("=") || parses(options + [token]) {
                options.append(token)
            } else if index < arguments.count, parses(options + [token, arguments[index]]) {
                options += [token, arguments[index]]
                index += 1
            } else {
                do { _ = try command.command.parse(placeholder + options + [token] + (index < arguments.count ? [arguments[index]] : [])) } catch {
                    throw ValidationError("poise \(command.rawValue): \(command.command.message(for: error))")
                }
                options.append(token)
            }
        }
        do { _ = try command.command.parse(placeholder + options + command.addedArguments(options: options)) } catch {
            throw ValidationError("poise \(command.rawValue): \(command.command.message(for: error))")
        }
        if inputs.contains("-") { throw ValidationError("batch reads files and folders, not standard input ('-')") }
        if inputs.isEmpty { throw ValidationError("give at least one file or folder") }
        return (inputs, options)
    }

    func run() throws {
        let (inputs, options) = try split()
        let selection = try shardSelection()
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw ExitPolicy.userFacing(error)
        }
        let prefix = summary ?? (out as NSString).appendingPathComponent(
            "batch-summary" + (selection.map { "-\($0.index)-of-\($0.count)" } ?? ""))
        var found = BatchInputs(include: include, exclude: exclude, outFolder: realPath(out), followLinks: followLinks).find(inputs)
        if let selection { found = found.enumerated().filter { $0.offset % selection.count == selection.index }.map(\.element) }
        let rows = planned(found, options: options, summaryPrefix: prefix)
        if plan {
            print(BatchSummary(kind: command, rows: rows).json(), terminator: "")
            return
        }
        let runner = BatchRunner(kind: command, options: options, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let result = try runner.run(rows)
        let table = BatchSummary(kind: command, rows: result.rows)
        var summaryProblem: String?
        do {
            if prefix == "-" { print(table.json(), terminator: "") } else { try table.write(prefix: prefix) }
        } catch {
            summaryProblem = "the summary was not written: \(ExitPolicy.userFacing(error))"
        }
        report(result, summaryPrefix: prefix)
        if let summaryProblem { throw CommandError(summaryProblem) }
        if let stop = result.stoppedBy { throw stop }
        let failed = result.rows.filter { $0.status == .failed }.count
        if failed > 0 { throw CommandError("\(failed) of \(result.rows.count) inputs failed (listed above and in the summary)") }
    }

    /// Each input's output path and what to do with it: failed (missing, or its output name is
    /// taken), skipped (not a recording, or its output is newer than it, with the numbers of the
    /// earlier summary), or pending.
    func planned(_ found: [BatchInput], options: [String], summaryPrefix: String) -> [BatchRow] {
        let outputs = found.map { outputPath(for: $0, options: options) }
        var claimed: [String: [Int]] = [:]
        for (index, output) in outputs.enumerated() where found[index].skipReason == nil { claimed[output, default: []].append(index) }
        let summaryFiles = Set([summaryPrefix + ".csv", summaryPrefix + ".json"])
        let previous = BatchSummary.previous(prefix: summaryPrefix)
        return found.enumerated().map { index, input in
            var row = BatchRow(input: input.path, output: outputs[index], status: .pending)
            if let problem = input.problem {
                row.status = .failed
                row.error = problem
            } else if let reason = input.skipReason {
                row.status = .skipped
                row.output = ""
                row.error = reason
            } else if summaryFiles.contains(row.output) {
                row.status = .failed
                row.error = "its output \(row.output) would be the summary table; give --summary another name"
            } else if let others = claimed[row.output], others.count > 1 {
                row.status = .failed
                row.error = "its output \(row.output) is also the output of "
                    + others.filter { $0 != index }.map { found[$0].path }.joined(separator: ", ") + "; rename one or --exclude it"
            } else if !force, BatchCommand.isUpToDate(output: row.output, input: input.path) {
                row.status = .skipped
                row.cells = (previous[input.path] ?? [:]).filter { !["input", "output", "status", "error", "seconds"].contains($0.key) }
            }
            return row
        }
    }

    /// `OUT/<path below the argument, its extension replaced by the command's>`.
    func outputPath(for input: BatchInput, options: [String]) -> String {
        let relative = input.relative as NSString
        let stem = (relative.lastPathComponent as NSString).deletingPathExtension
        let name = (stem.isEmpty ? relative.lastPathComponent : stem) + "." + command.outputExtension(options: options)
        let folder = relative.deletingLastPathComponent
        return ((out as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(name)
    }

    /// True when `output` is a regular file modified at or after `input` (for a folder, the
    /// newest of it and the files in it).
    static func isUpToDate(output: String, input: String) -> Bool {
        var outputInfo = stat()
        guard stat(output, &outputInfo) == 0, outputInfo.st_mode & S_IFMT == S_IFREG,
              let inputTime = modified(input) else { return false }
        return seconds(outputInfo) >= inputTime
    }

    static func modified(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var newest = seconds(info)
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                if let time = modified((path as NSString).appendingPathComponent(name)) { newest = max(newest, time) }
            }
        }
        return newest
    }

    static func seconds(_ info: stat) -> Double {
        #if canImport(Darwin)
        Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) * 1e-9
        #else
        Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) * 1e-9
        #endif
    }

    /// The closing lines: counts on standard output (standard error with `--summary -`), failed
    /// inputs with their errors on standard error.
    func report(_ result: BatchRunner.Result, summaryPrefix: String) {
        let rows = result.rows
        func count(_ status: BatchRow.Status) -> Int { rows.filter { $0.status == status }.count }
        var text = "\(command.rawValue): \(rows.count) inputs: \(count(.ok)) ok, \(count(.failed)) failed, \(count(.skipped)) skipped"
        if count(.interrupted) > 0 { text += ", \(count(.interrupted)) not finished" }
        text += "\n"
        let processedRows = rows.filter { $0.status == .ok }.compactMap { row -> Int? in
            if case .integer(let n)? = row.cells["rows"] { return n } else { return nil }
        }.reduce(0, +)
        text += String(format: "%d rows in %.2f s with %d jobs", processedRows, result.seconds, result.jobs)
        if processedRows > 0 && result.seconds > 0 { text += " (" + ProgressLine.rate(Double(processedRows) / result.seconds) + ")" }
        text += "\n"
        if summaryPrefix != "-" { text += "summary: \(summaryPrefix).csv, \(summaryPrefix).json\n" }
        if summaryPrefix == "-" { StandardError.write(text) } else { print(text, terminator: "") }
        for row in rows where row.status == .failed {
            StandardError.write("failed: " + (row.error.hasPrefix(row.input) ? row.error : "\(row.input): \(row.error)") + "\n")
        }
        if let notice = result.notice { StandardError.write("poise batch: \(notice)\n") }
    }
}
