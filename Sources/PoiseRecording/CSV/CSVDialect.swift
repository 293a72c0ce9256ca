/// The separator between a CSV recording's fields.
public enum CSVDelimiter: String, Sendable, CaseIterable, Codable {
    case comma, semicolon, tab

    /// The byte that separates fields.
    public var byte: UInt8 {
        switch self {
        case .comma: 44
        case .semicolon: 59
        case .tab: 9
        }
    }

    var character: Character { Character(Unicode.Scalar(byte)) }
}

/// How a CSV recording's text is written, as the reader found it before and in its header: the
/// field delimiter, the decimal separator, a UTF-8 byte order mark, and comment lines before the
/// header (`//` lines of Xsens MT Manager, `#` lines that are not a header).
///
/// Rows of a file that is not comma-separated with decimal points are translated byte for byte
/// as they are read (delimiter → `,`, decimal comma → `.`), so line and column numbers in
/// messages are the file's, while a quoted field value shows a decimal point.
public struct CSVDialect: Sendable, Equatable, Codable {
    /// The field delimiter.
    public var delimiter: CSVDelimiter
    /// Numbers are written with a decimal comma (`9,81`).
    public var decimalComma: Bool
    /// The file starts with a UTF-8 byte order mark (skipped).
    public var byteOrderMark: Bool
    /// Comment lines before the header (skipped); the header is line `preambleLines + 1`.
    public var preambleLines: Int
    /// The update rate a preamble line announces (`// Update Rate: 100.0Hz`), Hz, or nil.
    public var updateRateHz: Double?
    /// Lines skipped at the start because `ReadOptions.skipLines` said so (before any comment lines).
    public var skippedLines: Int = 0
    /// The file has no header line: its first row (after skipped and comment lines) is data, read
    /// through `ReadOptions.columns` by column number.
    public var headerless: Bool = false
    /// The comment prefixes given besides `//` and `#` (`ReadOptions.commentPrefixes`).
    public var commentPrefixes: [String] = []

    public init(delimiter: CSVDelimiter = .comma, decimalComma: Bool = false, byteOrderMark: Bool = false,
                preambleLines: Int = 0, updateRateHz: Double? = nil) {
        self.delimiter = delimiter
        self.decimalComma = decimalComma
        self.byteOrderMark = byteOrderMark
        self.preambleLines = preambleLines
        self.updateRateHz = updateRateHz
    }

    /// Whether rows are translated before they are parsed (anything but commas and decimal points).
    public var translatesRows: Bool { delimiter != .comma || decimalComma }

    /// A short description for reports: `comma-separated, decimal point, 5 comment lines skipped`.
    public var summary: String {
        var parts = ["\(delimiter.rawValue)-separated", decimalComma ? "decimal comma" : "decimal point"]
        if byteOrderMark { parts.append("UTF-8 byte order mark") }
        if skippedLines > 0 { parts.append("\(skippedLines) line\(skippedLines == 1 ? "" : "s") skipped (--skip-lines)") }
        if preambleLines > 0 { parts.append("\(preambleLines) comment line\(preambleLines == 1 ? "" : "s") before the header") }
        if let rate = updateRateHz { parts.append("update rate \(HeaderMapping.formatRate(rate)) Hz (from the comment lines)") }
        if headerless { parts.append("no header line (columns by number)") }
        if !commentPrefixes.isEmpty { parts.append("comment lines start with " + commentPrefixes.joined(separator: " or ") + " (--comment)") }
        return parts.joined(separator: ", ")
    }

    /// Whether a line before the header is a comment: it starts with `//`, or with `#` and its
    /// first cell is not a known column name (EuRoC's `#timestamp [ns],…` is a header).
    /// A line starting with one of `prefixes` (`ReadOptions.commentPrefixes`) is a comment too.
    static func isComment(_ line: String, prefixes: [String] = []) -> Bool {
        let text = line.trimmingSpaces()
        if text.hasPrefix("//") || prefixes.contains(where: { text.hasPrefix($0) }) { return true }
        guard text.hasPrefix("#") else { return false }
        let first = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\t" }).first.map(String.init) ?? text
        return HeaderMapping.meaning(of: first) == nil
    }

