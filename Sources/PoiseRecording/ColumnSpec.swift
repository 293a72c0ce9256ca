import Poise

/// An explicit column mapping for a CSV recording whose header Poise does not recognise, or that
/// has no header at all (the CLI's `--columns`, `ReadOptions.columns`).
///
/// Grammar: comma-separated assignments `QUANTITY=COLUMN[,COLUMN,COLUMN]:UNIT`, for example
/// `t=time:ns,acc=ax,ay,az:mps2,gyr=gx,gy,gz:dps,mag=mx,my,mz:uT`.
///
/// | quantity | columns | units (→ core unit) |
/// |---|---|---|
/// | `t` time | 1 | `s`, `ms`, `us`, `ns` (→ s) |
/// | `acc` accelerometer, specific force (+1 g up at rest) | 3 (x, y, z) | `g`, `mps2` (→ g) |
/// | `gyr` gyroscope, right-handed | 3 | `dps`, `radps` (→ rad/s) |
/// | `mag` magnetometer | 3 | `uT`, `nT`, `T`, `gauss` (→ µT); `au`: arbitrary units, kept as they are and never labelled µT |
///
/// A column is a header cell (its exact text, without quotes and surrounding spaces) or its
/// 1-based number; a file without a header (its first line after `--skip-lines` is all numbers)
/// can only be referred to by number. Every unit must be written: nothing is guessed. `t` may be
/// left out when the rows are timed by a sample rate (`ReadOptions.sampleRate`); at least one
/// sensor is required. The columns the mapping does not name are ignored. Axes are taken as the
/// file's device axes (`ReadOptions.mount` turns them).
///
/// Syntax errors are `SpecError`s (subject `column mapping`) with a caret under the token;
/// a column the file lacks is a `RecordingError` on the header line that quotes the mapping with
/// the caret and lists the header.
public struct ColumnSpec: Sendable, Equatable, CustomStringConvertible {
    /// A quantity a mapping can assign.
    public enum Quantity: String, Sendable, CaseIterable {
        case time = "t", acceleration = "acc", rotationRate = "gyr", magneticField = "mag"

        /// Columns the quantity takes.
        public var columnCount: Int { self == .time ? 1 : 3 }

        /// Unit spellings, their factor to the core unit, and the label `poise info` shows.
        public var units: [(name: String, scale: Double, label: String)] {
            switch self {
            case .time: TimeUnit.allCases.map { ($0.rawValue, $0.secondsPerUnit, $0.label) }
            case .acceleration: [("g", 1, "g"), ("mps2", 1 / Units.standardGravity, "m/s²")]
            case .rotationRate: [("dps", Units.radiansPerDegree, "°/s"), ("radps", 1, "rad/s")]
            case .magneticField:
                [("uT", 1, "µT"), ("nT", 1e-3, "nT"), ("T", 1e6, "T"), ("gauss", 100, "G"), ("au", 1, ColumnSpec.arbitraryUnitLabel)]
            }
        }
    }

    /// One column reference as written, with its 1-based character column in the mapping.
    public struct Reference: Sendable, Equatable {
        public var text: String
        public var position: Int
    }

    /// One `QUANTITY=COLUMNS:UNIT` assignment.
    public struct Assignment: Sendable, Equatable {
        public var quantity: Quantity
        /// The columns (x, y, z for a sensor).
        public var references: [Reference]
        /// The unit as written (`mps2`), its factor to the core unit and its label (`m/s²`).
        public var unit: String
        public var scale: Double
        public var unitLabel: String
    }

    /// The label of the magnetometer's arbitrary unit (`au`).
    public static let arbitraryUnitLabel = "a.u."

    /// The mapping as written.
    public let text: String
    /// The assignments, in the order written.
    public let assignments: [Assignment]

    public var description: String { text }

