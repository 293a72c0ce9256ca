#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// The checks on the rows of a CSV recording, after parsing: time order (repeated and
/// backwards timestamps), gaps against the typical interval, non-finite values (strict: an error;
/// lenient: the previous row's value held, or the row dropped), sensors left empty in a
/// multi-rate log (their previous values held), and the exact diagnosis of a line the parser
/// could not read. Every finding goes to the `ReadIssueLog`.
final class RowChecks {
    /// The previous delivered row and the interval statistics. Behind a pointer so the reader's
    /// hot loop reads and writes it without dynamic exclusivity checks.
    struct History {
        var hasPrevious = false
        var previousTime = 0.0
        var previousAcceleration = SIMD3<Double>.zero
        var previousRotationRate = SIMD3<Double>.zero
        var previousMagneticField: SIMD3<Double>?
        /// Positive intervals seen so far.
        var intervalCount = 0
        /// The median of the last 16 positive intervals (s), refreshed every 64; 0 until then.
        var typicalInterval = 0.0
    }

    let history: UnsafeMutablePointer<History>
    /// The last 16 positive intervals (indexed by `intervalCount & 15`), then 16 of sorting space.
    let intervalRing: UnsafeMutablePointer<Double>
    private let source: CSVByteSource
    private let parser: CSVRowParser
    private let plan: CSVColumnPlan
    private let schema: RecordingSchema
    private let log: ReadIssueLog
    /// The first intervals, checked for gaps once a typical interval is known.
    private var earlyIntervals: [(interval: Double, line: Int)] = []
    /// Sensors (bit 0 accelerometer, 1 gyroscope, 2 magnetometer) whose fields were all empty in
    /// the row being assembled (`holdEmptySensors`); they hold their previous values.
    private var heldSensors: UInt8 = 0

    init(source: CSVByteSource, parser: CSVRowParser, plan: CSVColumnPlan, schema: RecordingSchema, log: ReadIssueLog) {
        self.source = source
        self.parser = parser
        self.plan = plan
        self.schema = schema
        self.log = log
        history = .allocate(capacity: 1)
        history.initialize(to: History())
        intervalRing = .allocate(capacity: 32)  // 16 recent intervals + 16 of sorting space
        intervalRing.initialize(repeating: 0, count: 32)
    }

    deinit {
        history.deallocate()
        intervalRing.deallocate()
    }

    /// The line being checked (1-based), for messages.
    private var lineNumber: Int { source.cursor.pointee.lineNumber }

    /// Remembers a delivered row for the next row's checks and repairs.
    @inline(__always)
    func remember(_ sample: MotionSample) {
        let h = history
        h.pointee.hasPrevious = true
        h.pointee.previousTime = sample.time
        h.pointee.previousAcceleration = sample.acceleration
        h.pointee.previousRotationRate = sample.rotationRate
        h.pointee.previousMagneticField = sample.magneticField
    }

    // MARK: - Held sensors and non-finite values

    /// A row whose only problem is that every field of one or more sensors is empty (a multi-rate
    /// log: the slower sensor had no new reading; `empty` from `CSVRowParser.parseAllowingEmptyFields`):
    /// marks those sensors (their previous values are held by `repairNonFinite`, in strict reading
    /// too) and returns true. False for anything else (the row is then diagnosed), and for an
    /// accelerometer or gyroscope empty in the first data row (nothing to hold yet); a
    /// magnetometer empty before its first reading gives samples without one (`nil`).
    @inline(never)
    func holdEmptySensors(_ empty: Set<Int>) -> Bool {
        guard !empty.isEmpty else { return false }
        var mask: UInt8 = 0
        var covered = Set<Int>()
        let components = plan.accelerationComponentColumns.map { [$0.x, $0.y, $0.z] } ?? []
        for (sensor, group) in [plan.accelerationColumns, plan.rotationRateColumns, plan.magneticFieldColumns].enumerated() {
            guard let group else { continue }
            let columns = [group.x, group.y, group.z] + (sensor == 0 ? components : [])
            let missing = columns.filter { empty.contains($0) }.count
            if missing == columns.count { mask |= 1 << sensor; covered.formUnion(columns) } else if missing > 0 { return false }
        }
        guard mask != 0, empty.isSubset(of: covered), history.pointee.hasPrevious || mask == 4 else { return false }
        heldSensors = mask
        return true
    }

