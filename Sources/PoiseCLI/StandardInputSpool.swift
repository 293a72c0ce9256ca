import Foundation
import PoiseRecording

/// Standard input copied to a temporary file, for commands that read their input more than once
/// (`report`). The file is created with mode 0600 in the temporary folder and removed by
/// `remove()` (and at exit and by a signal, through `TemporaryFiles`).
struct StandardInputSpool {
    let path: String
    let slot: Int?

    /// Copies standard input to the end.
    ///
    /// - Throws: `CommandError` when the temporary file cannot be made or written.
    init() throws {
        let made = try TemporaryFiles.makeFile(prefix: "poise-stdin", purpose: "standard input")
        path = made.path
        slot = made.slot
        let handle = FileHandle(fileDescriptor: made.descriptor, closeOnDealloc: true)
        do {
            // A writer that never closes the pipe cannot hold the process past a signal.
            try TemporaryFiles.exitingOnSignal {
                while let data = try FileHandle.standardInput.read(upToCount: 1 << 20), !data.isEmpty {
                    try handle.write(contentsOf: data)
                }
            }
            try handle.close()
        } catch {
            TemporaryFiles.remove(made.path, slot: made.slot)
            throw CommandError("cannot keep standard input in \(made.path): \(error.localizedDescription)")
        }
    }

    /// Runs `body` with the spool's path; a `RecordingError` about the spool names standard
    /// input ("-") instead, so positions read like the user's input.
    func reading<T>(_ body: (String) throws -> T) throws -> T {
        do { return try body(path) } catch var error as RecordingError where error.file == path {
            error.file = "-"
            throw error
        }
    }

    /// Runs `body` with `file`, or with a spool of standard input when `file` is "-" (removed
    /// afterwards): for commands that read their input more than once.
    static func withFile<T>(_ file: String, _ body: (String) throws -> T) throws -> T {
        guard file == "-" else { return try body(file) }
        let spool = try StandardInputSpool()
        defer { spool.remove() }
        return try spool.reading(body)
    }

    func remove() {
        TemporaryFiles.remove(path, slot: slot)
    }
}
