/// Reads what comes before a CSV recording's first data row: skipped lines, comment lines, a
/// byte order mark and the header. Decides the dialect (`CSVDialect`: delimiter, decimal
/// separator, no header at all) and maps the header to a `RecordingSchema`.
enum CSVHeaderReader {
    /// What the lines before the data say.
    struct Result {
        var schema: RecordingSchema
        var dialect: CSVDialect
        /// Problems in the header that do not stop the read (lenient column mapping).
        var issues: [RecordingIssue]
    }

    /// Reads from `source` up to the first data row, leaving its cursor there (at the header line
    /// itself for a file without one) and translating the rows of another dialect from there on.
    ///
    /// - Throws: `RecordingError` for a file with no header line, a header that cannot be mapped,
    ///   bad `--skip-lines` / `--comment` options, or a dialect that cannot be read through the
    ///   mapping the source chose.
    static func read(_ source: CSVByteSource, options: ReadOptions) throws -> Result {
        let path = source.path
        let cursor = source.cursor
        var headerIssues: [RecordingIssue] = []
        var dialect = CSVDialect()
        guard options.skipLines >= 0 else {
            throw RecordingError(file: path, line: 0, column: 0, message: "--skip-lines \(options.skipLines): must be 0 or more")
        }
        for prefix in options.commentPrefixes {
            if let problem = CSVDialect.commentPrefixProblem(prefix) {
                throw RecordingError(file: path, line: 0, column: 0, message: "--comment: \(problem)")
            }
        }
        // Skipped lines, comment lines, then the header.
        var comments: [String] = []
        var header: String?
        var headerStart = 0
        while let (line, start) = try source.lineBeforeData(lineNumber: cursor.pointee.lineNumber + 1) {
            cursor.pointee.lineNumber += 1
            var text = line
            headerStart = start
            if cursor.pointee.lineNumber == 1, text.unicodeScalars.first == "\u{FEFF}" {
                dialect.byteOrderMark = true
                text = String(text.unicodeScalars.dropFirst())
                headerStart += 3
            }
            if dialect.skippedLines < options.skipLines {
                dialect.skippedLines += 1
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
            if options.skipLines > 0 && dialect.skippedLines + comments.count == cursor.pointee.lineNumber {
                throw RecordingError(file: path, line: 0, column: 0,
                                     message: "the file has \(cursor.pointee.lineNumber) line(s) and --skip-lines \(options.skipLines) skips \(dialect.skippedLines) of them: nothing is left to read")
            }
            throw RecordingError(file: path, line: 0, column: 0,
                                 message: comments.isEmpty ? "empty file (no header line)" : "no header line after \(comments.count) comment line(s)")
        }
        dialect.preambleLines = comments.count
        dialect.commentPrefixes = options.commentPrefixes
        dialect.updateRateHz = comments.lazy.compactMap(CSVDialect.updateRate(inComment:)).first
        var line = cursor.pointee.lineNumber
        let following = UnsafeBufferPointer(start: UnsafePointer(cursor.pointee.bytes + cursor.pointee.position),
                                            count: cursor.pointee.filled - cursor.pointee.position)
        (dialect.delimiter, dialect.decimalComma) = try CSVDialect.resolve(header: header, options: options, file: path,
                                                                          line: line, firstRow: following)
        let probe = dialect.decimalComma ? String(header.map { $0 == "," ? "." : $0 }) : header
        if options.columns != nil, ColumnSpec.isDataRow(CSVDialect.cells(of: probe, delimiter: dialect.delimiter)) {
            // No header: the line is the first data row, read again as one.
            dialect.headerless = true
            cursor.pointee.position = headerStart
            cursor.pointee.lineNumber -= 1
            line = cursor.pointee.lineNumber
        }
        var schema = try Self.schema(headerLine: header, line: line, dialect: dialect, path: path,
                                     options: options, issues: &headerIssues)
        if schema.format == .coreMotion && options.appleAccelerometerSign {
            throw RecordingError(file: path, line: line, column: 0,
                                 message: "the CoreMotion gravity and userAcceleration columns are converted from Apple's sign already: leave out --apple-accelerometer-sign (ReadOptions.appleAccelerometerSign)")
        }
        if dialect.translatesRows {
            guard source.mapping == nil else {
                throw RecordingError(file: path, line: line, column: 0,
                                     message: "this file's dialect (\(dialect.summary)) cannot be read through a memory mapping; read it without memoryMap")
            }
            source.translateRows(delimiter: dialect.delimiter.byte, decimalComma: dialect.decimalComma)
        }
        if let unit = options.timeUnit,
           let index = schema.columns.firstIndex(where: { if case .time = $0.meaning { true } else { false } }) {
            schema.columns[index].meaning = .time(scale: unit.secondsPerUnit)
            schema.columns[index].unit = unit.label
        }
        return Result(schema: schema, dialect: dialect, issues: headerIssues)
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
}
