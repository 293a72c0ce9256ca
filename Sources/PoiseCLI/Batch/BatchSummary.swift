import Foundation
import PoiseRecording

/// One value of the summary table.
enum BatchCell: Equatable, Sendable {
    case integer(Int)
    case number(Double)
    case text(String)

    /// The value as JSON text: shortest round-trip decimals (non-finite numbers: null).
    var jsonText: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): value.isFinite ? String(value) : "null"
        case .text(let value):
            String(decoding: (try? BatchCell.encoder.encode(value)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// The CSV field: shortest round-trip decimals (read back bit for bit), text quoted when it
    /// holds a comma, quote or line break; non-finite numbers are left empty.
    var csv: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): value.isFinite ? String(value) : ""
        case .text(let value): BatchCell.quoted(value)
        }
    }

    static func quoted(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Columns that hold counts.
    static let integerColumns: Set<String> = ["rows", "scored_samples"]
}

/// A JSON value as `JSONDecoder` reads it (numbers exactly as printed).
enum BatchJSONValue: Decodable {
    case null, flag(Bool), number(Double), text(String), list([BatchJSONValue]), object([String: BatchJSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .flag(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .text(value) }
        else if let value = try? container.decode([BatchJSONValue].self) { self = .list(value) }
        else { self = .object(try container.decode([String: BatchJSONValue].self)) }
    }

    /// The summary cell of `column` (nil for null and anything that is no number or text).
    func cell(column: String) -> BatchCell? {
        switch self {
        case .number(let value): BatchCell.integerColumns.contains(column) ? .integer(Int(value)) : .number(value)
        case .text(let value): .text(value)
        default: nil
        }
    }
}

/// One input's line of the summary table.
struct BatchRow: Sendable {
    /// What happened to the input.
    enum Status: String, Sendable {
        /// Processed; the output was written.
        case ok
        /// Not processed: its error says why (bad data, unreadable, deleted, crashed worker…).
        case failed
        /// Not processed: the output is newer than the input (a rerun), or the file is not a
        /// recording format (the error says which).
        case skipped
        /// Not finished: the batch was stopped (Ctrl-C, SIGTERM, a full disk) before or while
        /// it ran. A rerun does it.
        case interrupted
        /// Only in `--plan`: would be processed.
        case pending
    }

    var input: String
    var output: String
    var status: Status
    var error = ""
    var seconds: Double?
    /// `rows` and the command's headline columns.
    var cells: [String: BatchCell] = [:]
}

/// The summary table of a batch, written as CSV and JSON (an array of one object per input, the
/// same columns), both read directly by `pandas.read_csv` / `pandas.read_json`.
///
/// Columns: `input` (the path as found), `output`, `status` (ok, failed, skipped, interrupted),
/// `error` (why it failed or was skipped; empty otherwise), `seconds` (wall time of its worker),
/// `rows` (rows read), then the command's headline numbers (`BatchKind.headlineColumns`).
struct BatchSummary {
    var kind: BatchKind
    var rows: [BatchRow]

    var columns: [String] { ["input", "output", "status", "error", "seconds", "rows"] + kind.headlineColumns }

    func record(_ row: BatchRow) -> [String: BatchCell] {
        var cells = row.cells
        cells["input"] = .text(row.input)
        cells["output"] = .text(row.output)
        cells["status"] = .text(row.status.rawValue)
        cells["error"] = .text(row.error)
        if let seconds = row.seconds { cells["seconds"] = .number((seconds * 1000).rounded() / 1000) }
        return cells
    }

    var csv: String {
        var text = columns.joined(separator: ",") + "\n"
        for row in rows {
            let cells = record(row)
            text += columns.map { cells[$0]?.csv ?? "" }.joined(separator: ",") + "\n"
        }
        return text
    }

    /// The JSON array, each object's keys in the order of `columns`.
    func json() -> String {
        let names = columns.map { BatchCell.text($0).jsonText }
        let objects = rows.map { row in
            let cells = record(row)
            return "  {" + zip(columns, names).map { "\($1): " + (cells[$0]?.jsonText ?? "null") }.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + (objects.isEmpty ? "" : "\n") + "]\n"
    }

    /// Writes `PREFIX.csv` and `PREFIX.json` (each to a temporary file, then renamed).
    func write(prefix: String) throws {
        for (path, text) in [(prefix + ".csv", csv), (prefix + ".json", json())] {
            let file = try OutputFile(path: path)
            file.append(text)
            try file.finish()
        }
    }

    /// The rows of an earlier summary JSON by input (for the headline numbers of inputs a rerun
    /// skips); empty when there is none or it cannot be read.
    static func previous(prefix: String) -> [String: [String: BatchCell]] {
        guard prefix != "-", let data = FileManager.default.contents(atPath: prefix + ".json"),
              let objects = try? JSONDecoder().decode([[String: BatchJSONValue]].self, from: data) else { return [:] }
        var rows: [String: [String: BatchCell]] = [:]
        for object in objects {
            guard case .text(let input)? = object["input"], case .text(let status)? = object["status"],
                  status == BatchRow.Status.ok.rawValue || status == BatchRow.Status.skipped.rawValue else { continue }
            rows[input] = Dictionary(uniqueKeysWithValues: object.compactMap { key, value in value.cell(column: key).map { (key, $0) } })
        }
        return rows
    }
}
