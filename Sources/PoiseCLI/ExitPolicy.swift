#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// One exit-status policy for every `poise` command:
///
/// | Status | Meaning |
/// | --- | --- |
/// | 0 | success (everything printed reached standard output) |
/// | 1 | a problem with the input data, a file, or a failed write (`Error: …`, no usage text) |
/// | 64 | a usage error: a bad or missing option or argument (`Error: …` and the usage text) |
/// | 130 | interrupted by SIGINT (Ctrl-C) |
/// | 141 | standard output (or `--out`) is a pipe whose reader closed it (`poise … \| head -1`): the command ends at the first write that finds it closed, without a message |
/// | 143 | stopped by SIGTERM |
///
/// Usage errors are `ValidationError`s (and ArgumentParser's own parse errors) and `SpecError`s of
/// a filter, pipeline or grid spec (`--filter`, `--pipeline`, `--grid`, wherever they are found
/// bad); every other error is a data error. Foundation file errors are turned into plain words here (`cannot write
/// /x/y.csv: the folder /x does not exist`), never printed as `NSCocoaErrorDomain Code=…`.
enum ExitPolicy {
    /// Standard output could not be written (disk full, closed pipe…).
    struct OutputLost: Error, CustomStringConvertible {
        var reason: String
        var description: String { "cannot write to standard output: \(reason); the output is incomplete" }
    }

    /// The status of a command whose output pipe was closed by its reader: 128 + SIGPIPE, what a
    /// shell reports for a process SIGPIPE ended, so `set -o pipefail` scripts see what they see
    /// from other tools. No message: the reader stopped reading on purpose (`head -1`).
    static let closedPipeStatus: Int32 = 141

    /// Ignores SIGPIPE, so that a closed output pipe is an EPIPE write error instead of a silent
    /// death, and ends the process with `closedPipeStatus` at the first write to an `OutputFile`
    /// that finds its pipe closed (`exit`, so the temporary files are removed).
    static func endOnClosedPipe() {
        signal(SIGPIPE, SIG_IGN)
        OutputFile.onClosedPipe = { exit(ExitPolicy.closedPipeStatus) }
    }

    /// Whether standard output is a pipe (or socket) whose reading end is closed.
    static var standardOutputIsClosedPipe: Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// Flushes the text printed so far; throws when any of it failed to reach standard output.
    /// With `endingOnClosedPipe`, a failure because the pipe's reader closed it ends the process
    /// with `closedPipeStatus` instead.
    static func flushStandardOutput(endingOnClosedPipe: Bool = false) throws {
        let flushFailed = fflush(stdout) != 0
        let code = errno
        if flushFailed || ferror(stdout) != 0 {
            if endingOnClosedPipe && ((flushFailed && code == EPIPE) || standardOutputIsClosedPipe) {
                exit(closedPipeStatus)
            }
            clearerr(stdout)
            // An earlier automatic flush failed when only the error flag is left: its errno is gone.
            throw OutputLost(reason: flushFailed ? FileProblem.describe(errno: code, path: "standard output")
                                                 : "a write failed (a full disk or device, or a closed pipe)")
        }
    }

    /// Whether a spec error is a usage error (exit 64): one in a filter, a pipeline or a sweep
    /// grid, which the user wrote on the command line. A column mapping or a mount that does not
    /// fit the file's columns, or a well-formed stage that needs a sensor the recording lacks, is
    /// a data error.
    static func isUsage(_ error: SpecError) -> Bool {
        if error.missingSensor { return false }
        switch error.subject {
        case .filter, .pipeline, .grid: return true
        case .columns, .mount: return false
        }
    }

    /// The error as the user should read it: Foundation file errors in plain words, everything
    /// else as it is.
    static func userFacing(_ error: Error) -> Error {
        switch error {
        case is ValidationError, is ExitCode, is CleanExit, is CommandError, is RecordingError:
            return error
        default:
            break
        }
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else { return error }
        let path = (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        var posix: Int32?
        if nsError.domain == NSPOSIXErrorDomain { posix = Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            posix = Int32(underlying.code)
        }
        let writing = (CocoaError.Code.fileWriteUnknown.rawValue ... CocoaError.Code.fileWriteVolumeReadOnly.rawValue).contains(nsError.code)
        let verb = writing ? "cannot write" : "cannot read"
        let subject = path ?? "a file"
        if let posix {
            return CommandError("\(verb) \(subject): \(FileProblem.describe(errno: posix, path: subject))")
        }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile:
            return CommandError("\(verb) \(subject): \(writing ? FileProblem.describe(errno: ENOENT, path: subject) : "no such file")")
        case .fileWriteNoPermission, .fileReadNoPermission:
            return CommandError("\(verb) \(subject): \(FileProblem.describe(errno: EACCES, path: subject))")
        case .fileWriteOutOfSpace:
            return CommandError("\(verb) \(subject): \(FileProblem.describe(errno: ENOSPC, path: subject))")
        case .fileWriteVolumeReadOnly:
            return CommandError("\(verb) \(subject): \(FileProblem.describe(errno: EROFS, path: subject))")
        case .propertyListReadCorrupt:
            return CommandError("\(subject == "a file" ? "the input" : subject) is not valid JSON")
        default:
            return CommandError("\(verb) \(subject): \(nsError.localizedDescription)")
        }
    }
}