    /// The rate of a `// Update Rate: 100.0Hz` comment line, Hz; nil for any other line.
    static func updateRate(inComment line: String) -> Double? {
        var text = Substring(line.trimmingSpaces())
        while let c = text.first, c == "/" || c == "#" || c == " " { text.removeFirst() }
        let prefix = "update rate:"
        guard text.lowercased().hasPrefix(prefix) else { return nil }
        var value = text.dropFirst(prefix.count).trimmingCharacters(" ")
        if value.lowercased().hasSuffix("hz") { value.removeLast(2) }
        guard let rate = Double(value.trimmingSpaces()), rate.isFinite, rate > 0 else { return nil }
        return rate
    }

    /// Why `prefix` cannot mark comment lines, or nil when it can: it must be non-empty, without
    /// spaces, quotes or line breaks, and must not start like a number (a digit, sign or point),
    /// so that no data row is ever taken for a comment.
    public static func commentPrefixProblem(_ prefix: String) -> String? {
        guard let first = prefix.first else { return "an empty comment prefix" }
        if prefix.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\"" }) {
            return "comment prefix '\(prefix)' contains a space, tab, quote or line break"
        }
        if first.isNumber || "+-.".contains(first) {
            return "comment prefix '\(prefix)' starts like a number, so data rows could be taken for comments"
        }
        return nil
    }

    /// The delimiter of a header line: the most frequent of comma, semicolon and tab outside
    /// double quotes (comma when none occurs or on a tie with comma).
    static func detectDelimiter(header: String) -> CSVDelimiter {
        var counts: [CSVDelimiter: Int] = [:]
        var quoted = false
        for c in header {
            if c == "\"" { quoted.toggle(); continue }
            guard !quoted else { continue }
            for d in CSVDelimiter.allCases where c == d.character { counts[d, default: 0] += 1 }
        }
        let best = CSVDelimiter.allCases.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? .comma
        return counts[best, default: 0] > counts[.comma, default: 0] ? best : .comma
    }

    /// The delimiter and decimal separator for a header: forced by the options, or detected
    /// (a semicolon- or tab-separated file: decimal commas when its first data row `firstRow`
    /// has a comma, decimal points when it has a point, else decimal commas for semicolons;
    /// `options.decimalComma` decides when given).
    ///
    /// - Throws: `RecordingError` for a decimal comma with comma delimiters.
    static func resolve(header: String, options: ReadOptions, file: String, line: Int,
                        firstRow: UnsafeBufferPointer<UInt8>? = nil) throws -> (CSVDelimiter, Bool) {
        let delimiter = options.delimiter ?? detectDelimiter(header: header)
        let shown = delimiter == .comma ? nil : firstRow.flatMap { decimalCommaShown(firstRow: $0) }
        let decimalComma = options.decimalComma ?? shown ?? (delimiter == .semicolon)
        if decimalComma && delimiter == .comma {
            throw RecordingError(file: file, line: line, column: 0,
                                 message: "decimal commas need a semicolon or tab delimiter, but the fields are separated by commas (force one with --delimiter semicolon|tab)")
        }
        return (delimiter, decimalComma)
    }

    /// The cells of a header line split at `delimiter` outside double quotes (quotes are removed
    /// later with the spaces around each name).
    static func cells(of header: String, delimiter: CSVDelimiter) -> [String] {
        var cells: [String] = []
        var current = ""
        var quoted = false
        for c in header {
            if c == "\"" { quoted.toggle() }
            if !quoted && c == delimiter.character {
                cells.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        cells.append(current)
        return cells
    }

    /// The decimal separator the first data row of a semicolon- or tab-separated file shows: a
    /// comma in it means decimal commas (true), else a point means decimal points (false); nil
    /// when it has neither (whole numbers) or there is no row.
    static func decimalCommaShown(firstRow bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let row = bytes.prefix { $0 != 10 && $0 != 13 }
        if row.contains(44) { return true }
        if row.contains(46) { return false }
        return nil
    }

    /// Rewrites row bytes in place to comma-separated text with decimal points.
    static func translate(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, delimiter: UInt8, decimalComma: Bool) {
        for i in 0..<count {
            let b = bytes[i]
            if decimalComma && b == 44 {
                bytes[i] = 46
            } else if b == delimiter {
                bytes[i] = 44
            }
        }
    }
}
