import Foundation
import Testing
@testable import PoiseRecording

/// `TemporaryFiles`: what is made in TMPDIR is private, registered and removed.
@Suite struct TemporaryFilesTests {
    @Test func aTemporaryFileIsMadePrivateAndRemoved() throws {
        let (descriptor, path, slot) = try TemporaryFiles.makeFile(prefix: "poise-test", purpose: "a test")
        close(descriptor)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        TemporaryFiles.remove(path, slot: slot)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
