#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads the files of a ZIP archive (the format of PKWARE's APPNOTE: end of central directory,
/// central directory, local headers) without holding it in memory: the central directory is
/// read once, and each entry is streamed from its offset (`ZipEntryStream`: stored, or inflated
/// by the system zlib while it is read), checked against its CRC-32 and size.
///
/// Refused with an error that says so: encrypted entries, ZIP64 archives (more than 65,535
/// entries or 4 GiB), multi-disk archives, other compression methods (named), a central
/// directory larger than `maximumDirectorySize`. Every offset and length is checked against the
/// file, so a damaged archive is an error, never a crash.
final class ZipArchive {
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
    /// The archive's size in bytes, when it was opened.
    let fileSize: Int
    /// The entries, in central directory order (folders left out).
    let entries: [Entry]
    /// The open archive, read with `pread` by every entry stream (closed with the archive).
    let descriptor: Int32

    /// The largest central directory read (bytes): it is held in memory while the entries are listed.
    static let maximumDirectorySize = 16 << 20

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

    /// Opens the archive and reads its central directory.
    ///
    /// - Throws: `RecordingError` ("file.zip: …") for a file that is not a readable ZIP archive.
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot read the file (\(systemErrorText()))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = systemClose(descriptor)
            throw RecordingError(file: path, line: 0, column: 0, message: "a ZIP archive must be a regular file (its directory is at its end)")
        }
        fileSize = Int(info.st_size)
        do {
            entries = try Self.centralDirectory(descriptor: descriptor, fileSize: fileSize, path: path)
        } catch {
            _ = systemClose(descriptor)
            throw error
        }
    }

    deinit { _ = systemClose(descriptor) }

    /// `count` bytes of the file at `offset` (both checked by the caller against `fileSize`).
    func read(_ count: Int, at offset: Int) throws -> [UInt8] {
        try Self.read(descriptor, count, at: offset, path: path)
    }

    private static func read(_ descriptor: Int32, _ count: Int, at offset: Int, path: String) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    let reason = got == 0 ? "the file ended early (was it truncated while being read?)" : "cannot read (\(systemErrorText()))"
                    throw RecordingError(file: path, line: 0, column: 0, message: "byte \(offset + initialized): \(reason)")
                }
                initialized += got
            }
        }
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }

    private static func centralDirectory(descriptor: Int32, fileSize: Int, path: String) throws -> [Entry] {
        func fail(_ message: String) -> RecordingError { RecordingError(file: path, line: 0, column: 0, message: message) }
        func read(_ count: Int, at offset: Int) throws -> [UInt8] { try Self.read(descriptor, count, at: offset, path: path) }
        // The end of central directory record: 22 bytes, then a comment of up to 65,535 bytes.
        guard fileSize >= 22 else { throw fail("not a ZIP archive: too short for an end of central directory record") }
        let tailStart = max(0, fileSize - 22 - 65535 - 20)
        let tail = try read(fileSize - tailStart, at: tailStart)
        var found = -1
        var i = tail.count - 22
        while i >= max(0, tail.count - 22 - 65535) {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 5 && tail[i + 3] == 6 { found = i; break }
            i -= 1
        }
        guard found >= 0 else { throw fail("not a ZIP archive (no end of central directory record; truncated?)") }
        let end = tailStart + found
        if found >= 20, u32(tail, found - 20) == 0x0706_4B50 {
            throw fail("a ZIP64 archive (more than 65,535 entries or 4 GiB), which Poise does not read: unzip it and read the folder")
        }
        let disk = u16(tail, found + 4), directoryDisk = u16(tail, found + 6)
        let count = u16(tail, found + 10), directorySize = u32(tail, found + 12), directoryOffset = u32(tail, found + 16)
        guard disk == 0 && directoryDisk == 0 && u16(tail, found + 8) == count else { throw fail("a multi-disk ZIP archive, which Poise does not read") }
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw fail("a ZIP64 archive (more than 65,535 entries or 4 GiB), which Poise does not read: unzip it and read the folder")
        }
        guard directoryOffset <= end, directorySize <= end - directoryOffset else {
            throw fail("the central directory (\(directorySize) bytes at byte \(directoryOffset)) runs past the end of central directory at byte \(end)")
        }
        guard directorySize <= maximumDirectorySize else {
            throw fail("a central directory of \(directorySize) bytes, larger than the \(maximumDirectorySize)-byte limit")
        }
        // The directory and the end record (so that every entry's fields are checked against `end`).
        let b = try read(end - directoryOffset, at: directoryOffset)
        let limit = b.count
        var entries: [Entry] = []
        var p = 0
        for n in 0 ..< count {
            guard limit - p >= 46, u32(b, p) == 0x0201_4B50 else { throw fail("central directory entry \(n + 1) at byte \(directoryOffset + p): no entry signature") }
            let nameLength = u16(b, p + 28), extraLength = u16(b, p + 30), commentLength = u16(b, p + 32)
            guard limit - p - 46 >= nameLength + extraLength + commentLength else {
                throw fail("central directory entry \(n + 1) at byte \(directoryOffset + p): its name and fields run past the directory")
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

    /// A stream of the uncompressed bytes of `entry`, checked against its size and CRC-32 as it
    /// is read.
    ///
    /// - Throws: `RecordingError` naming the archive and the entry: encrypted, an unsupported
    ///   method, a local header or data outside the file. (Corrupt data, a size or a CRC-32 that
    ///   does not match are errors of the stream's reads.)
    func stream(_ entry: Entry) throws -> ZipEntryStream {
        func fail(_ message: String) -> RecordingError { failure("entry \(entry.name): \(message)") }
        guard entry.flags & 1 == 0 else { throw fail("encrypted, which Poise does not read: extract it with the password first") }
        let p = entry.localHeaderOffset
        guard fileSize >= 30, p <= fileSize - 30 else { throw fail("no local header at byte \(p)") }
        let header = try read(30, at: p)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw fail("no local header at byte \(p)") }
        let start = p + 30 + Self.u16(header, 26) + Self.u16(header, 28)
        guard start <= fileSize, entry.compressedSize <= fileSize - start else {
            throw fail("its \(entry.compressedSize) compressed bytes run past the end of the file (truncated archive?)")
        }
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw fail("stored with \(entry.compressedSize) bytes but a size of \(entry.size)") }
        case 8:
            break
        default:
            throw fail("compressed with \(Self.methodName(entry.method)), which Poise does not read (stored and deflate only)")
        }
        return try ZipEntryStream(archive: self, entry: entry, dataStart: start)
    }

    /// The first `count` uncompressed bytes of `entry` (fewer when it is shorter), or nil when
    /// they cannot be read.
    func prefix(of entry: Entry, count: Int) -> [UInt8]? {
        guard let stream = try? stream(entry) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { stream.read(into: $0.baseAddress! + filled, count: count - filled) }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
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
