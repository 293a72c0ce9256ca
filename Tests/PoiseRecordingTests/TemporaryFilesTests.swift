import Foundation
import Testing
@testable import PoiseRecording

/// `TemporaryFiles` and `TemporaryFolder`: what is made in TMPDIR is registered and removed.
@Suite struct TemporaryFilesTests {
    @Test func aTemporaryFolderIsRemovedWithItsFiles() throws {
        var folder: TemporaryFolder? = try TemporaryFolder(prefix: "poise-test", purpose: "a test")
        let path = try #require(folder?.path)
        #expect(path.hasPrefix(TemporaryFiles.temporaryFolder + "/poise-test-"))
        let file = try #require(folder?.file("Gyroscope.csv"))
        #expect(FileManager.default.createFile(atPath: file, contents: Data("t\n".utf8)))
        folder = nil
        #expect(!FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: path))
    }

    @Test func aTemporaryFileIsMadePrivateAndRemoved() throws {
        let (descriptor, path, slot) = try TemporaryFiles.makeFile(prefix: "poise-test", purpose: "a test")
        close(descriptor)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        TemporaryFiles.remove(path, slot: slot)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aMissingTemporaryFolderIsAnErrorNamingIt() {
        #expect(throws: RecordingError.self) { try TemporaryFolder(prefix: "no/such/folder/x", purpose: "a test") }
    }
}
