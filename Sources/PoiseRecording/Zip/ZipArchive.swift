import Foundation

/// Reads the files of a ZIP archive (the format of PKWARE's APPNOTE: end of central directory,
/// central directory, local headers), written here without a dependency: entries stored or
/// compressed with deflate (`InflateDecoder`), each checked against its CRC-32 and size.
///
/// Refused with an error that says so: encrypted entries, ZIP64 archives (more than 65,535
/// entries or 4 GiB), multi-disk archives, other compression methods (named), entries larger
/// than `maximumEntrySize`. Every offset and length is checked against the file, so a damaged
/// archive is an error, never a crash.
struct ZipArchive {
    /// One file of the archive.
    struct Entry {
        var name: String
        var method: Int
        var flags: Int
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    /// The path, for messages.
    let path: String
    let bytes: [UInt8]
    /// The entries, in central directory order (folders left out).
    let entries: [Entry]

    /// The largest archive read, and the largest entry extracted (bytes): both are held in memory.
    static let maximumArchiveSize = 1 << 30
    static let maximumEntrySize = 1 << 30

    /// Whether `path` is a regular file that starts with a ZIP local header (`PK\u{3}\u{4}`) or is an
    /// empty archive (`PK\u{5}\u{6}`). Reads 4 bytes of regular files only: pipes, devices and
    /// standard input are never read here.
    static func recognizes(path: String) -> Bool {
        guard path != "-", RosBagInput.isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4), head.count == 4 else { return false }
        return head[0] == 0x50 && head[1] == 0x4B && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6))
    }

    func failure(_ message: String) -> RecordingError {
        RecordingError(file: path, line: 0, column: 0, message: message)
    }

    /// Reads the archive's central directory.
    ///
    /// - Throws: `RecordingError` ("file.zip: …") for a file that is not a readable ZIP archive.
    init(path: String) throws {
        self.path = path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int else {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot read the file")
        }
        guard size <= Self.maximumArchiveSize else {
            throw RecordingError(file: path, line: 0, column: 0, message: "a ZIP archive of \(size) bytes, larger than the \(Self.maximumArchiveSize)-byte limit: unzip it and read the folder")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot read the file")
        }
        bytes = [UInt8](data)
        entries = try Self.centralDirectory(bytes, path: path)
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }

    private static func centralDirectory(_ b: [UInt8], path: String) throws -> [Entry] {
        func fail(_ message: String) -> RecordingError { RecordingError(file: path, line: 0, column: 0, message: message) }
        // The end of central directory record: 22 bytes, then a comment of up to 65,535 bytes.
        guard b.count >= 22 else { throw fail("not a ZIP archive: too short for an end of central directory record") }
        var end = -1
        var i = b.count - 22
        while i >= max(0, b.count - 22 - 65535) {
            if b[i] == 0x50 && b[i + 1] == 0x4B && b[i + 2] == 5 && b[i + 3] == 6 { end = i; break }
            i -= 1
        }
        guard end >= 0 else { throw fail("not a ZIP archive (no end of central directory record; truncated?)") }
        if end >= 20, u32(b, end - 20) == 0x0706_4B50 {
            throw fail("a ZIP64 archive (more than 65,535 entries or 4 GiB), which Poise does not read: unzip it and read the folder")
        }
        let disk = u16(b, end + 4), directoryDisk = u16(b, end + 6)
        let count = u16(b, end + 10), directorySize = u32(b, end + 12), directoryOffset = u32(b, end + 16)
        guard disk == 0 && directoryDisk == 0 && u16(b, end + 8) == count else { throw fail("a multi-disk ZIP archive, which Poise does not read") }
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw fail("a ZIP64 archive (more than 65,535 entries or 4 GiB), which Poise does not read: unzip it and read the folder")
        }
        guard directoryOffset <= end, directorySize <= end - directoryOffset else {
            throw fail("the central directory (\(directorySize) bytes at byte \(directoryOffset)) runs past the end of central directory at byte \(end)")
        }
        var entries: [Entry] = []
        var p = directoryOffset
        for n in 0 ..< count {
            guard end - p >= 46, u32(b, p) == 0x0201_4B50 else { throw fail("central directory entry \(n + 1) at byte \(p): no entry signature") }
            let nameLength = u16(b, p + 28), extraLength = u16(b, p + 30), commentLength = u16(b, p + 32)
            guard end - p - 46 >= nameLength + extraLength + commentLength else {
                throw fail("central directory entry \(n + 1) at byte \(p): its name and fields run past the directory")
            }
            let name = String(decoding: b[(p + 46) ..< (p + 46 + nameLength)], as: UTF8.self)
            let entry = Entry(name: name, method: u16(b, p + 10), flags: u16(b, p + 8), crc: UInt32(u32(b, p + 16)),
                              compressedSize: u32(b, p + 20), size: u32(b, p + 24), localHeaderOffset: u32(b, p + 42))
            if entry.compressedSize == 0xFFFF_FFFF || entry.size == 0xFFFF_FFFF || entry.localHeaderOffset == 0xFFFF_FFFF {
                throw fail("entry \(name): ZIP64 sizes (4 GiB or more), which Poise does not read: unzip it and read the folder")
            }
            if !name.hasSuffix("/") { entries.append(entry) }
            p += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The uncompressed bytes of `entry`, checked against its size and CRC-32.
    ///
    /// - Throws: `RecordingError` naming the archive and the entry: encrypted, an unsupported
    ///   method, a local header or data outside the file, corrupt deflate data, a size or CRC-32
    ///   that does not match.
    func contents(of entry: Entry) throws -> [UInt8] {
        func fail(_ message: String) -> RecordingError { failure("entry \(entry.name): \(message)") }
        guard entry.flags & 1 == 0 else { throw fail("encrypted, which Poise does not read: extract it with the password first") }
        guard entry.size <= Self.maximumEntrySize else { throw fail("\(entry.size) bytes, larger than the \(Self.maximumEntrySize)-byte limit") }
        let p = entry.localHeaderOffset
        guard p <= bytes.count - 30, Self.u32(bytes, p) == 0x0403_4B50 else { throw fail("no local header at byte \(p)") }
        let start = p + 30 + Self.u16(bytes, p + 26) + Self.u16(bytes, p + 28)
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw fail("its \(entry.compressedSize) compressed bytes run past the end of the file (truncated archive?)")
        }
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw fail("stored with \(entry.compressedSize) bytes but a size of \(entry.size)") }
            output = Array(bytes[start ..< start + entry.size])
        case 8:
            do {
                output = try bytes.withUnsafeBufferPointer { all in
                    try InflateDecoder.decompress(UnsafeBufferPointer(rebasing: all[start ..< start + entry.compressedSize]), expectedSize: entry.size)
                }
            } catch let failure as InflateDecoder.Failure {
                throw fail("deflate data: \(failure)")
            }
        default:
            throw fail("compressed with \(Self.methodName(entry.method)), which Poise does not read (stored and deflate only)")
        }
        let crc = CRC32.checksum(output)
        guard crc == entry.crc else {
            throw fail("CRC-32 \(String(crc, radix: 16)) does not match the archive's \(String(entry.crc, radix: 16)) (corrupt data)")
        }
        return output
    }

    static func methodName(_ method: Int) -> String {
        switch method {
        case 9: "deflate64 (method 9)"
        case 12: "bzip2 (method 12)"
        case 14: "LZMA (method 14)"
        case 93: "Zstandard (method 93)"
        case 95: "xz (method 95)"
        case 99: "AES encryption (method 99)"
        default: "method \(method)"
        }
    }
}