    /// Handles NaN/Inf in time or sensor columns: strict throws; lenient holds the previous row's
    /// value for the affected sensor (repaired) or drops the row when there is none (or the time is bad).
    /// Sensors marked by `holdEmptySensors` hold their previous value first.
    @inline(never)
    func repairNonFinite(_ sample: inout MotionSample) throws -> Bool {
        let h = history
        let values = parser.values
        let held = heldSensors
        heldSensors = 0
        if held != 0 {
            var names: [String] = []
            if held & 1 != 0 { sample.acceleration = h.pointee.previousAcceleration; names.append("accelerometer") }
            if held & 2 != 0 { sample.rotationRate = h.pointee.previousRotationRate; names.append("gyroscope") }
            if held & 4 != 0 { sample.magneticField = h.pointee.hasPrevious ? h.pointee.previousMagneticField : nil; names.append("magnetometer") }
            // Normal in a multi-rate log: every such row is counted, only the first is stored (so
            // they never crowd real problems out of `issues`).
            if log.summary.issueCounts[.heldSensor, default: 0] > 0 {
                log.summary.issueCounts[.heldSensor, default: 0] += 1
            } else {
                log.record(RecordingIssue(kind: .heldSensor, action: .kept,
                                          location: RecordingError(file: log.path, line: lineNumber, column: 0,
                                                                   message: "no new \(names.joined(separator: " or ")) reading (empty fields): held the previous row's value")))
            }
        }
        var bad: [(column: Int, sensor: Int)] = []
        if plan.timeColumn >= 0, !values[plan.timeColumn].isFinite { bad.append((plan.timeColumn, -1)) }
        for (sensor, columns) in [plan.accelerationColumns, plan.rotationRateColumns, plan.magneticFieldColumns].enumerated() where held & (1 << sensor) == 0 {
            guard let c = columns else { continue }
            for axis in 0..<3 where !values[c[axis]].isFinite { bad.append((c[axis], sensor)) }
        }
        if let c = plan.accelerationComponentColumns, held & 1 == 0 {
            for axis in 0..<3 where !values[c[axis]].isFinite { bad.append((c[axis], 0)) }
        }
        guard let first = bad.first else { return true }  // finite values whose sum overflowed, or only held sensors
        let name = schema.columns[first.column].name
        let text = "non-finite value \(values[first.column]) in \(name)"
        if log.strict {
            try log.problem(.nonFinite, line: lineNumber, column: first.column + 1, message: text, isError: true)
            return false
        }
        let canRepair = first.sensor >= 0 && !bad.contains { $0.sensor < 0 } && h.pointee.hasPrevious
        guard canRepair else {
            try log.problem(.nonFinite, line: lineNumber, column: first.column + 1,
                            message: text + (first.sensor < 0 ? " (time)" : " (no earlier row to hold)"), isError: true)
            return false
        }
        var sensors = Set<Int>()
        for b in bad { sensors.insert(b.sensor) }
        if sensors.contains(0) { sample.acceleration = h.pointee.previousAcceleration }
        if sensors.contains(1) { sample.rotationRate = h.pointee.previousRotationRate }
        if sensors.contains(2) { sample.magneticField = h.pointee.previousMagneticField }
        log.summary.rowsRepaired += 1
        log.record(RecordingIssue(kind: .nonFinite, action: .repaired,
                                  location: RecordingError(file: log.path, line: lineNumber, column: first.column + 1,
                                                           message: text + ": held the previous row's value for that sensor")))
        return true
    }

    // MARK: - Time order and gaps

    /// Time order checks and gap detection. False when the row is dropped.
    @inline(__always)
    func checkTime(_ time: Double) throws -> Bool {
        let h = history
        guard h.pointee.hasPrevious else { return true }
        let previousTime = h.pointee.previousTime
        let interval = time - previousTime
        let line = lineNumber
        if interval > 0 {
            let typical = h.pointee.typicalInterval
            if typical > 0 {
                if interval > 1.5 * typical { try reportGap(interval, line: line) }
            } else {
                earlyIntervals.append((interval, line))
            }
            let count = h.pointee.intervalCount
            intervalRing[count & 15] = interval
            h.pointee.intervalCount = count + 1
            if (count + 1) & 63 == 0 { try updateTypicalInterval() }
            return true
        }
        let column = plan.timeColumn + 1
        if interval == 0 {
            try log.problem(.duplicateTime, line: line, column: column,
                            message: "timestamp \(time) s repeats the previous row's", isError: false)
            return true
        }
        try log.problem(.timeBackwards, line: line, column: column,
                        message: "timestamp \(time) s is earlier than the previous row's \(previousTime) s", isError: true)
        return false
    }

