#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a CSV recording and a cursor over them, a line at a time.
///
/// A regular file whose text needs no translation (line feeds or CR LF, commas, decimal points)
/// is mapped read-only and read in place; the consumed part of the mapping is handed back to the
/// kernel as the cursor moves, so resident memory stays bounded. Anything else (pipes, live
/// streams, other dialects) is read with read(2) into one fixed buffer of `capacity` bytes that
/// is refilled as rows are consumed; carriage-return line ends and other dialects are rewritten
/// in that buffer as the bytes arrive (`CSVDialect.translate`).
///
/// Binary data (a NUL byte) and lines longer than the buffer are rejected with the line number.
/// A value type over pointers: copies share the same bytes and cursor; `close()` frees them.
struct CSVByteSource {
    /// Where the cursor is. Behind a pointer so the parser's hot loop reads and writes it without
    /// the dynamic exclusivity checks that class stored properties get (measured: 2× faster rows).
    struct Cursor {
        /// Where the bytes are: `ownedBuffer`, or the file mapping.
        var bytes: UnsafeMutablePointer<UInt8>
        /// Mapped bytes before this offset have been handed back to the kernel (`MADV_DONTNEED`).
        var releasedUpTo = 0
        var position = 0
        var filled = 0
        var atEndOfFile = false
        /// 1-based number of the line most recently consumed (header = 1).
        var lineNumber = 0
        var lastLineTerminated = true
        /// Bytes of the file before `bytes[0]` (read(2) path: moved out by refills).
        var discarded = 0
        /// The file ends its lines with a carriage return alone (classic Mac OS): each one is
        /// turned into a line feed as the bytes are read.
        var carriageReturnLines = false
        /// The rows are rewritten to commas and decimal points as they are read (`CSVDialect`):
        /// the file's delimiter byte, and whether it uses decimal commas.
        var translatesRows = false
        var delimiter: UInt8 = 44
        var decimalComma = false
    }

    /// The name used in every message.
    let path: String
    let input: ReaderInput
    /// The buffer of the read(2) path, `capacity` bytes.
    let ownedBuffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// The whole file mapped read-only (regular files), or nil on the read(2) path.
    let mapping: (base: UnsafeMutableRawPointer, length: Int)?
    let cursor: UnsafeMutablePointer<Cursor>

