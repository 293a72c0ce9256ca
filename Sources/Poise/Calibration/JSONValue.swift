/// A parsed JSON document (RFC 8259), for reading calibration files without Foundation.
///
/// Objects keep their members in order; numbers are Doubles. Errors name the line and column
/// (1-based, in characters of UTF-8 text) and the byte offset of what is wrong.
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case number(Double)
    case string(String)
    case bool(Bool)
    case null

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.array(x), .array(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// The member `key` of an object (the last when repeated), else nil.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// Parses a whole document.
    ///
    /// - Throws: ``CalibrationError`` "line L, column C (byte B): what" for malformed text, nesting
    ///   deeper than 64 levels or text after the value.
    static func parse(_ text: String) throws(CalibrationError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipBlanks()
        let value = try parser.value(depth: 0)
        parser.skipBlanks()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ what: String) -> CalibrationError {
            var line = 1, column = 1
            var index = 0
            while index < min(position, bytes.count) {
                if bytes[index] == 0x0A { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
            return CalibrationError("line \(line), column \(column) (byte \(position)): \(what)")
        }

        mutating func skipBlanks() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func expect(_ literal: String, _ value: JSONValue) throws(CalibrationError) -> JSONValue {
            let utf8 = Array(literal.utf8)
            guard position + utf8.count <= bytes.count, Array(bytes[position..<(position + utf8.count)]) == utf8 else {
                throw error("expected a JSON value (object, array, number, string, true, false or null)")
            }
            position += utf8.count
            return value
        }

        mutating func value(depth: Int) throws(CalibrationError) -> JSONValue {
            guard depth < 64 else { throw error("nesting deeper than 64 levels") }
            guard let byte = current else { throw error("unexpected end of the text; a value was expected") }
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(String, JSONValue)] = []
                skipBlanks()
                if current == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipBlanks()
                    guard current == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
                    let key = try string()
                    skipBlanks()
                    guard current == UInt8(ascii: ":") else { throw error("expected ':' after the member name \"\(key)\"") }
                    position += 1
                    skipBlanks()
                    members.append((key, try value(depth: depth + 1)))
                    skipBlanks()
                    if current == UInt8(ascii: ",") { position += 1; continue }
                    if current == UInt8(ascii: "}") { position += 1; return .object(members) }
                    throw error("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSONValue] = []
                skipBlanks()
                if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    skipBlanks()
                    elements.append(try value(depth: depth + 1))
                    skipBlanks()
                    if current == UInt8(ascii: ",") { position += 1; continue }
                    if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
                    throw error("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            default: return try number()
            }
        }

        mutating func number() throws(CalibrationError) -> JSONValue {
            let start = position
            while let byte = current, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (byte >= 0x30 && byte <= 0x39) {
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            let digitsFirst = text.first.map { $0 == "-" || $0.isASCII && $0.isNumber } ?? false
            guard !text.isEmpty, digitsFirst, let number = Double(text), number.isFinite else {
                position = start
                throw error(text.isEmpty ? "expected a JSON value (object, array, number, string, true, false or null)"
                                         : "'\(text)' is not a finite JSON number")
            }
            return .number(number)
        }

        mutating func string() throws(CalibrationError) -> String {
            position += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard let byte = current else { throw error("unterminated string") }
                position += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { throw error("unterminated string") }
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard position + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16) else {
                            throw error("\\u must be followed by four hexadecimal digits")
                        }
                        position += 4
                        out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
                    default: throw error("unknown escape '\\\(Character(Unicode.Scalar(escaped)))' in a string")
                    }
                default:
                    guard byte >= 0x20 else { throw error("control character in a string") }
                    out.append(byte)
                }
            }
        }
    }
}
