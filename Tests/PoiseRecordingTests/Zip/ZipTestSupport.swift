import Foundation
import Testing

/// Runs a Python 3 script (an independent reference: the standard library's `zlib` and
/// `zipfile`) with arguments, in a fresh temporary folder that the caller removes.
struct PythonScratch {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-zip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder + "/" + name }

    /// Runs `script` with `arguments` in the folder; fails the test when it exits with an error.
    func python(_ script: String, _ arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let error = Pipe()
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "python3: \(message)")
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path(name))))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}

/// Whether `python3` runs here (the references need it).
let pythonPresent = exitsCleanly(["python3", "-c", "import zlib, zipfile"])

/// Whether `command` is on the PATH.
func commandPresent(_ command: String) -> Bool { exitsCleanly(["sh", "-c", "command -v \(command)"]) }

/// Whether `arguments` (run through /usr/bin/env, output discarded) exits with status 0.
func exitsCleanly(_ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}
