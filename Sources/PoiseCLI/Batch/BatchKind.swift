import ArgumentParser
import Foundation

/// The per-file command `poise batch` runs (`BatchableCommand`), by name.
struct BatchKind: RawRepresentable, CaseIterable, ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The commands batch runs, in the order help lists them.
    static var commands: [any BatchableCommand.Type] {
        [FuseCommand.self, EvaluateCommand.self, InfoCommand.self, SpectrumCommand.self, ReportCommand.self, ConvertCommand.self]
    }

    static var allCases: [BatchKind] { commands.map(BatchKind.init(command:)) }

    /// The command's own parser and its batch settings.
    let command: any BatchableCommand.Type

    init(command: any BatchableCommand.Type) { self.command = command }

    init?(rawValue: String) {
        guard let command = Self.commands.first(where: { Self.name(of: $0) == rawValue }) else { return nil }
        self.command = command
    }

    /// The command's name (`fuse`).
    var rawValue: String { Self.name(of: command) }
    var description: String { rawValue }

    private static func name(of command: any BatchableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command)
    }

    /// The names, `a, b or c`, for help texts.
    static var namesInWords: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// True when the command writes its output file itself (`--out PATH`).
    var writesOutOption: Bool { command.batchWritesOut }

    /// The extension of each output (`--csv` makes spectrum's a CSV table).
    func outputExtension(options: [String]) -> String { command.batchOutputExtension(options: options) }

    /// Arguments batch adds to the command's own: the JSON that carries the headline numbers.
    func addedArguments(options: [String]) -> [String] { command.batchAddedArguments(options: options) }

    /// Options batch owns or adds, refused in the command's options.
    static let reservedOptions: Set<String> = ["--out", "--json"]

    /// Summary columns after `rows`, with their units in the names.
    var headlineColumns: [String] { command.batchHeadlineColumns }

    /// `rows` and the headline columns from the JSON the command printed; empty for other
    /// output. Read with `JSONDecoder`, which gives back the printed doubles exactly.
    func headline(fromJSON data: Data) -> [String: BatchCell] {
        guard let object = try? JSONDecoder().decode([String: BatchJSONValue].self, from: data) else { return [:] }
        var cells: [String: BatchCell] = [:]
        if let rowsKey = command.batchRowsKey, case .number(let rows)? = object[rowsKey] { cells["rows"] = .integer(Int(rows)) }
        for column in headlineColumns {
            guard case .number(let value)? = object[column] else { continue }
            cells[column] = BatchCell.integerColumns.contains(column) ? .integer(Int(value)) : .number(value)
        }
        cells.merge(command.batchCells(fromJSON: object)) { $1 }
        return cells
    }
}
