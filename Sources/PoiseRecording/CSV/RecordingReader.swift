#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// Streams a CSV recording from disk in constant memory, one `MotionSample` at a time.
///
/// The reader holds one fixed buffer (`ReadOptions.bufferSize` bytes) and parses rows directly
/// from its bytes: no per-row allocation, no `String`s. Values are converted to the core units
/// (seconds, g specific force, rad/s, µT) through the header mapping (see `RecordingSchema`).
///
/// Error policy: in strict mode (the default) the first error is thrown as `RecordingError`
/// (file, line, column, message). In lenient mode bad rows are dropped or repaired, and each one is
/// reported as a `RecordingIssue` (first `ReadOptions.maximumStoredIssues` stored in `issues`, all
/// counted in `summary`, all passed to `onIssue`). Warnings (gaps, repeated timestamps) are
/// reported in both modes and never stop the read.
///
/// The parts, each in its own file: `CSVByteSource` (the bytes: mapped or read into a buffer,
/// lines, line ends), `CSVHeaderReader` (comment lines, dialect, header → schema), `CSVRowParser`
/// (fields → values), `CSVColumnPlan` (values → sample fields), `RowChecks` (time order, gaps,
/// repairs, diagnosis) and `ReadIssueLog` (the issues and the strict/lenient policy). This class
/// is the row loop that joins them.
///
/// ```swift
/// let reader = try RecordingReader(path: "walk.csv")
/// while let sample = try reader.next() { … }
/// ```
public final class RecordingReader {
    /// The path given by the caller (used in every message).
    public let path: String
    /// The column layout read from the header.
    public let schema: RecordingSchema
    /// How the file's text is written (delimiter, decimal separator, byte order mark, comment
    /// lines before the header).
    public let dialect: CSVDialect
    /// The options in effect.
    public let options: ReadOptions
    /// Counts of delivered, dropped and repaired rows and of issues by kind.
    public var summary: ReadSummary {
        var s = log.summary
        s.rowsDelivered = state.pointee.rowsDelivered
        return s
    }
    /// The first `options.maximumStoredIssues` issues, in file order.
    public var issues: [RecordingIssue] { log.issues }
    /// Called for every issue as it is found (also beyond the stored ones).
    public var onIssue: ((RecordingIssue) -> Void)? {
        get { log.onIssue }
        set { log.onIssue = newValue }
    }

