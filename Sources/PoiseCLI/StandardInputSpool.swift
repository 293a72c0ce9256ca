import Foundation
import PoiseRecording

/// Standard input copied to a temporary file, for commands that read their input more than once
/// (`report`). The file is created with mode 0600 in the temporary folder and removed by
/// `remove()` (and by a signal, through `TemporaryFiles`).
struct StandardInputSpool {
    let path: String
    let slot: Int?

    /// Copies standard input to the end.
    ///
    /// - Throws: `CommandError` when the temporary file cannot be made or written.
    init() throws {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/poise-stdin-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw CommandError("cannot make a temporary file in \(folder) for standard input: \(String(cString: strerror(errno)))") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        slot = TemporaryFiles.register(path)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            while let data = try FileHandle.standardInput.read(upToCount: 1 << 20), !data.isEmpty {
                try handle.write(contentsOf: data)
            }
            try handle.close()
        } catch {
            unlink(path)
            if let slot { TemporaryFiles.unregister(slot) }
            throw CommandError("cannot keep standard input in \(path): \(error.localizedDescription)")
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
        unlink(path)
        if let slot { TemporaryFiles.unregister(slot) }
    }
}
