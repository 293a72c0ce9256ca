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
        var s = storedSummary
        s.rowsDelivered = state.pointee.rowsDelivered
        return s
    }
    /// The first `options.maximumStoredIssues` issues, in file order.
    public private(set) var issues: [RecordingIssue] = []
    /// Called for every issue as it is found (also beyond the stored ones).
    public var onIssue: ((RecordingIssue) -> Void)?

    // Input.
    private let input: ReaderInput
    /// The reader's own buffer (read(2) path).
    private let ownedBuffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The whole file mapped read-only (regular files), or nil on the read(2) path.
    private let mapping: (base: UnsafeMutableRawPointer, length: Int)?
    /// Mutable per-row state behind a pointer: the hot loop reads and writes it without the
    /// dynamic exclusivity checks that class stored properties get (measured: 2× faster rows).
    private let state: UnsafeMutablePointer<State>
    private var storedSummary = ReadSummary()

    private struct State {
        /// Where the bytes are: `ownedBuffer`, or the file mapping.
        var bytes: UnsafeMutablePointer<UInt8>
        /// Mapped bytes before this offset have been handed back to the kernel (`MADV_DONTNEED`),
        /// so a mapped file's resident memory stays bounded.
        var releasedUpTo = 0
        var position = 0
        var filled = 0
        var atEndOfFile = false
        /// 1-based number of the line most recently returned by `nextLine()` (header = 1).
        var lineNumber = 0
        var lastLineTerminated = true
        var finished = false
        var hasPrevious = false
        var previousTime = 0.0
        var previousAcceleration = SIMD3<Double>.zero
        var previousRotationRate = SIMD3<Double>.zero
        var previousMagneticField: SIMD3<Double>?
        var intervalCount = 0
        var typicalInterval = 0.0
        var rowsDelivered = 0
        /// Data rows seen (delivered, dropped or bad; not blank lines): the index of the next row.
        var dataRows = 0
        /// Bytes of the file before `bytes[0]` (read(2) path: moved out by refills).
        var discarded = 0
        /// Every column's fraction width is known (`fractionDigits`): the short path may expect it.
        var fixedFractions = false
        /// The file ends its lines with a carriage return alone (classic Mac OS): each one is
        /// turned into a line feed as the bytes are read.
        var carriageReturnLines = false
        /// The rows are rewritten to commas and decimal points as they are read (`CSVDialect`):
        /// the file's delimiter byte, and whether it uses decimal commas.
        var translatesRows = false
        var delimiter: UInt8 = 44
        var decimalComma = false
        /// Added to the time column before scaling: whole wraps of a packet counter so far
        /// (`counterModulus`), 0 for other files.
        var counterOffset = 0.0
    }

    // Parsing plan.
    private let parser: DecimalParser
    private let values: UnsafeMutablePointer<Double>
    /// Sensors (bit 0 accelerometer, 1 gyroscope, 2 magnetometer) whose fields were all empty in
    /// the row being assembled (`parseWithHeldSensors`); they hold their previous values.
    private var heldSensors: UInt8 = 0
    /// The short path's powers of ten, one per column (padding lanes stay 1).
    private let divisors: UnsafeMutablePointer<Double>
    /// Per column, the number of digits after the point in the last row the short path parsed
    /// (1…7), or 0 when that is unknown or varies; `fixedFractions` when every column has one.
    private let fractionDigits: UnsafeMutablePointer<Int>
    private let skipColumn: UnsafeMutablePointer<Bool>
    private let columnCount: Int
    private let hasSkippedColumns: Bool
    /// The time column, or −1 when the file has none and rows are timed by `sampleRate`.
    private let timeColumn: Int
    private let timeScale: Double
    /// The modulus of a packet-counter time column (Xsens `PacketCounter`: 65,536), or nil.
    private let counterModulus: Double?
    /// `options.sampleRate` for a file without a time column (row n at n / rate s), else nil.
    private let rowRate: Double?
    private let accelerationColumns: SIMD3<Int>?
    private let accelerationScales: SIMD3<Double>
    /// Columns added to the acceleration (`ColumnMeaning.accelerationComponent`), or nil.
    private let accelerationComponentColumns: SIMD3<Int>?
    private let accelerationComponentScales: SIMD3<Double>
    private let rotationRateColumns: SIMD3<Int>?
    private let rotationRateScales: SIMD3<Double>
    private let magneticFieldColumns: SIMD3<Int>?
    private let magneticFieldScales: SIMD3<Double>
    private let truthColumns: SIMD4<Int>?
    private let movementColumn: Int?

    /// `options.commentPrefixes` as bytes, rewritten like the rows of a translated dialect.
    private var commentRowPrefixes: [[UInt8]] = []

    /// Whether the line at `start` (before `limit`) starts, after spaces, with a comment prefix.
    private func isCommentRow(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> Bool {
        var p = start
        while p < limit, p.pointee == 32 { p += 1 }
        return commentRowPrefixes.contains { prefix in
            limit - p >= prefix.count && prefix.indices.allSatisfy { p[$0] == prefix[$0] }
        }
    }

    // Gap detection: the last 16 positive intervals, and the first ones (checked once a typical
    // interval is known).
    private let intervalRing: UnsafeMutablePointer<Double>
    private var earlyIntervals: [(interval: Double, line: Int)] = []

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
        self.input = input
        capacity = max(64, options.bufferSize)
        ownedBuffer = .allocate(capacity: capacity)
        parser = DecimalParser()
        state = .allocate(capacity: 1)
        state.initialize(to: State(bytes: ownedBuffer))
        // A file with carriage-return line ends or another dialect is translated in the buffer, so
        // it is not mapped.
        if let descriptor = input.descriptor, options.memoryMap, RecordingReader.mappable(descriptor, options: options, path: path) {
            mapping = RecordingReader.mapWholeFile(descriptor)
        } else {
            mapping = nil
        }
        if let mapping {
            state.pointee.bytes = mapping.base.assumingMemoryBound(to: UInt8.self)
            state.pointee.filled = mapping.length
            state.pointee.atEndOfFile = true
        }
        intervalRing = .allocate(capacity: 32)  // 16 recent intervals + 16 of sorting space
        intervalRing.initialize(repeating: 0, count: 32)
        var headerIssues: [RecordingIssue] = []
        var schemaResult: RecordingSchema
        var dialectResult = CSVDialect()
        do {
            // Skipped lines, comment lines, then the header.
            guard options.skipLines >= 0 else {
                throw RecordingError(file: path, line: 0, column: 0, message: "--skip-lines \(options.skipLines): must be 0 or more")
            }
            for prefix in options.commentPrefixes {
                if let problem = CSVDialect.commentPrefixProblem(prefix) {
                    throw RecordingError(file: path, line: 0, column: 0, message: "--comment: \(problem)")
                }
            }
            var comments: [String] = []
            var header: String?
            var headerStart = 0
            while let (line, start) = try RecordingReader.lineBeforeData(
                input: input, buffer: state.pointee.bytes, capacity: capacity, path: path,
                position: &state.pointee.position, filled: &state.pointee.filled, atEndOfFile: &state.pointee.atEndOfFile,
                carriageReturnLines: &state.pointee.carriageReturnLines, writable: mapping == nil,
                lineNumber: state.pointee.lineNumber + 1) {
                state.pointee.lineNumber += 1
                var text = line
                headerStart = start
                if state.pointee.lineNumber == 1, text.unicodeScalars.first == "\u{FEFF}" {
                    dialectResult.byteOrderMark = true
                    text = String(text.unicodeScalars.dropFirst())
                    headerStart += 3
                }
                if dialectResult.skippedLines < options.skipLines {
                    dialectResult.skippedLines += 1
                    continue
                }
                if CSVDialect.isComment(text, prefixes: options.commentPrefixes) {
                    comments.append(text)
                    continue
                }
                header = text
                break
            }
            guard let header else {
                if options.skipLines > 0 && dialectResult.skippedLines + comments.count == state.pointee.lineNumber {
                    throw RecordingError(file: path, line: 0, column: 0,
                                         message: "the file has \(state.pointee.lineNumber) line(s) and --skip-lines \(options.skipLines) skips \(dialectResult.skippedLines) of them: nothing is left to read")
                }
                throw RecordingError(file: path, line: 0, column: 0,
                                     message: comments.isEmpty ? "empty file (no header line)" : "no header line after \(comments.count) comment line(s)")
            }
            dialectResult.preambleLines = comments.count
            dialectResult.commentPrefixes = options.commentPrefixes
            dialectResult.updateRateHz = comments.lazy.compactMap(CSVDialect.updateRate(inComment:)).first
            var line = state.pointee.lineNumber
            let following = UnsafeBufferPointer(start: UnsafePointer(state.pointee.bytes + state.pointee.position),
                                                count: state.pointee.filled - state.pointee.position)
            (dialectResult.delimiter, dialectResult.decimalComma) = try CSVDialect.resolve(header: header, options: options, file: path,
                                                                                        line: line, firstRow: following)
            let probe = dialectResult.decimalComma ? String(header.map { $0 == "," ? "." : $0 }) : header
            if options.columns != nil, ColumnSpec.isDataRow(CSVDialect.cells(of: probe, delimiter: dialectResult.delimiter)) {
                // No header: the line is the first data row, read again as one.
                dialectResult.headerless = true
                state.pointee.position = headerStart
                state.pointee.lineNumber -= 1
                line = state.pointee.lineNumber
            }
            schemaResult = try RecordingReader.schema(headerLine: header, line: line, dialect: dialectResult, path: path,
                                                      options: options, issues: &headerIssues)
            if schemaResult.format == .coreMotion && options.appleAccelerometerSign {
                throw RecordingError(file: path, line: line, column: 0,
                                     message: "the CoreMotion gravity and userAcceleration columns are converted from Apple's sign already: leave out --apple-accelerometer-sign (ReadOptions.appleAccelerometerSign)")
            }
            if dialectResult.translatesRows {
                guard mapping == nil else {
                    throw RecordingError(file: path, line: line, column: 0,
                                         message: "this file's dialect (\(dialectResult.summary)) cannot be read through a memory mapping; read it without memoryMap")
                }
                state.pointee.translatesRows = true
                state.pointee.delimiter = dialectResult.delimiter.byte
                state.pointee.decimalComma = dialectResult.decimalComma
                CSVDialect.translate(state.pointee.bytes + state.pointee.position, count: state.pointee.filled - state.pointee.position,
                                     delimiter: dialectResult.delimiter.byte, decimalComma: dialectResult.decimalComma)
            }
        } catch {
            input.close()
            if let mapping { munmap(mapping.base, mapping.length) }
            ownedBuffer.deallocate()
            parser.deallocate()
            state.deallocate()
            intervalRing.deallocate()
            throw error
        }
        if let unit = options.timeUnit,
           let index = schemaResult.columns.firstIndex(where: { if case .time = $0.meaning { true } else { false } }) {
            schemaResult.columns[index].meaning = .time(scale: unit.secondsPerUnit)
            schemaResult.columns[index].unit = unit.label
        }
        schema = schemaResult
        dialect = dialectResult
        columnCount = schemaResult.columns.count
        // Padded to whole SIMD4 groups for the short path's vector division.
        let padded = (columnCount + 3) & ~3
        values = .allocate(capacity: padded)
        values.initialize(repeating: 0, count: padded)
        divisors = .allocate(capacity: padded)
        divisors.initialize(repeating: 1, count: padded)
        fractionDigits = .allocate(capacity: columnCount)
        fractionDigits.initialize(repeating: 0, count: columnCount)
        skipColumn = .allocate(capacity: columnCount)
        var time = (column: -1, scale: 1.0)
        var acc = (columns: SIMD3<Int>(repeating: -1), scales: SIMD3<Double>(repeating: 1))
        var gyr = acc
        var mag = acc
        var component = acc
        var truth = SIMD4<Int>(repeating: -1)
        var movement: Int?
        let sign = options.appleAccelerometerSign ? -1.0 : 1.0
        for (i, column) in schemaResult.columns.enumerated() {
            skipColumn[i] = false
            switch column.meaning {
            case .time(let scale): time = (i, scale)
            case .acceleration(let axis, let scale): acc.columns[axis] = i; acc.scales[axis] = sign * scale
            case .accelerationComponent(let axis, let scale): component.columns[axis] = i; component.scales[axis] = sign * scale
            case .rotationRate(let axis, let scale): gyr.columns[axis] = i; gyr.scales[axis] = scale
            case .magneticField(let axis, let scale): mag.columns[axis] = i; mag.scales[axis] = scale
            case .truth(let component): truth[component] = i
            case .movement: movement = i
            case .ignored: skipColumn[i] = true
            }
        }
        hasSkippedColumns = schemaResult.columns.contains { if case .ignored = $0.meaning { true } else { false } }
        timeColumn = time.column
        timeScale = time.scale
        counterModulus = time.column >= 0 && schemaResult.columns[time.column].name == "PacketCounter" ? 65536 : nil
        rowRate = time.column < 0 ? options.sampleRate : nil
        accelerationColumns = schemaResult.hasAccelerometer ? acc.columns : nil
        accelerationScales = acc.scales
        accelerationComponentColumns = component.columns[0] >= 0 ? component.columns : nil
        accelerationComponentScales = component.scales
        rotationRateColumns = schemaResult.hasGyroscope ? gyr.columns : nil
        rotationRateScales = gyr.scales
        magneticFieldColumns = schemaResult.hasMagnetometer ? mag.columns : nil
        magneticFieldScales = mag.scales
        truthColumns = schemaResult.hasTruth ? truth : nil
        movementColumn = movement
        commentRowPrefixes = options.commentPrefixes.map { prefix in
            var bytes = Array(prefix.utf8)
            if dialectResult.translatesRows {
                bytes.withUnsafeMutableBufferPointer {
                    CSVDialect.translate($0.baseAddress!, count: $0.count, delimiter: dialectResult.delimiter.byte, decimalComma: dialectResult.decimalComma)
                }
            }
            return bytes
        }
        for issue in headerIssues { record(issue) }
    }

    deinit {
        input.close()
        if let mapping { munmap(mapping.base, mapping.length) }
        ownedBuffer.deallocate()
        parser.deallocate()
        values.deallocate()
        divisors.deallocate()
        fractionDigits.deallocate()
        skipColumn.deallocate()
        state.deallocate()
        intervalRing.deallocate()
    }

    // MARK: - Public streaming API

    /// True when the file ends its lines with a carriage return alone (classic Mac OS line
    /// ends); such a file is read like one with line feeds.
    public var carriageReturnLineEndings: Bool { state.pointee.carriageReturnLines }

    /// Bytes of the file consumed so far (header and rows returned or rejected).
    public var bytesConsumed: Int { state.pointee.discarded + state.pointee.position }

    /// The file's size in bytes when it is a regular file, else nil (pipes).
    public var fileSize: Int? {
        var info = stat()
        guard let descriptor = input.descriptor, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

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
        let st = state
        guard st.pointee.hasPrevious, st.pointee.typicalInterval > 0, !hasSkippedColumns, timeColumn >= 0,
              accelerationComponentColumns == nil else { return 0 }
        let buffer = UnsafePointer(st.pointee.bytes)
        let limit = buffer + st.pointee.filled
        var p = buffer + st.pointee.position
        var previousTime = st.pointee.previousTime
        var threshold = 1.5 * st.pointee.typicalInterval
        var intervals = st.pointee.intervalCount
        let counterOffset = st.pointee.counterOffset
        let ring = intervalRing
        let v = values
        var count = 0
        while count < maximumCount {
            guard let fieldsEnd = parseShortFields(p, limit) else { break }
            var q = fieldsEnd
            if q < limit, q.pointee == 13 { q += 1 }
            guard q < limit, q.pointee == 10 else { break }
            let time = (v[timeColumn] + counterOffset) * timeScale
            let interval = time - previousTime
            guard interval > 0, interval <= threshold else { break }
            let row = rows + count
            row.pointee.time = time
            if let c = accelerationColumns { row.pointee.acceleration = SIMD3(v[c.x], v[c.y], v[c.z]) * accelerationScales }
            if let c = rotationRateColumns { row.pointee.rotationRate = SIMD3(v[c.x], v[c.y], v[c.z]) * rotationRateScales }
            if let c = magneticFieldColumns { row.pointee.magneticField = SIMD3(v[c.x], v[c.y], v[c.z]) * magneticFieldScales }
            if let c = truthColumns { row.pointee.truth = Quaternion(w: v[c[0]], x: v[c[1]], y: v[c[2]], z: v[c[3]]) }
            if let c = movementColumn { row.pointee.movement = v[c] != 0 }
            count += 1
            p = q + 1
            previousTime = time
            ring[intervals & 15] = interval
            intervals += 1
            if intervals & 63 == 0 {
                updateTypicalIntervalQuietly()
                threshold = 1.5 * st.pointee.typicalInterval
            }
        }
        guard count > 0 else { return 0 }
        st.pointee.intervalCount = intervals
        st.pointee.position = p - buffer
        st.pointee.lineNumber += count
        st.pointee.rowsDelivered += count
        st.pointee.dataRows += count
        st.pointee.previousTime = previousTime
        let last = rows + (count - 1)
        st.pointee.previousAcceleration = last.pointee.acceleration
        st.pointee.previousRotationRate = last.pointee.rotationRate
        st.pointee.previousMagneticField = last.pointee.magneticField
        if st.pointee.position - st.pointee.releasedUpTo >= 1 << 26, mapping != nil { releaseConsumedMapping() }
        return count
    }

    // MARK: - Rows

    /// Fills `sample` with the next good row; false at the end of the file.
    private func nextRow(_ sample: inout MotionSample) throws -> Bool {
        let st = state
        while true {
            // Fast path: a complete, well-formed row straight from the buffer (no line search).
            let buffer = UnsafePointer(st.pointee.bytes)
            let position = st.pointee.position
            let filled = st.pointee.filled
            if position < filled {
                let start = buffer + position
                let limit = buffer + filled
                if let fieldsEnd = parseShortFields(start, limit) ?? (commentRowPrefixes.isEmpty || !isCommentRow(start, limit) ? parseFields(start, limit) : nil) {
                    var p = fieldsEnd
                    if p < limit, p.pointee == 13 { p += 1 }
                    if p < limit, p.pointee == 10 {
                        let next = p + 1 - buffer
                        st.pointee.position = next
                        st.pointee.lineNumber += 1
                        if next - st.pointee.releasedUpTo >= 1 << 26, mapping != nil { releaseConsumedMapping() }
                        if try deliver(&sample) { return true }
                        continue
                    }
                }
            }
            // Slow path: one whole line (refills the buffer; blank, unterminated and bad lines).
            guard let (start, end) = try nextLine() else { break }
            if start == end {
                try blankLines()
                continue
            }
            if !commentRowPrefixes.isEmpty && isCommentRow(start, end) {
                storedSummary.commentLines += 1
                continue
            }
            guard parseFields(start, end) == end else {
                if try parseWithHeldSensors(start, end) {
                    if try deliver(&sample) { return true }
                    continue
                }
                try diagnose(start, end)
                st.pointee.dataRows += 1
                continue
            }
            if try deliver(&sample) { return true }
        }
        if !st.pointee.finished {
            st.pointee.finished = true
            if st.pointee.rowsDelivered == 0 && storedSummary.rowsDropped == 0 {
                try problem(.noData, line: 0, column: 0, message: "no data rows after the header", isError: false)
            }
        }
        return false
    }

    /// A blank line (just read) and the blank lines that follow it in the buffer: each is an
    /// issue (kept), but once the stored issues are full (and no `onIssue` is set) the rest of
    /// the run is only counted, so a long run of blank lines reads at the parser's speed.
    private func blankLines() throws {
        let st = state
        let first = st.pointee.lineNumber
        let buffer = st.pointee.bytes
        let filled = st.pointee.filled
        var p = st.pointee.position
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
        st.pointee.position = p
        st.pointee.lineNumber += more
        if p - st.pointee.releasedUpTo >= 1 << 26, mapping != nil { releaseConsumedMapping() }
        for n in 0 ... more {
            if onIssue == nil && issues.count >= options.maximumStoredIssues {
                storedSummary.issueCounts[.blankLine, default: 0] += more + 1 - n
                break
            }
            try problem(.blankLine, line: first + n, column: 0, message: "blank line", isError: false)
        }
    }

    /// Checks and converts the parsed row; remembers it for the next row's checks.
    @inline(__always)
    private func deliver(_ sample: inout MotionSample) throws -> Bool {
        let st = state
        let assembled = try assemble(&sample)
        st.pointee.dataRows += 1
        guard assembled else { return false }
        st.pointee.hasPrevious = true
        st.pointee.previousTime = sample.time
        st.pointee.previousAcceleration = sample.acceleration
        st.pointee.previousRotationRate = sample.rotationRate
        st.pointee.previousMagneticField = sample.magneticField
        st.pointee.rowsDelivered += 1
        return true
    }

    /// Parses the fields of one row into `values`, reading no further than `limit`. Returns the
    /// position after the last field (and any spaces after it), or nil on a syntax problem (which
    /// the slow path diagnoses on the whole line).
    @inline(__always)
    private func parseFields(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var p = start
        let last = columnCount - 1
        for c in 0...last {
            guard let q = parseField(p, limit, column: c, into: values) else { return nil }
            p = q
            if c < last {
                guard p < limit, p.pointee == 44 else { return nil }
                p += 1
            }
        }
        return p
    }

    /// The quickest parse: every field in the common short form (`DecimalParser.parseShort`),
    /// comma-separated, no spaces, no skipped columns. Nil when anything differs (then
    /// `parseFields` handles the row).
    @inline(__always)
    private func parseShortFields(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard !hasSkippedColumns else { return nil }
        let last = columnCount - 1
        let parser = self.parser
        let row = values
        let powers = divisors
        let widths = fractionDigits
        if state.pointee.fixedFractions {
            // Each column as wide as in the previous row; the row must end right after the last.
            // Four fields at a time go straight from registers into one SIMD division (a vector
            // load of four separately stored values would wait for the stores to retire).
            var p = start
            @inline(__always) func field(_ c: Int) -> (mantissa: Double, divisor: Double)? {
                var mantissa = 0.0, divisor = 1.0
                guard limit - p >= 17,
                      let q = parser.parseFixedFractionMantissa(p, fractionDigits: widths[c], &mantissa, &divisor) else { return nil }
                p = q
                if c < last {
                    guard p.pointee == 44 else { return nil }
                    p += 1
                } else {
                    guard p.pointee == 10 || p.pointee == 13 else { return nil }
                }
                return (mantissa, divisor)
            }
            var c = 0
            var complete = true
            while c <= last {
                guard let f0 = field(c) else { complete = false; break }
                var mantissas = SIMD4(f0.mantissa, 0, 0, 0), divisors = SIMD4(f0.divisor, 1, 1, 1)
                if c + 1 <= last {
                    guard let f = field(c + 1) else { complete = false; break }
                    mantissas[1] = f.mantissa; divisors[1] = f.divisor
                }
                if c + 2 <= last {
                    guard let f = field(c + 2) else { complete = false; break }
                    mantissas[2] = f.mantissa; divisors[2] = f.divisor
                }
                if c + 3 <= last {
                    guard let f = field(c + 3) else { complete = false; break }
                    mantissas[3] = f.mantissa; divisors[3] = f.divisor
                }
                UnsafeMutableRawPointer(row + c).storeBytes(of: mantissas / divisors, as: SIMD4<Double>.self)
                c += 4
            }
            if complete { return p }
        }
        // Any short form; learns the fraction widths for the next rows.
        var p = start
        var fixed = true
        for c in 0...last {
            guard limit - p >= 17, let q = parser.parseShortMantissa(p, &row[c], &powers[c], fractionDigits: &widths[c]) else {
                state.pointee.fixedFractions = false
                return nil
            }
            fixed = fixed && widths[c] > 0
            p = q
            if c < last {
                guard p.pointee == 44 else {
                    state.pointee.fixedFractions = false
                    return nil
                }
                p += 1
            }
        }
        state.pointee.fixedFractions = fixed
        // One correctly rounded division per value, four lanes at a time (Clinger's fast path:
        // mantissa < 2⁵³ and divisor ≤ 10⁷ are exact, so each quotient is the exact value rounded).
        let rawRow = UnsafeMutableRawPointer(row), rawPowers = UnsafeRawPointer(powers)
        var offset = 0
        let end = columnCount &* 8
        while offset < end {
            let quotient = rawRow.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
                / rawPowers.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
            rawRow.storeBytes(of: quotient, toByteOffset: offset, as: SIMD4<Double>.self)
            offset &+= 32
        }
        return p
    }

    /// One field (with spaces around it) into `row[column]`; returns the position after it.
    @inline(__always)
    private func parseField(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>, column c: Int,
                            into row: UnsafeMutablePointer<Double>) -> UnsafePointer<UInt8>? {
        var p = start
        while p < limit, p.pointee == 32 || p.pointee == 9 { p += 1 }
        if skipColumn[c] {
            while p < limit, p.pointee != 44, p.pointee != 10, p.pointee != 13, p.pointee != 0 { p += 1 }
            return p
        }
        guard let q = parser.parse(p, limit, &row[c]) else { return nil }
        p = q
        while p < limit, p.pointee == 32 || p.pointee == 9 { p += 1 }
        return p
    }

    /// Builds a sample from `values`, applying the value and time checks. False when the row was
    /// dropped (lenient mode).
    @inline(__always)
    private func assemble(_ sample: inout MotionSample) throws -> Bool {
        let v = values
        var time = timeColumn >= 0 ? (v[timeColumn] + state.pointee.counterOffset) * timeScale : Double(state.pointee.dataRows) / (rowRate ?? 1)
        if let modulus = counterModulus, state.pointee.hasPrevious, time < state.pointee.previousTime - 0.5 * modulus * timeScale {
            // The counter wrapped (65535 → 0): count the wrap, so time keeps increasing.
            state.pointee.counterOffset += modulus
            time = (v[timeColumn] + state.pointee.counterOffset) * timeScale
        }
        var check = time
        sample.time = time
        if let c = accelerationColumns {
            sample.acceleration = SIMD3(v[c.x], v[c.y], v[c.z]) * accelerationScales
            if let d = accelerationComponentColumns { sample.acceleration += SIMD3(v[d.x], v[d.y], v[d.z]) * accelerationComponentScales }
            check += sample.acceleration.sum()
        }
        if let c = rotationRateColumns {
            sample.rotationRate = SIMD3(v[c.x], v[c.y], v[c.z]) * rotationRateScales
            check += sample.rotationRate.sum()
        }
        if let c = magneticFieldColumns {
            let m = SIMD3(v[c.x], v[c.y], v[c.z]) * magneticFieldScales
            sample.magneticField = m
            check += m.sum()
        }
        if let c = truthColumns {
            let q = Quaternion(w: v[c[0]], x: v[c[1]], y: v[c[2]], z: v[c[3]])
            if q.isFinite {
                sample.truth = q
            } else {
                sample.truth = nil
                storedSummary.rowsWithoutTruth += 1
            }
        }
        if let c = movementColumn {
            guard v[c].isFinite else {
                try problem(.nonFinite, line: state.pointee.lineNumber, column: c + 1,
                            message: "non-finite value in \(schema.columns[c].name)", isError: true)
                return false
            }
            sample.movement = v[c] != 0
        }
        if !check.isFinite, try !repairNonFinite(&sample) { return false }
        return try checkTime(sample.time)
    }

    /// The fields of a line (start and end of each), split at every comma.
    private static func fields(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> [(UnsafePointer<UInt8>, UnsafePointer<UInt8>)] {
        var fields: [(UnsafePointer<UInt8>, UnsafePointer<UInt8>)] = []
        var fieldStart = start
        var p = start
        while p < end {
            if p.pointee == 44 { fields.append((fieldStart, p)); fieldStart = p + 1 }
            p += 1
        }
        fields.append((fieldStart, end))
        return fields
    }

    /// A row whose only problem is that every field of one or more sensors is empty (a multi-rate
    /// log: the slower sensor had no new reading): parses the other fields into `values`, marks
    /// those sensors in `heldSensors` (their previous values are held by `repairNonFinite`, in
    /// strict reading too) and returns true. False for anything else (the row is then diagnosed),
    /// and for an accelerometer or gyroscope empty in the first data row (nothing to hold yet); a
    /// magnetometer empty before its first reading gives samples without one (`nil`).
    @inline(never)
    private func parseWithHeldSensors(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws -> Bool {
        let fields = Self.fields(start, end)
        guard fields.count == columnCount else { return false }
        var empty = Set<Int>()
        for (c, field) in fields.enumerated() where !skipColumn[c] {
            let trimmed = String(decoding: UnsafeBufferPointer(start: field.0, count: field.1 - field.0), as: UTF8.self).trimmingSpaces()
            if trimmed.isEmpty { empty.insert(c); values[c] = .nan; continue }
            guard let value = DecimalParser.parse(trimmed) else { return false }
            values[c] = value
        }
        guard !empty.isEmpty else { return false }
        var mask: UInt8 = 0
        var covered = Set<Int>()
        let components = accelerationComponentColumns.map { [$0.x, $0.y, $0.z] } ?? []
        for (sensor, group) in [accelerationColumns, rotationRateColumns, magneticFieldColumns].enumerated() {
            guard let group else { continue }
            let columns = [group.x, group.y, group.z] + (sensor == 0 ? components : [])
            let missing = columns.filter { empty.contains($0) }.count
            if missing == columns.count { mask |= 1 << sensor; covered.formUnion(columns) } else if missing > 0 { return false }
        }
        guard mask != 0, empty.isSubset(of: covered), state.pointee.hasPrevious || mask == 4 else { return false }
        heldSensors = mask
        return true
    }

    /// Handles NaN/Inf in time or sensor columns: strict throws; lenient holds the previous row's
    /// value for the affected sensor (repaired) or drops the row when there is none (or the time is bad).
    /// Sensors in `heldSensors` (empty in a multi-rate row) hold their previous value first.
    @inline(never)
    private func repairNonFinite(_ sample: inout MotionSample) throws -> Bool {
        let held = heldSensors
        heldSensors = 0
        if held != 0 {
            var names: [String] = []
            if held & 1 != 0 { sample.acceleration = state.pointee.previousAcceleration; names.append("accelerometer") }
            if held & 2 != 0 { sample.rotationRate = state.pointee.previousRotationRate; names.append("gyroscope") }
            if held & 4 != 0 { sample.magneticField = state.pointee.hasPrevious ? state.pointee.previousMagneticField : nil; names.append("magnetometer") }
            // Normal in a multi-rate log: every such row is counted, only the first is stored (so
            // they never crowd real problems out of `issues`).
            if storedSummary.issueCounts[.heldSensor, default: 0] > 0 {
                storedSummary.issueCounts[.heldSensor, default: 0] += 1
            } else {
                record(RecordingIssue(kind: .heldSensor, action: .kept,
                                      location: RecordingError(file: path, line: state.pointee.lineNumber, column: 0,
                                                               message: "no new \(names.joined(separator: " or ")) reading (empty fields): held the previous row's value")))
            }
        }
        var bad: [(column: Int, sensor: Int)] = []
        if timeColumn >= 0, !values[timeColumn].isFinite { bad.append((timeColumn, -1)) }
        for (sensor, columns) in [accelerationColumns, rotationRateColumns, magneticFieldColumns].enumerated() where held & (1 << sensor) == 0 {
            guard let c = columns else { continue }
            for axis in 0..<3 where !values[c[axis]].isFinite { bad.append((c[axis], sensor)) }
        }
        if let c = accelerationComponentColumns, held & 1 == 0 {
            for axis in 0..<3 where !values[c[axis]].isFinite { bad.append((c[axis], 0)) }
        }
        guard let first = bad.first else { return true }  // finite values whose sum overflowed, or only held sensors
        let name = schema.columns[first.column].name
        let text = "non-finite value \(values[first.column]) in \(name)"
        if options.strict {
            try problem(.nonFinite, line: state.pointee.lineNumber, column: first.column + 1, message: text, isError: true)
            return false
        }
        let canRepair = first.sensor >= 0 && !bad.contains { $0.sensor < 0 } && state.pointee.hasPrevious
        guard canRepair else {
            try problem(.nonFinite, line: state.pointee.lineNumber, column: first.column + 1,
                        message: text + (first.sensor < 0 ? " (time)" : " (no earlier row to hold)"), isError: true)
            return false
        }
        var sensors = Set<Int>()
        for b in bad { sensors.insert(b.sensor) }
        if sensors.contains(0) { sample.acceleration = state.pointee.previousAcceleration }
        if sensors.contains(1) { sample.rotationRate = state.pointee.previousRotationRate }
        if sensors.contains(2) { sample.magneticField = state.pointee.previousMagneticField }
        storedSummary.rowsRepaired += 1
        record(RecordingIssue(kind: .nonFinite, action: .repaired,
                              location: RecordingError(file: path, line: state.pointee.lineNumber, column: first.column + 1,
                                                       message: text + ": held the previous row's value for that sensor")))
        return true
    }

    /// Time order checks and gap detection. False when the row is dropped.
    @inline(__always)
    private func checkTime(_ time: Double) throws -> Bool {
        let st = state
        guard st.pointee.hasPrevious else { return true }
        let previousTime = st.pointee.previousTime
        let interval = time - previousTime
        if interval > 0 {
            let typical = st.pointee.typicalInterval
            if typical > 0 {
                if interval > 1.5 * typical { try reportGap(interval, line: st.pointee.lineNumber) }
            } else {
                earlyIntervals.append((interval, st.pointee.lineNumber))
            }
            let count = st.pointee.intervalCount
            intervalRing[count & 15] = interval
            st.pointee.intervalCount = count + 1
            if (count + 1) & 63 == 0 { try updateTypicalInterval() }
            return true
        }
        let column = timeColumn + 1
        if interval == 0 {
            try problem(.duplicateTime, line: st.pointee.lineNumber, column: column,
                        message: "timestamp \(time) s repeats the previous row's", isError: false)
            return true
        }
        try problem(.timeBackwards, line: st.pointee.lineNumber, column: column,
                    message: "timestamp \(time) s is earlier than the previous row's \(previousTime) s", isError: true)
        return false
    }

    /// The typical interval is the median of the last 16 positive intervals, refreshed every 64.
    @inline(never)
    private func updateTypicalInterval() throws {
        updateTypicalIntervalQuietly()
        let typicalInterval = state.pointee.typicalInterval
        if !earlyIntervals.isEmpty {
            let early = earlyIntervals
            earlyIntervals = []
            for (interval, line) in early where interval > 1.5 * typicalInterval {
                try reportGap(interval, line: line)
            }
        }
    }

    /// Median of the interval ring into `typicalInterval` (insertion sort of a copy, no allocation).
    @inline(never)
    private func updateTypicalIntervalQuietly() {
        let sorted = intervalRing + 16
        for i in 0..<16 {
            let v = intervalRing[i]
            var j = i
            while j > 0, sorted[j - 1] > v { sorted[j] = sorted[j - 1]; j -= 1 }
            sorted[j] = v
        }
        state.pointee.typicalInterval = 0.5 * (sorted[7] + sorted[8])
    }

    @inline(never)
    private func reportGap(_ interval: Double, line: Int) throws {
        let typicalInterval = state.pointee.typicalInterval
        let missing = Int(saturating: (interval / typicalInterval).rounded()) - 1
        try problem(.gap, line: line, column: timeColumn + 1,
                    message: "gap of \(formatMilliseconds(interval)) ms before this row (typical interval \(formatMilliseconds(typicalInterval)) ms; about \(max(missing, 1)) sample(s) missing)",
                    isError: false)
    }

    // MARK: - Slow path: say exactly what is wrong with a line

    @inline(never)
    private func diagnose(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws {
        let line = state.pointee.lineNumber
        if memchr(start, 0, end - start) != nil {
            throw RecordingError(file: path, line: line, column: 0, message: "binary data (a NUL byte): this is not a CSV text file")
        }
        if end - start > capacity {
            throw RecordingError(file: path, line: line, column: 0,
                                 message: "line is longer than \(capacity) bytes: not a CSV recording (binary data or missing line breaks?)")
        }
        let fields = Self.fields(start, end)
        if fields.count != columnCount {
            let st = state.pointee
            let truncated = !st.lastLineTerminated && st.atEndOfFile && st.position == st.filled && fields.count < columnCount
            let message = "expected \(columnCount) fields, found \(fields.count)"
                + (truncated ? " (truncated last line: the file ends without a line break)" : "")
            try problem(truncated ? .truncatedLastLine : .wrongFieldCount, line: state.pointee.lineNumber,
                        column: fields.count < columnCount ? fields.count + 1 : columnCount + 1,
                        message: message, isError: true)
            return
        }
        for (c, field) in fields.enumerated() where !skipColumn[c] {
            let text = String(decoding: UnsafeBufferPointer(start: field.0, count: field.1 - field.0), as: UTF8.self)
            let trimmed = text.trimmingSpaces()
            if DecimalParser.parse(trimmed) == nil || trimmed.isEmpty {
                let what = trimmed.isEmpty ? "empty field" : "'\(trimmed.prefix(40))' is not a number"
                let st = state.pointee
                let truncated = !st.lastLineTerminated && st.atEndOfFile && st.position == st.filled
                try problem(truncated ? .truncatedLastLine : .notANumber, line: state.pointee.lineNumber, column: c + 1,
                            message: "\(what) (column \(schema.columns[c].name))"
                                + (truncated ? " (truncated last line: the file ends without a line break)" : ""),
                            isError: true)
                return
            }
        }
        // Unreachable in practice (the fast path accepts whatever the field check accepts), but
        // never skip a row silently.
        try problem(.notANumber, line: state.pointee.lineNumber, column: 0, message: "row could not be parsed", isError: true)
    }

    // MARK: - Issues

    /// Records a problem. Errors throw in strict mode and drop the row in lenient mode; warnings keep it.
    private func problem(_ kind: RecordingIssue.Kind, line: Int, column: Int, message: String, isError: Bool) throws {
        let location = RecordingError(file: path, line: line, column: column, message: message)
        if isError {
            if options.strict {
                record(RecordingIssue(kind: kind, action: .stopped, location: location))
                throw location
            }
            storedSummary.rowsDropped += 1
            record(RecordingIssue(kind: kind, action: .dropped, location: location))
        } else {
            record(RecordingIssue(kind: kind, action: .kept, location: location))
        }
    }

    private func record(_ issue: RecordingIssue) {
        storedSummary.issueCounts[issue.kind, default: 0] += 1
        if issues.count < options.maximumStoredIssues { issues.append(issue) }
        onIssue?(issue)
    }

    // MARK: - Bytes and lines

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
        let end = (state.pointee.position / page) * page
        let start = state.pointee.releasedUpTo
        if end > start { _ = madvise(mapping.base + start, end - start, MADV_DONTNEED) }
        state.pointee.releasedUpTo = end
    }

    /// The next line without its line break (and without a trailing carriage return).
    @inline(__always)
    private func nextLine() throws -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>)? {
        let st = state
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
        let kept = state.pointee.filled - state.pointee.position
        state.pointee.discarded += state.pointee.position
        try RecordingReader.refill(input: input, buffer: ownedBuffer, capacity: capacity, path: path,
                                   position: &state.pointee.position, filled: &state.pointee.filled,
                                   atEndOfFile: &state.pointee.atEndOfFile, lineNumber: state.pointee.lineNumber,
                                   carriageReturnLines: state.pointee.carriageReturnLines)
        if state.pointee.translatesRows {
            // The bytes just read (the unread tail before them was translated already).
            CSVDialect.translate(ownedBuffer + kept, count: state.pointee.filled - kept,
                                 delimiter: state.pointee.delimiter, decimalComma: state.pointee.decimalComma)
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

    /// The next line before the first data row (a comment line or the header), as text; nil at
    /// the end of the file. `lineNumber` is its 1-based number, for messages.
    private static func lineBeforeData(input: ReaderInput, buffer: UnsafeMutablePointer<UInt8>, capacity: Int, path: String,
                                       position: inout Int, filled: inout Int, atEndOfFile: inout Bool,
                                       carriageReturnLines: inout Bool, writable: Bool, lineNumber: Int) throws -> (String, Int)? {
        while true {
            if !carriageReturnLines, writable {
                // Undecided (a carriage return is the last byte read) counts as a carriage-return
                // line end once the buffer is full, since the header line could not be read anyway.
                let available = filled - position
                let lineEnd = carriageReturnLineEnd(buffer + position, count: available)
                if lineEnd == true || (lineEnd == nil && available >= capacity && buffer[filled - 1] == 13) {
                    carriageReturnLines = true
                    translateCarriageReturns(buffer + position, count: available)
                }
            }
            if let found = memchr(buffer + position, 10, min(filled - position, capacity)) {
                let end = found.assumingMemoryBound(to: UInt8.self)
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: end - (buffer + position))
                let start = position
                position = end - buffer + 1
                return (try lineText(bytes, path: path, line: lineNumber), start)
            }
            if atEndOfFile {
                if filled == position { return nil }
                if filled - position > capacity {
                    throw RecordingError(file: path, line: lineNumber, column: 0,
                                         message: "line is longer than \(capacity) bytes: not a CSV recording (binary data or missing line breaks?)")
                }
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: filled - position)
                let start = position
                position = filled
                return (try lineText(bytes, path: path, line: lineNumber), start)
            }
            try refill(input: input, buffer: buffer, capacity: capacity, path: path,
                       position: &position, filled: &filled, atEndOfFile: &atEndOfFile, lineNumber: lineNumber - 1,
                       carriageReturnLines: carriageReturnLines)
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

    private static func schema(headerLine: String, line: Int, dialect: CSVDialect, path: String, options: ReadOptions,
                               issues: inout [RecordingIssue]) throws -> RecordingSchema {
        let trimmed = headerLine.trimmingSpaces()
        if trimmed.isEmpty {
            throw RecordingError(file: path, line: line, column: 0, message: "empty header line (the first line must name the columns)")
        }
        let cells = CSVDialect.cells(of: headerLine, delimiter: dialect.delimiter)
        if let spec = options.columns {
            return try spec.schema(header: dialect.headerless ? nil : cells, columnCount: cells.count, file: path,
                                   line: dialect.headerless ? line + 1 : line, sampleRate: options.sampleRate)
        }
        if ColumnSpec.isDataRow(CSVDialect.cells(of: dialect.decimalComma ? String(headerLine.map { $0 == "," ? "." : $0 }) : headerLine,
                                                 delimiter: dialect.delimiter)) {
            throw RecordingError(file: path, line: line, column: 0,
                                 message: "the first line is numbers, not a header: for a file without a header line give its columns by number, e.g. --columns t=1:s,acc=2,3,4:g (units: see docs/recordings.md), and --skip-lines N for lines before the data")
        }
        return try HeaderMapping.schema(header: cells, file: path, line: line, sampleRate: options.sampleRate,
                                        counterRate: dialect.updateRateHz ?? options.sampleRate, issues: &issues)
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