    private let source: CSVByteSource
    private let parser: CSVRowParser
    private let plan: CSVColumnPlan
    private let checks: RowChecks
    private let log: ReadIssueLog
    /// Mutable per-row counters behind a pointer: the hot loop reads and writes them without the
    /// dynamic exclusivity checks that class stored properties get.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var rowsDelivered = 0
        /// Data rows seen (delivered, dropped or bad; not blank lines): the index of the next row.
        var dataRows = 0
        var finished = false
        /// Added to the time column before scaling: whole wraps of a packet counter so far
        /// (`CSVColumnPlan.counterModulus`), 0 for other files.
        var counterOffset = 0.0
    }

    /// `options.commentPrefixes` as bytes, rewritten like the rows of a translated dialect.
    private let commentRowPrefixes: [[UInt8]]

    /// Whether the line at `start` (before `limit`) starts, after spaces, with a comment prefix.
    private func isCommentRow(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> Bool {
        var p = start
        while p < limit, p.pointee == 32 { p += 1 }
        return commentRowPrefixes.contains { prefix in
            limit - p >= prefix.count && prefix.indices.allSatisfy { p[$0] == prefix[$0] }
        }
    }

    /// Opens `path` and reads its header. `-` reads standard input (through read(2), or mapped
    /// when it is redirected from a regular file).
    ///
    /// - Throws: `RecordingError` when the file cannot be opened, is empty, binary, or has a header
    ///   that cannot be mapped (unknown column in strict mode, duplicate or incomplete columns,
    ///   no time column unless `options.sampleRate` is given), or when `options.sampleRate` is
    ///   not a positive finite number.
    public convenience init(path: String, options: ReadOptions = ReadOptions()) throws {
        if let rate = options.sampleRate, !(rate.isFinite && rate > 0) {
            throw RecordingError(file: path, line: 0, column: 0, message: "sample rate \(rate) Hz: must be a positive number")
        }
        let descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot open the file (\(reason))")
        }
        try self.init(name: path, input: .descriptor(descriptor), options: options)
    }

    /// Reads CSV rows from `stream` (a live feed, read in the calling thread), named `name` in
    /// every message. Never memory-mapped; otherwise as `init(path:options:)`.
    public convenience init(stream: any ByteStream, name: String, options: ReadOptions = ReadOptions()) throws {
        if let rate = options.sampleRate, !(rate.isFinite && rate > 0) {
            throw RecordingError(file: name, line: 0, column: 0, message: "sample rate \(rate) Hz: must be a positive number")
        }
        try self.init(name: name, input: .stream(stream), options: options)
    }

    private init(name path: String, input: ReaderInput, options: ReadOptions) throws {
        self.path = path
        self.options = options
        let source = CSVByteSource(path: path, input: input, options: options)
        let header: CSVHeaderReader.Result
        do {
            header = try CSVHeaderReader.read(source, options: options)
        } catch {
            source.close()
            throw error
        }
        self.source = source
        schema = header.schema
        dialect = header.dialect
        parser = CSVRowParser(schema: header.schema)
        plan = CSVColumnPlan(schema: header.schema, options: options)
        log = ReadIssueLog(path: path, options: options)
        checks = RowChecks(source: source, parser: parser, plan: plan, schema: header.schema, log: log)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        let dialect = header.dialect
        commentRowPrefixes = options.commentPrefixes.map { prefix in
            var bytes = Array(prefix.utf8)
            if dialect.translatesRows {
                bytes.withUnsafeMutableBufferPointer {
                    CSVDialect.translate($0.baseAddress!, count: $0.count, delimiter: dialect.delimiter.byte, decimalComma: dialect.decimalComma)
                }
            }
            return bytes
        }
        for issue in header.issues { log.record(issue) }
    }

    deinit {
        source.close()
        parser.deallocate()
        state.deallocate()
    }

    // MARK: - Public streaming API

    /// True when the file ends its lines with a carriage return alone (classic Mac OS line
    /// ends); such a file is read like one with line feeds.
    public var carriageReturnLineEndings: Bool { source.cursor.pointee.carriageReturnLines }

    /// Bytes of the file consumed so far (header and rows returned or rejected).
    public var bytesConsumed: Int { source.bytesConsumed }

    /// The file's size in bytes when it is a regular file, else nil (pipes).
    public var fileSize: Int? { source.fileSize }

    /// The next sample in file order, or `nil` at the end of the file.
    ///
    /// - Throws: `RecordingError` at the first error in strict mode, or for an unreadable or
    ///   binary file in either mode.
    public func next() throws -> MotionSample? {
        var sample = MotionSample(time: 0)
        return try nextRow(&sample) ? sample : nil
    }

    /// Appends up to `maximumCount` samples to `samples`; returns how many were appended
    /// (0 only at the end of the file). Reuse one array with `removeAll(keepingCapacity: true)` to
    /// stream in constant memory.
    ///
    /// - Throws: as `next()`.
    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        var count = 0
        while count < maximumCount {
            // Rows are written straight into the array's storage, a block at a time: the block is
            // appended as default samples, filled in place, and what was not filled is removed.
            // (Appending row by row costs a uniqueness check and a 160-byte copy through the
            // stack per row.)
            let block = min(maximumCount - count, Self.blockRows)
            let start = samples.count
            samples.append(contentsOf: repeatElement(MotionSample(time: 0), count: block))
            var filled = 0
            var failure: Error?
            samples.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                do { try fill(base + start, capacity: block, filled: &filled) } catch { failure = error }
            }
            samples.removeLast(block - filled)
            count += filled
            if let failure { throw failure }
            if filled < block { break }
        }
        return count
    }

    /// Rows per block of `read(into:maximumCount:)` (80 KB of samples, so the block is still in
    /// the cache when it is filled; 4096 was about 5 % slower).
    static let blockRows = 512

    /// Writes up to `capacity` rows into `rows` (initialised default samples), counting them in
    /// `filled` (also when it throws, so the rows before the error are kept).
    @inline(__always)
    private func fill(_ rows: UnsafeMutablePointer<MotionSample>, capacity: Int, filled: inout Int) throws {
        while filled < capacity {
            filled += readRun(into: rows + filled, maximumCount: capacity - filled)
            guard filled < capacity, try nextRow(&rows[filled]) else { break }
            filled += 1
        }
    }

    /// The batch fast path: writes consecutive rows that need no decision — every field in the
    /// short common form (so finite), time increasing by at most 1.5 typical intervals — keeping
    /// the cursor in locals. Stops before the first row that needs more (the caller's `nextRow`
    /// handles that row with the full checks). Returns the number of rows written to `rows`
    /// (default samples whose mapped fields it sets).
    @inline(__always)
    private func readRun(into rows: UnsafeMutablePointer<MotionSample>, maximumCount: Int) -> Int {
        let cursor = source.cursor
        let history = checks.history
        let plan = self.plan
        guard history.pointee.hasPrevious, history.pointee.typicalInterval > 0, !parser.hasSkippedColumns, plan.timeColumn >= 0,
              plan.accelerationComponentColumns == nil else { return 0 }
        let buffer = UnsafePointer(cursor.pointee.bytes)
        let limit = buffer + cursor.pointee.filled
        var p = buffer + cursor.pointee.position
        var previousTime = history.pointee.previousTime
        var threshold = 1.5 * history.pointee.typicalInterval
        var intervals = history.pointee.intervalCount
        let counterOffset = state.pointee.counterOffset
        let ring = checks.intervalRing
        let v = parser.values
        let timeColumn = plan.timeColumn
        let timeScale = plan.timeScale
        var count = 0
        while count < maximumCount {
            guard let fieldsEnd = parser.parseShortFields(p, limit) else { break }
            var q = fieldsEnd
            if q < limit, q.pointee == 13 { q += 1 }
            guard q < limit, q.pointee == 10 else { break }
            let time = (v[timeColumn] + counterOffset) * timeScale
            let interval = time - previousTime
            guard interval > 0, interval <= threshold else { break }
            let row = rows + count
            row.pointee.time = time
            if let c = plan.accelerationColumns { row.pointee.acceleration = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.accelerationScales }
            if let c = plan.rotationRateColumns { row.pointee.rotationRate = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.rotationRateScales }
            if let c = plan.magneticFieldColumns { row.pointee.magneticField = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.magneticFieldScales }
            if let c = plan.truthColumns { row.pointee.truth = Quaternion(w: v[c[0]], x: v[c[1]], y: v[c[2]], z: v[c[3]]) }
            if let c = plan.movementColumn { row.pointee.movement = v[c] != 0 }
            count += 1
            p = q + 1
            previousTime = time
            ring[intervals & 15] = interval
            intervals += 1
            if intervals & 63 == 0 {
                checks.updateTypicalIntervalQuietly()
                threshold = 1.5 * history.pointee.typicalInterval
            }
        }
        guard count > 0 else { return 0 }
        history.pointee.intervalCount = intervals
        cursor.pointee.position = p - buffer
        cursor.pointee.lineNumber += count
        state.pointee.rowsDelivered += count
        state.pointee.dataRows += count
        history.pointee.previousTime = previousTime
        let last = rows + (count - 1)
        history.pointee.previousAcceleration = last.pointee.acceleration
        history.pointee.previousRotationRate = last.pointee.rotationRate
        history.pointee.previousMagneticField = last.pointee.magneticField
        source.releaseConsumedBytes()
        return count
    }

    // MARK: - Rows

    /// Fills `sample` with the next good row; false at the end of the file.
    private func nextRow(_ sample: inout MotionSample) throws -> Bool {
        let cursor = source.cursor
        while true {
            // Fast path: a complete, well-formed row straight from the buffer (no line search).
            let buffer = UnsafePointer(cursor.pointee.bytes)
            let position = cursor.pointee.position
            let filled = cursor.pointee.filled
            if position < filled {
                let start = buffer + position
                let limit = buffer + filled
                if let fieldsEnd = parser.parseShortFields(start, limit)
                    ?? (commentRowPrefixes.isEmpty || !isCommentRow(start, limit) ? parser.parseFields(start, limit) : nil) {
                    var p = fieldsEnd
                    if p < limit, p.pointee == 13 { p += 1 }
                    if p < limit, p.pointee == 10 {
                        cursor.pointee.position = p + 1 - buffer
                        cursor.pointee.lineNumber += 1
                        source.releaseConsumedBytes()
                        if try deliver(&sample) { return true }
                        continue
                    }
                }
            }
            // Slow path: one whole line (refills the buffer; blank, unterminated and bad lines).
            guard let (start, end) = try source.nextLine() else { break }
            if start == end {
                try blankLines()
                continue
            }
            if !commentRowPrefixes.isEmpty && isCommentRow(start, end) {
                log.summary.commentLines += 1
                continue
            }
            guard parser.parseFields(start, end) == end else {
                if let empty = parser.parseAllowingEmptyFields(start, end), checks.holdEmptySensors(empty) {
                    if try deliver(&sample) { return true }
                    continue
                }
                try checks.diagnose(start, end)
                state.pointee.dataRows += 1
                continue
            }
            if try deliver(&sample) { return true }
        }
        if !state.pointee.finished {
            state.pointee.finished = true
            if state.pointee.rowsDelivered == 0 && log.summary.rowsDropped == 0 {
                try log.problem(.noData, line: 0, column: 0, message: "no data rows after the header", isError: false)
            }
        }
        return false
    }

    /// A blank line (just read) and the blank lines that follow it in the buffer: each is an
    /// issue (kept), but once the stored issues are full (and no `onIssue` is set) the rest of
    /// the run is only counted, so a long run of blank lines reads at the parser's speed.
    private func blankLines() throws {
        let cursor = source.cursor
        let first = cursor.pointee.lineNumber
        let buffer = cursor.pointee.bytes
        let filled = cursor.pointee.filled
        var p = cursor.pointee.position
        var more = 0
        while p < filled {
            if buffer[p] == 10 {
                p += 1
            } else if buffer[p] == 13, p + 1 < filled, buffer[p + 1] == 10 {
                p += 2
            } else {
                break
            }
            more += 1
        }
        cursor.pointee.position = p
        cursor.pointee.lineNumber += more
        source.releaseConsumedBytes()
        for n in 0 ... more {
            if log.onlyCounts {
                log.summary.issueCounts[.blankLine, default: 0] += more + 1 - n
                break
            }
            try log.problem(.blankLine, line: first + n, column: 0, message: "blank line", isError: false)
        }
    }

    /// Checks and converts the parsed row; remembers it for the next row's checks.
    @inline(__always)
    private func deliver(_ sample: inout MotionSample) throws -> Bool {
        let assembled = try assemble(&sample)
        state.pointee.dataRows += 1
        guard assembled else { return false }
        checks.remember(sample)
        state.pointee.rowsDelivered += 1
        return true
    }

    /// Builds a sample from the parsed values, applying the value and time checks. False when the
    /// row was dropped (lenient mode).
    @inline(__always)
    private func assemble(_ sample: inout MotionSample) throws -> Bool {
        let v = parser.values
        let plan = self.plan
        let st = state
        let history = checks.history
        var time = plan.timeColumn >= 0
            ? (v[plan.timeColumn] + st.pointee.counterOffset) * plan.timeScale
            : Double(st.pointee.dataRows) / (plan.rowRate ?? 1)
        if let modulus = plan.counterModulus, history.pointee.hasPrevious,
           time < history.pointee.previousTime - 0.5 * modulus * plan.timeScale {
            // The counter wrapped (65535 → 0): count the wrap, so time keeps increasing.
            st.pointee.counterOffset += modulus
            time = (v[plan.timeColumn] + st.pointee.counterOffset) * plan.timeScale
        }
        var check = time
        sample.time = time
        if let c = plan.accelerationColumns {
            sample.acceleration = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.accelerationScales
            if let d = plan.accelerationComponentColumns {
                sample.acceleration += SIMD3(v[d.x], v[d.y], v[d.z]) * plan.accelerationComponentScales
            }
            check += sample.acceleration.sum()
        }
        if let c = plan.rotationRateColumns {
            sample.rotationRate = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.rotationRateScales
            check += sample.rotationRate.sum()
        }
        if let c = plan.magneticFieldColumns {
            let m = SIMD3(v[c.x], v[c.y], v[c.z]) * plan.magneticFieldScales
            sample.magneticField = m
            check += m.sum()
        }
        if let c = plan.truthColumns {
            let q = Quaternion(w: v[c[0]], x: v[c[1]], y: v[c[2]], z: v[c[3]])
            if q.isFinite {
                sample.truth = q
            } else {
                sample.truth = nil
                log.summary.rowsWithoutTruth += 1
            }
        }
        if let c = plan.movementColumn {
            guard v[c].isFinite else {
                try log.problem(.nonFinite, line: source.cursor.pointee.lineNumber, column: c + 1,
                                message: "non-finite value in \(schema.columns[c].name)", isError: true)
                return false
            }
            sample.movement = v[c] != 0
        }
        if !check.isFinite, try !checks.repairNonFinite(&sample) { return false }
        return try checks.checkTime(sample.time)
    }
}
