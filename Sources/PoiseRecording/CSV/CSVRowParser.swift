/// Parses the fields of one CSV row (commas and decimal points: other dialects are translated by
/// `CSVByteSource`) straight from the bytes into `values`, one `Double` per column: no per-row
/// allocation, no `String`s.
///
/// Three paths, quickest first: every field as wide as in the previous row (four fields per
/// SIMD division), any short field (`DecimalParser.parseShort`, learning the widths), and the
/// general one (spaces, skipped columns, long forms). A row none of them takes is diagnosed on
/// the whole line (`RowChecks.diagnose`).
/// A value type over pointers: copies share the same storage; `deallocate()` frees it.
struct CSVRowParser {
    let columnCount: Int
    /// Some columns are ignored (their fields are skipped, not parsed).
    let hasSkippedColumns: Bool
    let skipColumn: UnsafeMutablePointer<Bool>
    /// The last parsed row, one value per column (padded to whole SIMD4 groups).
    let values: UnsafeMutablePointer<Double>
    private let decimal: DecimalParser
    /// The short path's powers of ten, one per column (padding lanes stay 1).
    private let divisors: UnsafeMutablePointer<Double>
    /// Per column, the number of digits after the point in the last row the short path parsed
    /// (1…7), or 0 when that is unknown or varies.
    private let fractionDigits: UnsafeMutablePointer<Int>
    /// Every column's fraction width is known (`fractionDigits`): the short path may expect it.
    private let fixedFractions: UnsafeMutablePointer<Bool>

    init(schema: RecordingSchema) {
        decimal = DecimalParser()
        columnCount = schema.columns.count
        // Padded to whole SIMD4 groups for the short path's vector division.
        let padded = (columnCount + 3) & ~3
        values = .allocate(capacity: padded)
        values.initialize(repeating: 0, count: padded)
        divisors = .allocate(capacity: padded)
        divisors.initialize(repeating: 1, count: padded)
        fractionDigits = .allocate(capacity: columnCount)
        fractionDigits.initialize(repeating: 0, count: columnCount)
        skipColumn = .allocate(capacity: columnCount)
        for (i, column) in schema.columns.enumerated() {
            if case .ignored = column.meaning { skipColumn[i] = true } else { skipColumn[i] = false }
        }
        hasSkippedColumns = schema.columns.contains { if case .ignored = $0.meaning { true } else { false } }
        fixedFractions = .allocate(capacity: 1)
        fixedFractions.initialize(to: false)
    }

    func deallocate() {
        decimal.deallocate()
        values.deallocate()
        divisors.deallocate()
        fractionDigits.deallocate()
        skipColumn.deallocate()
        fixedFractions.deallocate()
    }

    /// Parses the fields of one row into `values`, reading no further than `limit`. Returns the
    /// position after the last field (and any spaces after it), or nil on a syntax problem (which
    /// the slow path diagnoses on the whole line).
    @inline(__always)
    func parseFields(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
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
    func parseShortFields(_ start: UnsafePointer<UInt8>, _ limit: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard !hasSkippedColumns else { return nil }
        let last = columnCount - 1
        let parser = decimal
        let row = values
        let powers = divisors
        let widths = fractionDigits
        if fixedFractions.pointee {
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
                fixedFractions.pointee = false
                return nil
            }
            fixed = fixed && widths[c] > 0
            p = q
            if c < last {
                guard p.pointee == 44 else {
                    fixedFractions.pointee = false
                    return nil
                }
                p += 1
            }
        }
        fixedFractions.pointee = fixed
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
        guard let q = decimal.parse(p, limit, &row[c]) else { return nil }
        p = q
        while p < limit, p.pointee == 32 || p.pointee == 9 { p += 1 }
        return p
    }

    /// The fields of a line (start and end of each), split at every comma.
    static func fields(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> [(UnsafePointer<UInt8>, UnsafePointer<UInt8>)] {
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

    /// Parses a line whose fields may be empty into `values` (NaN for an empty field); returns the
    /// empty columns, or nil when the line has the wrong number of fields or a field that is not
    /// a number.
    @inline(never)
    func parseAllowingEmptyFields(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Set<Int>? {
        let fields = Self.fields(start, end)
        guard fields.count == columnCount else { return nil }
        var empty = Set<Int>()
        for (c, field) in fields.enumerated() where !skipColumn[c] {
            let trimmed = String(decoding: UnsafeBufferPointer(start: field.0, count: field.1 - field.0), as: UTF8.self).trimmingSpaces()
            if trimmed.isEmpty { empty.insert(c); values[c] = .nan; continue }
            guard let value = DecimalParser.parse(trimmed) else { return nil }
            values[c] = value
        }
        return empty
    }
}
