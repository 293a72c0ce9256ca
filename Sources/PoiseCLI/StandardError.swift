import Foundation

/// Messages on standard error. A failed write there (a closed or full stream) is ignored: there is
/// nowhere left to report it, and it must not stop or crash the command.
enum StandardError {
    /// Writes `text` as is (add the line break yourself).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Foundation.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
