import Foundation
import PoiseRecording

/// One value of the summary table.
enum BatchCell: Equatable, Sendable {
    case integer(Int)
    case number(Double)
    case text(String)

    /// The value as JSON sees it (non-finite numbers become null).
    var json: Any {
        switch self {
        case .integer(let value): value
        case .number(let value): value.isFinite ? value : NSNull()
        case .text(let value): value
        }
    }

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

    /// The value of `column` read back from a summary JSON (numbers, text; nil for null).
    init?(json value: Any, column: String) {
        if let text = value as? String { self = .text(text); return }
        guard let number = value as? NSNumber else { return nil }
        self = BatchCell.integerColumns.contains(column) ? .integer(number.intValue) : .number(number.doubleValue)
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
    func json() throws -> String {
        var text = "[\n"
        for (index, row) in rows.enumerated() {
            let cells = record(row)
            let fields = try columns.map { column -> String in
                let value = try JSONSerialization.data(withJSONObject: [cells[column]?.json ?? NSNull()], options: [.withoutEscapingSlashes])
                return "\"\(column)\": " + String(decoding: value.dropFirst().dropLast(), as: UTF8.self)
            }
            text += "  {" + fields.joined(separator: ", ") + "}" + (index + 1 < rows.count ? "," : "") + "\n"
        }
        return text + "]\n"
    }

    /// Writes `PREFIX.csv` and `PREFIX.json` (each to a temporary file, then renamed).
    func write(prefix: String) throws {
        for (path, text) in [(prefix + ".csv", csv), (prefix + ".json", try json())] {
            let file = try OutputFile(path: path)
            file.append(text)
            try file.finish()
        }
    }

    /// The rows of an earlier summary JSON by input (for the headline numbers of inputs a rerun
    /// skips); empty when there is none or it cannot be read.
    static func previous(prefix: String) -> [String: [String: BatchCell]] {
        guard prefix != "-", let data = FileManager.default.contents(atPath: prefix + ".json"),
              let objects = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return [:] }
        var rows: [String: [String: BatchCell]] = [:]
        for object in objects {
            guard let input = object["input"] as? String,
                  ["ok", "skipped"].contains(object["status"] as? String ?? "") else { continue }
            rows[input] = Dictionary(uniqueKeysWithValues: object.compactMap { key, value in BatchCell(json: value, column: key).map { (key, $0) } })
        }
        return rows
    }
}
