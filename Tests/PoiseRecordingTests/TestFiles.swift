import Foundation

/// Temporary files for tests, removed by the caller with `remove()`.
struct TemporaryFile {
    let path: String

    init(_ contents: String, name: String = "recording.csv") {
        self.init(bytes: Array(contents.utf8), name: name)
    }

    init(bytes: [UInt8], name: String = "recording.csv") {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("poise-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// The folder with the real recordings (`../shared/data` next to the package), or nil.
/// Whether `../shared/data` is beside the package (tests that read it are skipped otherwise).
let sharedDataPresent = sharedDataFolder() != nil

func sharedDataFolder() -> String? {
    var url = URL(fileURLWithPath: #filePath)
    while url.pathComponents.count > 1 {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            let shared = url.deletingLastPathComponent().appendingPathComponent("shared/data").path
            return FileManager.default.fileExists(atPath: shared) ? shared : nil
        }
    }
    return nil
}
