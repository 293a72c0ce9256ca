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
    /// The options in effect.
    public let options: ReadOptions
    /// Counts of delivered, dropped and repaired rows and of issues by kind.
    public private(set) var summary = ReadSummary()
    /// The first `options.maximumStoredIssues` issues, in file order.
    public private(set) var issues: [RecordingIssue] = []
    /// Called for every issue as it is found (also beyond the stored ones).
    public var onIssue: ((RecordingIssue) -> Void)?

    // Input.
    private var descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var position = 0
    private var filled = 0
    private var atEndOfFile = false
    /// 1-based number of the line most recently returned by `nextLine()` (header = 1).
    private var lineNumber = 0
    private var lastLineTerminated = true
    private var finished = false

    // Parsing plan.
    private let parser: DecimalParser
    private let values: UnsafeMutablePointer<Double>
    private let skipColumn: UnsafeMutablePointer<Bool>
    private let columnCount: Int
    private let timeColumn: Int
    private let timeScale: Double
    private let accelerationColumns: SIMD3<Int>?
    private let accelerationScales: SIMD3<Double>
    private let rotationRateColumns: SIMD3<Int>?
    private let rotationRateScales: SIMD3<Double>
    private let magneticFieldColumns: SIMD3<Int>?
    private let magneticFieldScales: SIMD3<Double>
    private let truthColumns: SIMD4<Int>?
    private let movementColumn: Int?

    // Row-to-row state.
    private var previous: MotionSample?
    private var intervalRing = [Double](repeating: 0, count: 16)
    private var intervalCount = 0
    private var typicalInterval = 0.0
    private var earlyIntervals: [(interval: Double, line: Int)] = []

    /// Opens `path` and reads its header.
    ///
    /// - Throws: `RecordingError` when the file cannot be opened, is empty, binary, or has a header
    ///   that cannot be mapped (unknown column in strict mode, duplicate or incomplete columns,
    ///   no time column).
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot open the file (\(reason))")
        }
        capacity = max(64, options.bufferSize)
        buffer = .allocate(capacity: capacity)
        parser = DecimalParser()
        var headerIssues: [RecordingIssue] = []
        var schemaResult: RecordingSchema
        do {
            guard let header = try RecordingReader.firstLine(
                descriptor: descriptor, buffer: buffer, capacity: capacity, path: path,
                position: &position, filled: &filled, atEndOfFile: &atEndOfFile) else {
                throw RecordingError(file: path, line: 0, column: 0, message: "empty file (no header line)")
            }
            lineNumber = 1
            schemaResult = try RecordingReader.schema(headerLine: header, path: path, options: options, issues: &headerIssues)
        } catch {
            close(descriptor)
            buffer.deallocate()
            parser.deallocate()
            throw error
        }
        schema = schemaResult
        columnCount = schemaResult.columns.count
        values = .allocate(capacity: columnCount)
        values.initialize(repeating: 0, count: columnCount)
        skipColumn = .allocate(capacity: columnCount)
        var time = (column: 0, scale: 1.0)
        var acc = (columns: SIMD3<Int>(repeating: -1), scales: SIMD3<Double>(repeating: 1))
        var gyr = acc
        var mag = acc
        var truth = SIMD4<Int>(repeating: -1)
        var movement: Int?
        let sign = options.appleAccelerometerSign ? -1.0 : 1.0
        for (i, column) in schemaResult.columns.enumerated() {
            skipColumn[i] = false
            switch column.meaning {
            case .time(let scale): time = (i, scale)
            case .acceleration(let axis, let scale): acc.columns[axis] = i; acc.scales[axis] = sign * scale
            case .rotationRate(let axis, let scale): gyr.columns[axis] = i; gyr.scales[axis] = scale
            case .magneticField(let axis, let scale): mag.columns[axis] = i; mag.scales[axis] = scale
            case .truth(let component): truth[component] = i
            case .movement: movement = i
            case .ignored: skipColumn[i] = true
            }
        }
        timeColumn = time.column
        timeScale = time.scale
        accelerationColumns = schemaResult.hasAccelerometer ? acc.columns : nil
        accelerationScales = acc.scales
        rotationRateColumns = schemaResult.hasGyroscope ? gyr.columns : nil
        rotationRateScales = gyr.scales
        magneticFieldColumns = schemaResult.hasMagnetometer ? mag.columns : nil
        magneticFieldScales = mag.scales
        truthColumns = schemaResult.hasTruth ? truth : nil
        movementColumn = movement
        for issue in headerIssues { record(issue) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        buffer.deallocate()
        parser.deallocate()
        values.deallocate()
        skipColumn.deallocate()
    }

    // MARK: - Public streaming API

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
        var sample = MotionSample(time: 0)
        while count < maximumCount, try nextRow(&sample) {
            samples.append(sample)
            count += 1
        }
        return count
    }

    // MARK: - Rows

    /// Fills `sample` with the next good row; false at the end of the file.
    private func nextRow(_ sample: inout MotionSample) throws -> Bool {
        while let (start, end) = try nextLine() {
            if start == end {
                try problem(.blankLine, line: lineNumber, column: 0, message: "blank line", isError: false)
                continue
            }
            guard parseFields(start, end) else {
                try diagnose(start, end)
                continue
            }
            if try assemble(&sample) {
                previous = sample
                summary.rowsDelivered += 1
                return true
            }
        }
        if !finished {
            finished = true
            if summary.rowsDelivered == 0 && summary.rowsDropped == 0 {
                try problem(.noData, line: 0, column: 0, message: "no data rows after the header", isError: false)
            }
        }
        return false
    }

    /// Parses every field of one line into `values`. False on any syntax problem (diagnosed
    /// separately on the slow path).
    @inline(__always)
    private func parseFields(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
        var p = start
        let parser = self.parser
        let values = self.values
        let last = columnCount - 1
        for c in 0...last {
            while p < end, p.pointee == 32 || p.pointee == 9 { p += 1 }
            if skipColumn[c] {
                while p < end, p.pointee != 44 { p += 1 }
            } else {
                guard let q = parser.parse(p, end, &values[c]) else { return false }
                p = q
                while p < end, p.pointee == 32 || p.pointee == 9 { p += 1 }
            }
            if c < last {
                guard p < end, p.pointee == 44 else { return false }
                p += 1
            }
        }
        return p == end
    }

    /// Builds a sample from `values`, applying the value and time checks. False when the row was
    /// dropped (lenient mode).
    @inline(__always)
    private func assemble(_ sample: inout MotionSample) throws -> Bool {
        let v = values
        let time = v[timeColumn] * timeScale
        var check = time
        sample.time = time
        if let c = accelerationColumns {
            sample.acceleration = SIMD3(v[c.x], v[c.y], v[c.z]) * accelerationScales
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
                summary.rowsWithoutTruth += 1
            }
        }
        if let c = movementColumn {
            guard v[c].isFinite else {
                try problem(.nonFinite, line: lineNumber, column: c + 1,
                            message: "non-finite value in \(schema.columns[c].name)", isError: true)
                return false
            }
            sample.movement = v[c] != 0
        }
        if !check.isFinite, try !repairNonFinite(&sample) { return false }
        return try checkTime(sample.time)
    }

    /// Handles NaN/Inf in time or sensor columns: strict throws; lenient holds the previous row's
    /// value for the affected sensor (repaired) or drops the row when there is none (or the time is bad).
    @inline(never)
    private func repairNonFinite(_ sample: inout MotionSample) throws -> Bool {
        var bad: [(column: Int, sensor: Int)] = []
        if !values[timeColumn].isFinite { bad.append((timeColumn, -1)) }
        for (sensor, columns) in [accelerationColumns, rotationRateColumns, magneticFieldColumns].enumerated() {
            guard let c = columns else { continue }
            for axis in 0..<3 where !values[c[axis]].isFinite { bad.append((c[axis], sensor)) }
        }
        guard let first = bad.first else { return true }  // finite values whose sum overflowed
        let name = schema.columns[first.column].name
        let text = "non-finite value \(values[first.column]) in \(name)"
        if options.strict {
            try problem(.nonFinite, line: lineNumber, column: first.column + 1, message: text, isError: true)
            return false
        }
        let canRepair = first.sensor >= 0 && !bad.contains { $0.sensor < 0 } && previous != nil
        guard canRepair, let previous else {
            try problem(.nonFinite, line: lineNumber, column: first.column + 1,
                        message: text + (first.sensor < 0 ? " (time)" : " (no earlier row to hold)"), isError: true)
            return false
        }
        var sensors = Set<Int>()
        for b in bad { sensors.insert(b.sensor) }
        if sensors.contains(0) { sample.acceleration = previous.acceleration }
        if sensors.contains(1) { sample.rotationRate = previous.rotationRate }
        if sensors.contains(2) { sample.magneticField = previous.magneticField }
        summary.rowsRepaired += 1
        record(RecordingIssue(kind: .nonFinite, action: .repaired,
                              location: RecordingError(file: path, line: lineNumber, column: first.column + 1,
                                                       message: text + ": held the previous row's value for that sensor")))
        return true
    }

    /// Time order checks and gap detection. False when the row is dropped.
    @inline(__always)
    private func checkTime(_ time: Double) throws -> Bool {
        guard let previousTime = previous?.time else { return true }
        let interval = time - previousTime
        if interval > 0 {
            if typicalInterval > 0 {
                if interval > 1.5 * typicalInterval { try reportGap(interval, line: lineNumber) }
            } else {
                earlyIntervals.append((interval, lineNumber))
            }
            intervalRing[intervalCount & 15] = interval
            intervalCount += 1
            if intervalCount & 15 == 0 { try updateTypicalInterval() }
            return true
        }
        let column = timeColumn + 1
        if interval == 0 {
            try problem(.duplicateTime, line: lineNumber, column: column,
                        message: "timestamp \(time) s repeats the previous row's", isError: false)
            return true
        }
        try problem(.timeBackwards, line: lineNumber, column: column,
                    message: "timestamp \(time) s is earlier than the previous row's \(previousTime) s", isError: true)
        return false
    }

    /// The typical interval is the median of the last 16 positive intervals, refreshed every 16.
    @inline(never)
    private func updateTypicalInterval() throws {
        let sorted = intervalRing.sorted()
        typicalInterval = 0.5 * (sorted[7] + sorted[8])
        if !earlyIntervals.isEmpty {
            let early = earlyIntervals
            earlyIntervals = []
            for (interval, line) in early where interval > 1.5 * typicalInterval {
                try reportGap(interval, line: line)
            }
        }
    }

    @inline(never)
    private func reportGap(_ interval: Double, line: Int) throws {
        let missing = Int((interval / typicalInterval).rounded()) - 1
        try problem(.gap, line: line, column: timeColumn + 1,
                    message: "gap of \(formatMilliseconds(interval)) ms before this row (typical interval \(formatMilliseconds(typicalInterval)) ms; about \(max(missing, 1)) sample(s) missing)",
                    isError: false)
    }

    // MARK: - Slow path: say exactly what is wrong with a line

    @inline(never)
    private func diagnose(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws {
        var fields: [(UnsafePointer<UInt8>, UnsafePointer<UInt8>)] = []
        var fieldStart = start
        var p = start
        while p < end {
            if p.pointee == 44 { fields.append((fieldStart, p)); fieldStart = p + 1 }
            p += 1
        }
        fields.append((fieldStart, end))
        if fields.count != columnCount {
            let truncated = !lastLineTerminated && atEndOfFile && position == filled && fields.count < columnCount
            let message = "expected \(columnCount) fields, found \(fields.count)"
                + (truncated ? " (truncated last line: the file ends without a line break)" : "")
            try problem(truncated ? .truncatedLastLine : .wrongFieldCount, line: lineNumber,
                        column: fields.count < columnCount ? fields.count + 1 : columnCount + 1,
                        message: message, isError: true)
            return
        }
        for (c, field) in fields.enumerated() where !skipColumn[c] {
            let text = String(decoding: UnsafeBufferPointer(start: field.0, count: field.1 - field.0), as: UTF8.self)
            let trimmed = text.trimmingSpaces()
            if DecimalParser.parse(trimmed) == nil || trimmed.isEmpty {
                let what = trimmed.isEmpty ? "empty field" : "'\(trimmed.prefix(40))' is not a number"
                let truncated = !lastLineTerminated && atEndOfFile && position == filled
                try problem(truncated ? .truncatedLastLine : .notANumber, line: lineNumber, column: c + 1,
                            message: "\(what) (column \(schema.columns[c].name))"
                                + (truncated ? " (truncated last line: the file ends without a line break)" : ""),
                            isError: true)
                return
            }
        }
        // Unreachable in practice (the fast path accepts whatever the field check accepts), but
        // never skip a row silently.
        try problem(.notANumber, line: lineNumber, column: 0, message: "row could not be parsed", isError: true)
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
            summary.rowsDropped += 1
            record(RecordingIssue(kind: kind, action: .dropped, location: location))
        } else {
            record(RecordingIssue(kind: kind, action: .kept, location: location))
        }
    }

    private func record(_ issue: RecordingIssue) {
        summary.issueCounts[issue.kind, default: 0] += 1
        if issues.count < options.maximumStoredIssues { issues.append(issue) }
        onIssue?(issue)
    }

    // MARK: - Bytes and lines

    /// The next line without its line break (and without a trailing carriage return).
    @inline(__always)
    private func nextLine() throws -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>)? {
        while true {
            if position < filled, let found = memchr(buffer + position, 10, filled - position) {
                let start = UnsafePointer(buffer + position)
                var end = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                position = end - UnsafePointer(buffer) + 1
                lineNumber += 1
                if end > start, end[-1] == 13 { end -= 1 }
                return (start, end)
            }
            if atEndOfFile {
                guard position < filled else { return nil }
                let start = UnsafePointer(buffer + position)
                var end = UnsafePointer(buffer + filled)
                position = filled
                lineNumber += 1
                lastLineTerminated = false
                if end > start, end[-1] == 13 { end -= 1 }
                return (start, end)
            }
            try refill()
        }
    }

    @inline(never)
    private func refill() throws {
        try RecordingReader.refill(descriptor: descriptor, buffer: buffer, capacity: capacity, path: path,
                                   position: &position, filled: &filled, atEndOfFile: &atEndOfFile,
                                   lineNumber: lineNumber)
    }

    /// Moves the unread tail to the front and reads more bytes; rejects binary data and lines
    /// longer than the buffer.
    private static func refill(descriptor: Int32, buffer: UnsafeMutablePointer<UInt8>, capacity: Int, path: String,
                               position: inout Int, filled: inout Int, atEndOfFile: inout Bool, lineNumber: Int) throws {
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
            count = systemRead(descriptor, buffer + filled, capacity - filled)
        } while count < 0 && errno == EINTR
        if count < 0 {
            throw RecordingError(file: path, line: lineNumber + 1, column: 0,
                                 message: "read failed (\(String(cString: strerror(errno))))")
        }
        if count == 0 { atEndOfFile = true; return }
        if let zero = memchr(buffer + filled, 0, count) {
            // Locate the line for the message.
            var line = lineNumber + 1
            var p = buffer + position
            let stop = zero.assumingMemoryBound(to: UInt8.self)
            while p < stop { if p.pointee == 10 { line += 1 }; p += 1 }
            throw RecordingError(file: path, line: line, column: 0,
                                 message: "binary data (a NUL byte): this is not a CSV text file")
        }
        filled += count
    }

    private static func firstLine(descriptor: Int32, buffer: UnsafeMutablePointer<UInt8>, capacity: Int, path: String,
                                  position: inout Int, filled: inout Int, atEndOfFile: inout Bool) throws -> String? {
        while true {
            if let found = memchr(buffer + position, 10, filled - position) {
                let end = found.assumingMemoryBound(to: UInt8.self)
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: end - (buffer + position))
                position = end - buffer + 1
                return try headerText(bytes, path: path)
            }
            if atEndOfFile {
                if filled == position { return nil }
                let bytes = UnsafeBufferPointer(start: UnsafePointer(buffer + position), count: filled - position)
                position = filled
                return try headerText(bytes, path: path)
            }
            try refill(descriptor: descriptor, buffer: buffer, capacity: capacity, path: path,
                       position: &position, filled: &filled, atEndOfFile: &atEndOfFile, lineNumber: 0)
        }
    }

    private static func headerText(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecordingError(file: path, line: 1, column: 0, message: "the header is not UTF-8 text: not a CSV recording")
        }
        return text
    }

    private static func schema(headerLine: String, path: String, options: ReadOptions,
                               issues: inout [RecordingIssue]) throws -> RecordingSchema {
        let trimmed = headerLine.trimmingSpaces()
        if trimmed.isEmpty {
            throw RecordingError(file: path, line: 1, column: 0, message: "empty header line (the first line must name the columns)")
        }
        let cells = headerLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if cells.count == 1, trimmed.contains(";") || trimmed.contains("\t") {
            throw RecordingError(file: path, line: 1, column: 0,
                                 message: "the header has no commas: fields must be separated by commas (found ';' or tab)")
        }
        return try HeaderMapping.schema(header: cells, file: path, strict: options.strict, issues: &issues)
    }
}

/// `read(2)`, named so it does not clash with `RecordingReader.read(into:maximumCount:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Milliseconds with three decimals, for messages.
func formatMilliseconds(_ seconds: Double) -> String {
    let microseconds = (seconds * 1e6).rounded()
    let whole = Int(microseconds / 1000)
    let fraction = Int(abs(microseconds).truncatingRemainder(dividingBy: 1000))
    let padded = String(fraction).count < 3 ? String(repeating: "0", count: 3 - String(fraction).count) + String(fraction) : String(fraction)
    return "\(microseconds < 0 && whole == 0 ? "-" : "")\(whole).\(padded)"
}
