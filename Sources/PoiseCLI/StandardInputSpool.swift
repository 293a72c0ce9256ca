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
        path = String(cString: template)
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

    func remove() {
        unlink(path)
        if let slot { TemporaryFiles.unregister(slot) }
    }
}