    /// The typical interval is the median of the last 16 positive intervals, refreshed every 64;
    /// the first intervals are checked for gaps once it is known.
    @inline(never)
    private func updateTypicalInterval() throws {
        updateTypicalIntervalQuietly()
        let typicalInterval = history.pointee.typicalInterval
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
    func updateTypicalIntervalQuietly() {
        let sorted = intervalRing + 16
        for i in 0..<16 {
            let v = intervalRing[i]
            var j = i
            while j > 0, sorted[j - 1] > v { sorted[j] = sorted[j - 1]; j -= 1 }
            sorted[j] = v
        }
        history.pointee.typicalInterval = 0.5 * (sorted[7] + sorted[8])
    }

    @inline(never)
    private func reportGap(_ interval: Double, line: Int) throws {
        let typicalInterval = history.pointee.typicalInterval
        let missing = Int(saturating: (interval / typicalInterval).rounded()) - 1
        try log.problem(.gap, line: line, column: plan.timeColumn + 1,
                        message: "gap of \(formatMilliseconds(interval)) ms before this row (typical interval \(formatMilliseconds(typicalInterval)) ms; about \(max(missing, 1)) sample(s) missing)",
                        isError: false)
    }

    // MARK: - Say exactly what is wrong with a line

    /// Diagnoses a line none of the parser's paths could read (from `start` to `end`, without its
    /// line break): throws for binary data or an overlong line; otherwise records the first
    /// problem (wrong field count, truncated last line, empty field, not a number) as an error.
    @inline(never)
    func diagnose(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws {
        let line = lineNumber
        let columnCount = parser.columnCount
        if memchr(start, 0, end - start) != nil {
            throw RecordingError(file: log.path, line: line, column: 0, message: "binary data (a NUL byte): this is not a CSV text file")
        }
        if end - start > source.capacity {
            throw RecordingError(file: log.path, line: line, column: 0,
                                 message: "line is longer than \(source.capacity) bytes: not a CSV recording (binary data or missing line breaks?)")
        }
        let fields = CSVRowParser.fields(start, end)
        if fields.count != columnCount {
            let st = source.cursor.pointee
            let truncated = !st.lastLineTerminated && st.atEndOfFile && st.position == st.filled && fields.count < columnCount
            let message = "expected \(columnCount) fields, found \(fields.count)"
                + (truncated ? " (truncated last line: the file ends without a line break)" : "")
            try log.problem(truncated ? .truncatedLastLine : .wrongFieldCount, line: line,
                            column: fields.count < columnCount ? fields.count + 1 : columnCount + 1,
                            message: message, isError: true)
            return
        }
        for (c, field) in fields.enumerated() where !parser.skipColumn[c] {
            let text = String(decoding: UnsafeBufferPointer(start: field.0, count: field.1 - field.0), as: UTF8.self)
            let trimmed = text.trimmingSpaces()
            if DecimalParser.parse(trimmed) == nil || trimmed.isEmpty {
                let what = trimmed.isEmpty ? "empty field" : "'\(trimmed.prefix(40))' is not a number"
                let st = source.cursor.pointee
                let truncated = !st.lastLineTerminated && st.atEndOfFile && st.position == st.filled
                try log.problem(truncated ? .truncatedLastLine : .notANumber, line: line, column: c + 1,
                                message: "\(what) (column \(schema.columns[c].name))"
                                    + (truncated ? " (truncated last line: the file ends without a line break)" : ""),
                                isError: true)
                return
            }
        }
        // Unreachable in practice (the fast path accepts whatever the field check accepts), but
        // never skip a row silently.
        try log.problem(.notANumber, line: line, column: 0, message: "row could not be parsed", isError: true)
    }
}