    /// Maps `input` when it is a regular file in the plain dialect and `options.memoryMap` allows
    /// it; otherwise prepares the read(2) buffer of `options.bufferSize` bytes (at least 64).
    init(path: String, input: ReaderInput, options: ReadOptions) {
        self.path = path
        self.input = input
        capacity = max(64, options.bufferSize)
        ownedBuffer = .allocate(capacity: capacity)
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: Cursor(bytes: ownedBuffer))
        // A file with carriage-return line ends or another dialect is translated in the buffer, so
        // it is not mapped.
        if let descriptor = input.descriptor, options.memoryMap, Self.mappable(descriptor, options: options, path: path) {
            mapping = Self.mapWholeFile(descriptor)
        } else {
            mapping = nil
        }
        if let mapping {
            cursor.pointee.bytes = mapping.base.assumingMemoryBound(to: UInt8.self)
            cursor.pointee.filled = mapping.length
            cursor.pointee.atEndOfFile = true
        }
    }

    /// Closes an owned descriptor, unmaps the file and frees the buffer and cursor.
    func close() {
        input.close()
        if let mapping { munmap(mapping.base, mapping.length) }
        ownedBuffer.deallocate()
        cursor.deallocate()
    }

    /// Bytes of the file consumed so far.
    var bytesConsumed: Int { cursor.pointee.discarded + cursor.pointee.position }

    /// The file's size in bytes when it is a regular file, else nil (pipes).
    var fileSize: Int? {
        var info = stat()
        guard let descriptor = input.descriptor, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// From the cursor on, rewrites the bytes already in the buffer, and every byte read later, to
    /// commas and decimal points (a file in another dialect; never a mapping).
    func translateRows(delimiter: UInt8, decimalComma: Bool) {
        cursor.pointee.translatesRows = true
        cursor.pointee.delimiter = delimiter
        cursor.pointee.decimalComma = decimalComma
        CSVDialect.translate(cursor.pointee.bytes + cursor.pointee.position, count: cursor.pointee.filled - cursor.pointee.position,
                             delimiter: delimiter, decimalComma: decimalComma)
    }

    /// Hands the mapped bytes before the cursor back to the kernel once 64 MiB have been consumed.
    @inline(__always)
    func releaseConsumedBytes() {
        if cursor.pointee.position - cursor.pointee.releasedUpTo >= 1 << 26, mapping != nil { releaseConsumedMapping() }
    }

    /// Maps a regular, non-empty file read-only and reads it in place (no copy into a buffer).
    /// Falls back silently to read(2) when mapping is not possible (pipes, empty files).
    private static func mapWholeFile(_ descriptor: Int32) -> (base: UnsafeMutableRawPointer, length: Int)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
              base != MAP_FAILED else { return nil }
        let length = Int(info.st_size)
        _ = madvise(base, length, MADV_SEQUENTIAL)
        return (base, length)
    }

    /// Hands the consumed part of the mapping back to the kernel so resident memory stays bounded.
    @inline(never)
    private func releaseConsumedMapping() {
        guard let mapping else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = (cursor.pointee.position / page) * page
        let start = cursor.pointee.releasedUpTo
        if end > start { _ = madvise(mapping.base + start, end - start, MADV_DONTNEED) }
        cursor.pointee.releasedUpTo = end
    }

    /// The next line without its line break (and without a trailing carriage return).
    @inline(__always)
    func nextLine() throws -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>)? {
        let st = cursor
        while true {
            let buffer = st.pointee.bytes
            let position = st.pointee.position
            let filled = st.pointee.filled
            if position < filled, let found = memchr(buffer + position, 10, filled - position) {
                let start = UnsafePointer(buffer + position)
                var end = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                st.pointee.position = end - UnsafePointer(buffer) + 1
                st.pointee.lineNumber += 1
                if end > start, end[-1] == 13 { end -= 1 }
                return (start, end)
            }
            if st.pointee.atEndOfFile {
                guard position < filled else { return nil }
                let start = UnsafePointer(buffer + position)
                var end = UnsafePointer(buffer + filled)
                st.pointee.position = filled
                st.pointee.lineNumber += 1
                st.pointee.lastLineTerminated = false
                if end > start, end[-1] == 13 { end -= 1 }
                return (start, end)
            }
            try refill()
        }
    }

    @inline(never)
    private func refill() throws {
        // The unread tail moves to the front; the bytes read after it are new.
        let kept = cursor.pointee.filled - cursor.pointee.position
        cursor.pointee.discarded += cursor.pointee.position
        try Self.refill(input: input, buffer: ownedBuffer, capacity: capacity, path: path,
                        position: &cursor.pointee.position, filled: &cursor.pointee.filled,
                        atEndOfFile: &cursor.pointee.atEndOfFile, lineNumber: cursor.pointee.lineNumber,
                        carriageReturnLines: cursor.pointee.carriageReturnLines)
        if cursor.pointee.translatesRows {
            // The bytes just read (the unread tail before them was translated already).
            CSVDialect.translate(ownedBuffer + kept, count: cursor.pointee.filled - kept,
                                 delimiter: cursor.pointee.delimiter, decimalComma: cursor.pointee.decimalComma)
        }
    }

    /// Moves the unread tail to the front and reads more bytes; rejects binary data and lines
    /// longer than the buffer.
    private static func refill(input: ReaderInput, buffer: UnsafeMutablePointer<UInt8>, capacity: Int, path: String,
                               position: inout Int, filled: inout Int, atEndOfFile: inout Bool, lineNumber: Int,
                               carriageReturnLines: Bool) throws {
        if position > 0 {
            if filled > position { memmove(buffer, buffer + position, filled - position) }
            filled -= position
            position = 0
        }
        if filled == capacity {
            throw RecordingError(file: path, line: lineNumber + 1, column: 0,
                                 message: "line is longer than \(capacity) bytes: not a CSV recording (binary data or missing line breaks?)")
        }
        var count: Int
        repeat {
            count = input.read(buffer + filled, capacity - filled)
        } while count < 0 && errno == EINTR
        if count < 0 {
            if let failure = input.failure { throw failure }
            throw RecordingError(file: path, line: lineNumber + 1, column: 0,
                                 message: "read failed (\(String(cString: strerror(errno))))")
        }
        if count == 0 { atEndOfFile = true; return }
        if let zero = memchr(buffer + filled, 0, count) {
            // Locate the line for the message (in a file with carriage-return line ends, also
            // before the header has been read and its line ends recognised).
            var line = lineNumber + 1
            var p = buffer + position
            let stop = zero.assumingMemoryBound(to: UInt8.self)
            let carriageReturns = carriageReturnLines
                || (lineNumber == 0 && carriageReturnLineEnd(buffer + position, count: filled + count - position) == true)
            while p < stop { if p.pointee == 10 || (carriageReturns && p.pointee == 13) { line += 1 }; p += 1 }
            throw RecordingError(file: path, line: line, column: 0,
                                 message: "binary data (a NUL byte): this is not a CSV text file")
        }
        if carriageReturnLines { translateCarriageReturns(buffer + filled, count: count) }
        filled += count
    }

    /// Turns every carriage return into a line feed.
    private static func translateCarriageReturns(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count where bytes[i] == 13 { bytes[i] = 10 }
    }

    /// Whether the first line break in `bytes` is a carriage return that is not followed by a line
    /// feed (classic Mac OS line ends): true or false, or nil when that is not known yet (no line
    /// break, or the carriage return is the last byte).
    static func carriageReturnLineEnd(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool? {
        for i in 0..<count where bytes[i] == 10 || bytes[i] == 13 {
            guard bytes[i] == 13 else { return false }
            return i + 1 < count ? bytes[i + 1] != 10 : nil
        }
        return nil
    }

    /// `carriageReturnLineEnd`, known only when true (for tests and callers that need a yes).
    static func endsLinesWithCarriageReturn(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        carriageReturnLineEnd(bytes, count: count) == true
    }

    /// The next line before the first data row (a comment line or the header), as text, and the
    /// offset where it starts; nil at the end of the file. Recognises carriage-return line ends on
    /// the read(2) path. `lineNumber` is its 1-based number, for messages.
    func lineBeforeData(lineNumber: Int) throws -> (String, Int)? {
        let writable = mapping == nil
        while true {
            let buffer = cursor.pointee.bytes
            if !cursor.pointee.carriageReturnLines, writable {
                // Undecided (a carriage return is the last byte read) counts as a carriage-return
                // line end once the buffer is full, since the header line could not be read anyway.
                let available = cursor.pointee.filled - cursor.pointee.position
                let lineEnd = Self.carriageReturnLineEnd(buffer + cursor.pointee.position, count: available)
                if lineEnd == true || (lineEnd == nil && available >= capacity && buffer[cursor.pointee.filled - 1] == 13) {
                    cursor.pointee.carriageReturnLines = true
                    Self.translateCarriageReturns(buffer + cursor.pointee.position, count: available)
                }
            }
            let position = cursor.pointee.position
            let filled = cursor.pointee.filled
            if let found = memchr(buffer + position, 10, min(filled - position, capacity)) {
                let end = found.assumingMemoryBound(to: UInt8.self)
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: end - (buffer + position))
                cursor.pointee.position = end - buffer + 1
                return (try Self.lineText(bytes, path: path, line: lineNumber), position)
            }
            if cursor.pointee.atEndOfFile {
                if filled == position { return nil }
                if filled - position > capacity {
                    throw RecordingError(file: path, line: lineNumber, column: 0,
                                         message: "line is longer than \(capacity) bytes: not a CSV recording (binary data or missing line breaks?)")
                }
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: filled - position)
                cursor.pointee.position = filled
                return (try Self.lineText(bytes, path: path, line: lineNumber), position)
            }
            try Self.refill(input: input, buffer: buffer, capacity: capacity, path: path,
                            position: &cursor.pointee.position, filled: &cursor.pointee.filled,
                            atEndOfFile: &cursor.pointee.atEndOfFile, lineNumber: lineNumber - 1,
                            carriageReturnLines: cursor.pointee.carriageReturnLines)
        }
    }

    private static func lineText(_ bytes: UnsafeBufferPointer<UInt8>, path: String, line: Int) throws -> String {
        if bytes.contains(0) {
            throw RecordingError(file: path, line: line, column: 0, message: "binary data (a NUL byte): this is not a CSV text file")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecordingError(file: path, line: line, column: 0, message: "the header is not UTF-8 text: a binary file, not a CSV recording")
        }
        return text
    }

    /// Whether a regular file can be read in place through a mapping: its first line break is a
    /// line feed (or CR LF), and its header (after any comment lines, within the first 64 KiB) is
    /// comma-separated with decimal points. Other files are translated in the buffer as they are
    /// read. False when the descriptor cannot be read at an offset (pipes); pread, so the
    /// position does not move.
    private static func mappable(_ descriptor: Int32, options: ReadOptions, path: String) -> Bool {
        let size = 1 << 16
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { bytes.deallocate() }
        let count = pread(descriptor, bytes, size, 0)
        guard count > 0, carriageReturnLineEnd(bytes, count: count) == false else { return false }
        var start = 0
        var line = 0
        while start < count, let found = memchr(bytes + start, 10, count - start) {
            let end = found.assumingMemoryBound(to: UInt8.self) - bytes
            var text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
            line += 1
            start = end + 1
            if line == 1, text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
            if line <= options.skipLines || CSVDialect.isComment(text, prefixes: options.commentPrefixes) { continue }
            guard let resolved = try? CSVDialect.resolve(header: text, options: options, file: path, line: line) else { return false }
            return !CSVDialect(delimiter: resolved.0, decimalComma: resolved.1).translatesRows
        }
        return false
    }
}
