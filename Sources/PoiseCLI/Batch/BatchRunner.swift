#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import PoiseRecording

/// Runs the pending rows of a batch plan, up to `jobs` worker processes at once (`BatchWorker`:
/// the same `poise` executable, one input each), and fills in each row's status, error, time
/// and headline numbers.
///
/// - A failing or crashing worker fails only its input; its error is the worker's own message
///   (with file, line and column) or the signal that ended it.
/// - SIGINT or SIGTERM: no new worker starts, running workers get SIGTERM (they stop without
///   leaving a partial output) and are waited for; unfinished inputs are `interrupted`.
/// - A full disk (or quota) for the outputs: no new worker starts; those running finish; the
///   rest are `interrupted` with the reason. Completed outputs stay.
struct BatchRunner {
    var kind: BatchKind
    var options: [String]
    var jobs: Int

    struct Result {
        var rows: [BatchRow]
        var seconds: Double
        var jobs: Int
        /// The exit status of an interrupted batch, or nil.
        var stoppedBy: ExitCode?
        /// Why the batch stopped early (full disk), or nil.
        var notice: String?
    }

    private struct Running {
        var row: Int
        var worker: BatchWorker
        var standardOutput: String
        var standardError: String
    }

    /// What a full output disk looks like in a worker's message (`FileProblem` wording).
    static let fullDiskReasons = [FileProblem.describe(errno: ENOSPC, path: ""), FileProblem.describe(errno: EDQUOT, path: "")]

    func run(_ plan: [BatchRow]) throws -> Result {
        var rows = plan
        // The workers' standard output and error, read when each ends.
        let (scratch, slot): (String, Int?)
        do { (scratch, slot) = try TemporaryFiles.makeFolder(prefix: "poise-batch", purpose: "the workers' messages") } catch {
            throw ExitPolicy.userFacing(error)
        }
        defer {
            try? FileManager.default.removeItem(atPath: scratch)
            TemporaryFiles.remove(scratch, slot: slot)
        }
        let executable = BatchWorker.executable
        let interrupt = InterruptFlag()
        defer { interrupt.restore() }
        let progress = ProgressLine.forStandardError(label: kind.rawValue)
        var pending = rows.indices.filter { rows[$0].status == .pending }.reversed() as [Int]
        let toRun = pending.count
        var running: [pid_t: Running] = [:]
        var stopReason: String?
        var signalled = false
        var rowsDone = 0, processed = 0, failed = 0
        let start = Date().timeIntervalSinceReferenceDate
        var serial = 0
        while !running.isEmpty || (stopReason == nil && !pending.isEmpty) {
            if interrupt.isSet && !signalled {
                signalled = true
                stopReason = stopReason ?? "the batch was \(interrupt.verb)"
                for job in running.values { kill(job.worker.pid, SIGTERM) }
            }
            while stopReason == nil && running.count < jobs, let index = pending.popLast() {
                serial += 1
                let out = scratch + "/\(serial).out", err = scratch + "/\(serial).err"
                do {
                    try FileManager.default.createDirectory(atPath: (rows[index].output as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    let worker = try BatchWorker.start(executable, arguments(for: rows[index]), standardOutput: out, standardError: err)
                    running[worker.pid] = Running(row: index, worker: worker, standardOutput: out, standardError: err)
                } catch {
                    rows[index].status = .failed
                    rows[index].error = "\(ExitPolicy.userFacing(error))"
                    failed += 1
                    processed += 1
                }
            }
            guard let (pid, ending) = BatchWorker.reapAny() else {
                progress?.show(done: toRun - pending.count - running.count, total: toRun, failed: failed, rows: rowsDone,
                               processed: processed, remaining: pending.count + running.count,
                               elapsed: Date().timeIntervalSinceReferenceDate - start)
                usleep(2000)
                continue
            }
            guard let job = running.removeValue(forKey: pid) else { continue }
            var row = rows[job.row]
            row.seconds = Date().timeIntervalSinceReferenceDate - job.worker.started
            finish(&row, ending: ending, job: job, interrupted: signalled)
            processed += 1
            if row.status == .failed {
                failed += 1
                if stopReason == nil, Self.fullDiskReasons.contains(where: { row.error.contains($0) }) {
                    stopReason = "no space left for the outputs under \((row.output as NSString).deletingLastPathComponent)"
                }
            }
            if case .integer(let n)? = row.cells["rows"] { rowsDone += n }
            rows[job.row] = row
        }
        progress?.finish()
        for index in pending {
            rows[index].status = .interrupted
            rows[index].error = "not started: \(stopReason ?? "stopped")"
        }
        let seconds = Date().timeIntervalSinceReferenceDate - start
        var notice: String?
        if let stopReason, !signalled {
            notice = "\(stopReason): stopped starting new inputs; the \(rows.filter { $0.status == .ok }.count) completed outputs are kept; free space and run the same command again to do the rest"
        }
        return Result(rows: rows, seconds: seconds, jobs: jobs,
                      stoppedBy: signalled ? ExitCode(interrupt.exitCode) : nil, notice: notice)
    }

    /// `poise COMMAND OPTIONS [--out OUTPUT] [--json] -- INPUT`.
    func arguments(for row: BatchRow) -> [String] {
        [kind.rawValue] + options + (kind.writesOutOption ? ["--out", row.output] : []) + kind.addedArguments(options: options)
            + ["--", row.input]
    }

    /// The row of a worker that ended: ok (its output in place, the numbers from its JSON),
    /// failed (its message) or interrupted.
    private func finish(_ row: inout BatchRow, ending: BatchWorker.Ending, job: Running, interrupted: Bool) {
        let printed = FileManager.default.contents(atPath: job.standardOutput) ?? Data()
        switch ending {
        case .exited(0):
            if !kind.writesOutOption {
                do {
                    let file = try OutputFile(path: row.output)
                    file.append(bytes: printed)
                    try file.finish()
                } catch {
                    row.status = .failed
                    row.error = "\(ExitPolicy.userFacing(error))"
                    return
                }
            }
            row.status = .ok
            row.cells = kind.headline(fromJSON: printed)
        case .exited(let status) where interrupted && (status == 130 || status == 143):
            row.status = .interrupted
            row.error = "stopped while it ran; its output was not written"
        case .signalled(let signal) where interrupted && (signal == SIGINT || signal == SIGTERM):
            row.status = .interrupted
            row.error = "stopped while it ran; its output was not written"
        case .exited(let status):
            row.status = .failed
            row.error = Self.message(FileManager.default.contents(atPath: job.standardError), status: status)
        case .signalled(let signal):
            row.status = .failed
            row.error = "the worker process was ended by \(BatchWorker.signalName(signal)); no output was written"
        }
    }

    /// The worker's error message: its `Error: …` line without the prefix (else its last line).
    static func message(_ data: Data?, status: Int32) -> String {
        let lines = String(decoding: data ?? Data(), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        if let line = lines.first(where: { $0.hasPrefix("Error: ") }) { return String(line.dropFirst("Error: ".count)) }
        return lines.last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? "the worker exited with status \(status) without a message"
    }
}