    /// Parses a mapping.
    ///
    /// - Throws: `SpecError` (subject `.columns`) at the token that is wrong: an unknown
    ///   quantity, a quantity given twice, the wrong number of columns, an empty column, a
    ///   missing or unknown unit, no sensor at all.
    public init(_ text: String) throws(SpecError) {
        self.text = text
        func fail(_ token: String, _ position: Int, _ message: String) -> SpecError {
            SpecError(.columns, spec: text, token: token, column: position, message: message)
        }
        // Comma-separated tokens with their 1-based character columns.
        var tokens: [(text: String, position: Int)] = []
        var current = "", start = 1, position = 1
        for character in text {
            if character == "," {
                tokens.append((current, start))
                current = ""
                start = position + 1
            } else {
                current.append(character)
            }
            position += 1
        }
        tokens.append((current, start))
        var groups: [(quantity: Quantity, key: (String, Int), references: [Reference])] = []
        for token in tokens {
            if let equals = token.text.firstIndex(of: "=") {
                let key = String(token.text[..<equals]).trimmingSpaces()
                guard let quantity = Quantity(rawValue: key) else {
                    throw fail(key, token.position, "unknown quantity '\(key)' (expected t, acc, gyr or mag)")
                }
                if groups.contains(where: { $0.quantity == quantity }) {
                    throw fail(key, token.position, "\(key) is assigned twice")
                }
                let valueStart = token.position + token.text.distance(from: token.text.startIndex, to: equals) + 1
                groups.append((quantity, (key, token.position), [Reference(text: String(token.text[token.text.index(after: equals)...]), position: valueStart)]))
            } else {
                guard !groups.isEmpty else {
                    throw fail(token.text, token.position, "expected QUANTITY=COLUMN… (t=, acc=, gyr= or mag=) first")
                }
                groups[groups.count - 1].references.append(Reference(text: token.text, position: token.position))
            }
        }
        var assignments: [Assignment] = []
        for group in groups {
            var references = group.references
            let quantity = group.quantity
            guard references.count == quantity.columnCount else {
                let last = references[references.count - 1]
                throw fail(group.key.0, group.key.1, "\(quantity.rawValue) takes \(quantity.columnCount == 1 ? "one column" : "three columns (x, y, z)"), found \(references.count) (ending at '\(last.text)')")
            }
            // The unit follows the last column after a colon.
            let last = references[references.count - 1]
            guard let colon = last.text.lastIndex(of: ":") else {
                throw fail(last.text, last.position, "no unit: write \(quantity.rawValue)=…:UNIT with one of \(quantity.units.map(\.name).joined(separator: ", "))")
            }
            let unitText = String(last.text[last.text.index(after: colon)...]).trimmingSpaces()
            let unitPosition = last.position + last.text.distance(from: last.text.startIndex, to: colon) + 1
            guard let unit = quantity.units.first(where: { $0.name == unitText }) else {
                throw fail(unitText, unitPosition, "unknown unit '\(unitText)' for \(quantity.rawValue) (expected \(quantity.units.map(\.name).joined(separator: ", ")))")
            }
            references[references.count - 1].text = String(last.text[..<colon])
            for (i, reference) in references.enumerated() {
                let trimmed = reference.text.trimmingSpaces()
                if trimmed.isEmpty { throw fail(reference.text, reference.position, "empty column name") }
                if i < references.count - 1, reference.text.contains(":") {
                    throw fail(reference.text, reference.position, "the unit goes after the last column only")
                }
                references[i].text = trimmed
            }
            assignments.append(Assignment(quantity: quantity, references: references, unit: unit.name, scale: unit.scale, unitLabel: unit.label))
        }
        guard assignments.contains(where: { $0.quantity != .time }) else {
            throw fail("", 0, "no sensor: give at least one of acc=…, gyr=…, mag=…")
        }
        self.assignments = assignments
    }

    /// The reason shown for columns the mapping does not name.
    static let notNamedReason = "not named in --columns"

    /// The schema for a file's header (nil: the file has no header and `columnCount` fields per row).
    ///
    /// - Throws: `RecordingError` on `line` when a column is not in the header (or, without a
    ///   header, not a number from 1 to `columnCount`), or one column is used twice; the message
    ///   quotes the mapping with a caret under the reference and lists the header.
    func schema(header: [String]?, columnCount: Int, file: String, line: Int, sampleRate: Double?) throws -> RecordingSchema {
        let names = header.map { $0.map { $0.trimmingSpaces() } }
        func fail(_ reference: Reference, _ message: String) -> RecordingError {
            let listed = names.map { "header: " + $0.map { "'\($0)'" }.joined(separator: ", ") }
                ?? "the file has no header line; its rows have \(columnCount) fields, numbered 1 to \(columnCount)"
            let error = SpecError(.columns, spec: text, token: reference.text, column: reference.position, message: message + " (\(listed))")
            return RecordingError(file: file, line: line, column: 0, message: error.description)
        }
        var columns = (0..<columnCount).map { i in
            ColumnMapping(name: names?[i] ?? "column \(i + 1)", meaning: .ignored(reason: Self.notNamedReason), unit: "")
        }
        var used: [Int: Reference] = [:]
        for assignment in assignments {
            for (axis, reference) in assignment.references.enumerated() {
                let index: Int
                if let names, let found = names.firstIndex(of: reference.text) {
                    index = found
                } else if let number = Int(reference.text), number >= 1, number <= columnCount, reference.text.allSatisfy(\.isNumber) {
                    index = number - 1
                } else if names != nil {
                    throw fail(reference, "no header cell '\(reference.text)'")
                } else {
                    throw fail(reference, "'\(reference.text)' is not a column number from 1 to \(columnCount)")
                }
                if let first = used[index] {
                    throw fail(reference, "column \(index + 1) is already mapped by '\(first.text)'")
                }
                used[index] = reference
                let meaning: ColumnMeaning = switch assignment.quantity {
                case .time: .time(scale: assignment.scale)
                case .acceleration: .acceleration(axis: axis, scale: assignment.scale)
                case .rotationRate: .rotationRate(axis: axis, scale: assignment.scale)
                case .magneticField: .magneticField(axis: axis, scale: assignment.scale)
                }
                columns[index].meaning = meaning
                columns[index].unit = assignment.unitLabel
            }
        }
        if !assignments.contains(where: { $0.quantity == .time }) && sampleRate == nil {
            throw RecordingError(file: file, line: line, column: 0,
                                 message: "column mapping '\(text)' has no time column (t=COLUMN:UNIT): add one, or give the sample rate (--rate HZ / --sample-rate HZ)")
        }
        return RecordingSchema(format: .mapped, columns: columns)
    }

    /// Whether a line is a data row rather than a header: every cell is a number.
    static func isDataRow(_ cells: [String]) -> Bool {
        !cells.isEmpty && cells.allSatisfy { cell in
            let trimmed = cell.trimmingSpaces()
            return !trimmed.isEmpty && DecimalParser.parse(trimmed) != nil
        }
    }
}
