#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation

/// One self-rewriting line on standard error while a long command works ("report: 42 %  sweep:
/// 88 of 210 settings  (12 s)", "fuse: 12/200 files, 1 failed  1.2 M rows/s  ETA 0:42",
/// "  sweeping [#####.....] 3/10"); only when standard error is a terminal, so logs and pipes
/// stay clean. Redraws at most every `minimumInterval` seconds (the first and the final draw
/// always), pads over a longer previous text and clears itself in `finish()`. Thread-safe:
/// the sweeps report from worker threads.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let minimumInterval: Double
    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = -1.0
    private var width = 0

    /// A line whose texts start with `label` (`"report"`, a batch kind; empty for none), redrawn
    /// at most every `minimumInterval` seconds.
    init(label: String, minimumInterval: Double) {
        self.label = label
        self.minimumInterval = minimumInterval
    }

    /// A progress line when standard error is a terminal, otherwise `nil`.
    static func forStandardError(label: String, minimumInterval: Double = 0.2) -> ProgressLine? {
        isatty(STDERR_FILENO) == 1 ? ProgressLine(label: label, minimumInterval: minimumInterval) : nil
    }

    /// Draws the text `text(elapsed)` makes (after `label: `), given the seconds since the line
    /// was made, unless the last draw was less than `minimumInterval` ago; `final` always draws.
    func show(final: Bool = false, _ text: (_ elapsed: Double) -> String) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date().timeIntervalSince(start)
        guard final || lastDraw < 0 || now - lastDraw >= minimumInterval else { return }
        lastDraw = now
        let line = (label.isEmpty ? "" : label + ": ") + text(now)
        let padding = String(repeating: " ", count: max(0, width - line.count))
        width = line.count
        StandardError.write("\r" + line + padding)
    }

    /// `stage` and `fraction` (0…1) of the whole work: `42 %  stage  (12 s)`.
    func show(_ stage: String, _ fraction: Double) {
        show(final: fraction >= 1) { elapsed in
            let percent = Int((100 * min(1, max(0, fraction))).rounded(.down))
            return "\(String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0))\(percent) %  \(stage)  (\(String(format: "%.0f", elapsed)) s)"
        }
    }

    /// `done` of `total` files, `failed` of them failed, after `elapsed` seconds in which `rows`
    /// rows were processed by `processed` files (those that ran, for the rate and the ETA), with
    /// `remaining` still to run.
    func show(done: Int, total: Int, failed: Int, rows: Int, processed: Int, remaining: Int, elapsed: Double) {
        show { _ in
            var text = "\(done)/\(total) files"
            if failed > 0 { text += ", \(failed) failed" }
            if elapsed > 0 && rows > 0 { text += "  " + Self.rate(Double(rows) / elapsed) }
            if processed > 0 && remaining > 0 {
                text += "  ETA " + Self.clock(elapsed / Double(processed) * Double(remaining))
            }
            return text
        }
    }

    /// A bar of `done` of `total` steps: `[#####.....] 3/10`.
    func show(done: Int, total: Int) {
        show(final: done >= total) { _ in
            let width = 30
            let filled = total > 0 ? min(width, done * width / total) : width
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total)"
        }
    }

    /// Clears the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        StandardError.write("\r" + String(repeating: " ", count: width) + "\r")
        width = 0
    }

    /// `1.23 M rows/s`, `45.6 k rows/s`, `12 rows/s`.
    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6 ? String(format: "%.2f M rows/s", perSecond / 1e6)
            : perSecond >= 1e3 ? String(format: "%.1f k rows/s", perSecond / 1e3) : String(format: "%.0f rows/s", perSecond)
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
