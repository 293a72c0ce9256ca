#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One worker process of `poise batch`: the same `poise` executable run on one input, with its
/// standard output and standard error in files. A crash of the worker ends only its input.
struct BatchWorker {
    let pid: pid_t
    let started: Double

    /// How a worker ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The running `poise` executable (`/proc/self/exe` on Linux), so workers are the same build.
    static var executable: String {
        if let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return linked }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Starts `executable arguments…` with standard input from /dev/null and standard output and
    /// error written to the two files; SIGINT and SIGTERM have their default action and are
    /// unblocked in the worker (it installs its own handler).
    static func start(_ executable: String, _ arguments: [String], standardOutput: String, standardError: String) throws -> BatchWorker {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var stopping = sigset_t()
        sigemptyset(&stopping)
        sigaddset(&stopping, SIGINT)
        sigaddset(&stopping, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &stopping)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw CommandError("cannot start a worker process \(executable): \(String(cString: strerror(result)))")
        }
        return BatchWorker(pid: pid, started: Date().timeIntervalSinceReferenceDate)
    }

    /// A worker that has ended (without waiting), or nil when none has.
    static func reapAny() -> (pid: pid_t, ending: Ending)? {
        var status: Int32 = 0
        let pid = waitpid(-1, &status, WNOHANG)
        guard pid > 0 else { return nil }
        let low = status & 0x7f
        return (pid, low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low))
    }

    /// The name of a signal for messages (`SIGSEGV`), or its number.
    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGBUS: "SIGBUS",
                                      SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP"]
        return names[number] ?? "signal \(number)"
    }
}
