#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseRecording

/// SIGINT (Ctrl-C) and SIGTERM for every `poise` command.
///
/// `Interruption.install()` (called once by `PoiseCommand.main()`) installs one handler for both
/// signals. While no `InterruptFlag` is active, a signal deletes the temporary files of outputs
/// being written (`TemporaryFiles`), says so on standard error and exits at once with 130 (SIGINT)
/// or 143 (SIGTERM): the destinations stay as they were. While an `InterruptFlag` is active, the
/// signal only raises the flag and the command stops cleanly itself (finishing or abandoning its
/// output, printing what it has) and exits with `InterruptFlag.exitCode` — except during a call
/// that may block without end (`TemporaryFiles.exitingOnSignal`: opening or copying a pipe),
/// when the signal removes the temporary files and exits at once as above.
enum Interruption {
    /// 0 = no flag active; otherwise the number of active flags.
    nonisolated(unsafe) static var catching: Int32 = 0
    /// The first signal received while a flag was active (0 = none).
    nonisolated(unsafe) static var received: Int32 = 0

    /// Installs the handler for SIGINT and SIGTERM and unblocks both (a parent may have started
    /// the process with them blocked). Idempotent.
    static func install() {
        TemporaryFiles.prepare()
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handleSignal
            #else
            action.__sigaction_u.__sa_handler = handleSignal
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
        // Unblocked after the handler is in place, so a signal already pending reaches it.
        var both = sigset_t()
        sigemptyset(&both)
        sigaddset(&both, SIGINT)
        sigaddset(&both, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &both, nil)
    }

    /// The exit status for a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    static func exitCode(for signalNumber: Int32) -> Int32 { 128 + signalNumber }
}

/// The signal handler: async-signal-safe (plain loads and stores, `unlink`, `write`, `_exit`).
private func handleSignal(_ signalNumber: Int32) {
    if Interruption.catching > 0 && !TemporaryFiles.inBlockingCall {
        if Interruption.received == 0 { Interruption.received = signalNumber }
        return
    }
    TemporaryFiles.removeAll()
    let message: StaticString = signalNumber == SIGTERM ? "poise: terminated (SIGTERM)\n" : "poise: interrupted (SIGINT)\n"
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    _exit(Interruption.exitCode(for: signalNumber))
}

/// Turns SIGINT (Ctrl-C) and SIGTERM into a flag a long loop polls, instead of ending the process,
/// so the command stops cleanly: completes or abandons its output file, prints what it has, and
/// exits with `exitCode` (130 for SIGINT, 143 for SIGTERM).
final class InterruptFlag: @unchecked Sendable {
    private var active = true

    init() {
        Interruption.install()
        Interruption.catching += 1
    }

    /// True once SIGINT or SIGTERM arrived (also after `restore()`).
    var isSet: Bool { Interruption.received != 0 }

    /// 130 after SIGINT, 143 after SIGTERM (130 when no signal arrived).
    var exitCode: Int32 { Interruption.exitCode(for: Interruption.received == 0 ? SIGINT : Interruption.received) }

    /// What stopped the command, for messages: "interrupted" (SIGINT) or "terminated" (SIGTERM).
    var verb: String { Interruption.received == SIGTERM ? "terminated" : "interrupted" }

    /// Gives the signals their default meaning back (delete temporary files, exit at once).
    func restore() {
        guard active else { return }
        active = false
        Interruption.catching -= 1
    }

    deinit { restore() }
}
