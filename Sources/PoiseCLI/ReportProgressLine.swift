import Foundation

/// One self-rewriting line on standard error ("report: 42 % sweep: 88 of 210 settings") while
/// `poise report` works; only when standard error is a terminal, so logs and pipes stay clean.
/// Thread-safe (the sweep reports from worker threads); redraws at most every 0.1 s.
final class ReportProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = 0.0
    private var width = 0
    private let start = Date()

    /// A progress line when standard error is a terminal, otherwise `nil`.
    static func forStandardError() -> ReportProgressLine? {
        isatty(STDERR_FILENO) == 1 ? ReportProgressLine() : nil
    }

    /// Shows `stage` and `fraction` (0…1) of the whole report.
    func show(_ stage: String, _ fraction: Double) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date().timeIntervalSince(start)
        guard now - lastDraw >= 0.1 || fraction >= 1 || lastDraw == 0 else { return }
        lastDraw = max(now, 1e-9)
        let percent = Int((100 * min(1, max(0, fraction))).rounded(.down))
        let text = "report: \(String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0))\(percent) %  \(stage)  (\(String(format: "%.0f", now)) s)"
        let padding = String(repeating: " ", count: max(0, width - text.count))
        width = text.count
        FileHandle.standardError.write(Data(("\r" + text + padding).utf8))
    }

    /// Clears the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r").utf8))
        width = 0
    }
}
