import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// Sensor Logger ZIP exports: archives of the real sample folder in ../shared/data/formats made
/// with Python's zipfile during the test (deflate, stored, in a subfolder as the app writes them),
/// read as the folder is; damaged and unsupported archives are refused with what is wrong.
@Suite struct ZipArchiveTests {
    static let enabled = pythonPresent && (sharedDataFolder().map { FileManager.default.fileExists(atPath: $0 + "/formats") } ?? false)

    func sample() throws -> String {
        try #require(sharedDataFolder()) + "/formats/sensor_logger_ios_iphone12"
    }

    /// Zips the sample folder as `name` with `method` (a zipfile constant's name).
    func zip(_ scratch: PythonScratch, _ name: String, method: String, setup: String = "") throws {
        try scratch.python("""
        import zipfile, os, sys
        \(setup)
        folder, name, method = sys.argv[1], sys.argv[2], getattr(zipfile, sys.argv[3])
        with zipfile.ZipFile(name, 'w', method) as archive:
            for file in sorted(os.listdir(folder)):
                archive.write(os.path.join(folder, file), '2025-10-15_22-05-06/' + file)
        """, [try sample(), name, method])
    }

    @Test(.enabled(if: enabled, "python3 or ../shared/data/formats is absent"))
    func archivesReadLikeTheFolder() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        let folder = try Recording.load(path: try sample())
        for method in ["ZIP_DEFLATED", "ZIP_STORED"] {
            try zip(scratch, method + ".zip", method: method)
            let archive = try Recording.load(path: scratch.path(method + ".zip"))
            #expect(archive.samples == folder.samples && archive.schema == folder.schema, "\(method)")
            let info = try RecordingInfo.inspect(path: scratch.path(method + ".zip"))
            #expect(info.text.contains("Sensor Logger session (a ZIP archive"), "\(info.text)")
        }
        // The entries are streamed: nothing is written to the temporary folder.
        let temporary = FileManager.default.temporaryDirectory.path
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("poise-session-") })
        let reader = try SessionReader(path: scratch.path("ZIP_DEFLATED.zip"))
        #expect(reader.isArchive)
        while try reader.next() != nil {}
        let during = Set(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("poise-session-") })
        #expect(during.subtracting(before).isEmpty)
    }

    func refusal(_ path: String) -> String {
        do { _ = try Recording.load(path: path); return "" } catch { return "\(error)" }
    }

    @Test(.enabled(if: enabled, "python3 or ../shared/data/formats is absent"))
    func unsupportedAndDamagedArchivesAreRefusedWithTheReason() throws {
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        try zip(scratch, "bzip2.zip", method: "ZIP_BZIP2")
        #expect(refusal(scratch.path("bzip2.zip")).contains("compressed with bzip2 (method 12), which Poise does not read"))
        // ZIP64 records, forced by lowering zipfile's limits.
        try zip(scratch, "zip64.zip", method: "ZIP_DEFLATED", setup: "zipfile.ZIP64_LIMIT = 10; zipfile.ZIP_FILECOUNT_LIMIT = 1")
        #expect(refusal(scratch.path("zip64.zip")).contains("ZIP64"), "\(refusal(scratch.path("zip64.zip")))")
        try zip(scratch, "stored.zip", method: "ZIP_STORED")
        let stored = try scratch.bytes("stored.zip")
        // A changed digit inside Gyroscope.csv's stored data: the CRC-32 check catches it.
        let marker = Array("1760565906258652200,0.113652099609375,-0.6".utf8)
        let gyroscopeStart = try #require(Self.find(Array("Gyroscope.csv".utf8), in: stored))
        let at = try #require(Self.find(marker, in: stored, from: gyroscopeStart)) + marker.count
        var corrupt = stored
        corrupt[at] = corrupt[at] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        try Data(corrupt).write(to: URL(fileURLWithPath: scratch.path("corrupt.zip")))
        #expect(refusal(scratch.path("corrupt.zip")).contains("entry 2025-10-15_22-05-06/Gyroscope.csv: CRC-32"), "\(refusal(scratch.path("corrupt.zip")))")
        // The encryption flag in every central directory entry.
        var encrypted = stored
        var index = 0
        while let found = Self.find([0x50, 0x4B, 1, 2], in: encrypted, from: index) {
            encrypted[found + 8] |= 1
            index = found + 4
        }
        try Data(encrypted).write(to: URL(fileURLWithPath: scratch.path("encrypted.zip")))
        #expect(refusal(scratch.path("encrypted.zip")).contains("encrypted"))
        // Truncated: no end of central directory.
        try Data(stored.prefix(stored.count / 2)).write(to: URL(fileURLWithPath: scratch.path("cut.zip")))
        #expect(refusal(scratch.path("cut.zip")).contains("no end of central directory record"))
        // Random damage to a deflated archive: an error or a reading, never a crash.
        try zip(scratch, "deflated.zip", method: "ZIP_DEFLATED")
        let deflated = try scratch.bytes("deflated.zip")
        for trial in 0 ..< 60 {
            var damaged = deflated
            for _ in 0 ..< 3 { damaged[Int.random(in: 0 ..< damaged.count)] = UInt8.random(in: 0 ... 255) }
            let path = scratch.path("damaged\(trial).zip")
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            _ = refusal(path)
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for i in start ... (haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i ..< i + needle.count]) == needle {
            return i
        }
        return nil
    }
}
