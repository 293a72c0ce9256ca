import Foundation

/// The self-rewriting line on standard error while `poise batch` works ("fuse: 12/200 files,
/// 1 failed  1.2 M rows/s  ETA 0:42"); only when standard error is a terminal, so logs and pipes
/// get nothing but the final summary. Redraws at most every 0.2 s.
final class BatchProgressLine {
    private let label: String
    private var lastDraw = -1.0
    private var width = 0

    private init(label: String) { self.label = label }

    /// A progress line when standard error is a terminal, otherwise `nil`.
    static func forStandardError(label: String) -> BatchProgressLine? {
        isatty(STDERR_FILENO) == 1 ? BatchProgressLine(label: label) : nil
    }

    /// Shows `done` of `total` files, `failed` of them failed, after `elapsed` seconds in which
    /// `rows` rows were processed by `processed` files (those that ran, for the rate and the ETA).
    func show(done: Int, total: Int, failed: Int, rows: Int, processed: Int, remaining: Int, elapsed: Double) {
        guard elapsed - lastDraw >= 0.2 || lastDraw < 0 else { return }
        lastDraw = elapsed
        var text = "\(label): \(done)/\(total) files"
        if failed > 0 { text += ", \(failed) failed" }
        if elapsed > 0 && rows > 0 { text += "  " + Self.rate(Double(rows) / elapsed) }
        if processed > 0 && remaining > 0 {
            text += "  ETA " + Self.clock(elapsed / Double(processed) * Double(remaining))
        }
        let padding = String(repeating: " ", count: max(0, width - text.count))
        width = text.count
        StandardError.write("\r" + text + padding)
    }

    /// Clears the line.
    func finish() {
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
