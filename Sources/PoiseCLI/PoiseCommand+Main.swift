import ArgumentParser
import Poise

extension PoiseCommand {
    /// Parses the arguments and runs the command under `ExitPolicy`: SIGINT and SIGTERM handled
    /// (`Interruption`), a closed output pipe ends it with status 141 (`ExitPolicy.endOnClosedPipe`),
    /// standard output flushed and checked before exiting (also for `--help` and `--version`),
    /// errors printed in plain words with the policy's exit status.
    public static func main() {
        Interruption.install()
        ExitPolicy.endOnClosedPipe()
        do {
            var command = try parseAsRoot()
            try command.run()
            try ExitPolicy.flushStandardOutput(endingOnClosedPipe: true)
        } catch {
            if exitCode(for: error) == .success {
                // --help, --version: printed here so that a failed write is noticed.
                print(fullMessage(for: error))
                do { try ExitPolicy.flushStandardOutput() } catch let lost { exit(withError: lost) }
                exit(withError: nil)
            }
            // What was printed before the error still goes out; a failed flush is not reported
            // over the error that stopped the command.
            _ = try? ExitPolicy.flushStandardOutput()
            if let spec = error as? SpecError, ExitPolicy.isUsage(spec) {
                // A bad --filter, --pipeline or --grid: usage (64), with the caret under the
                // token rather than the usage text.
                StandardError.write("Error: \(spec)\n")
                exit(withError: ExitCode.validationFailure)
            }
            exit(withError: ExitPolicy.userFacing(error))
        }
        exit(withError: nil)
    }
}
