import ArgumentParser

/// A command `poise batch` can run on each input: what it writes per input and which numbers of
/// the JSON it prints go into the summary table.
///
/// A command conforms where it is defined (or in an extension file under `Batch/`) and is listed
/// in `BatchKind.commands`; nothing else in `batch` names it.
protocol BatchableCommand: ParsableCommand {
    /// True when the command writes its output file itself (`--out PATH`); otherwise batch keeps
    /// what it prints on standard output as the output file.
    static var batchWritesOut: Bool { get }
    /// The extension of each output for the command's options (without the dot).
    static func batchOutputExtension(options: [String]) -> String
    /// Arguments batch adds to the command's own: the JSON flag that carries the headline
    /// numbers (none by default).
    static func batchAddedArguments(options: [String]) -> [String]
    /// Summary columns after `rows`, with their units in the names; numbers of the printed JSON
    /// with the same keys fill them (none by default).
    static var batchHeadlineColumns: [String] { get }
    /// The key of the printed JSON whose number is the summary's `rows` (nil by default: no JSON).
    static var batchRowsKey: String? { get }
    /// Summary cells the command derives from its printed JSON beyond the numbers with the
    /// columns' names (none by default).
    static func batchCells(fromJSON object: [String: BatchJSONValue]) -> [String: BatchCell]
}

extension BatchableCommand {
    static func batchAddedArguments(options: [String]) -> [String] { [] }
    static var batchHeadlineColumns: [String] { [] }
    static var batchRowsKey: String? { nil }
    static func batchCells(fromJSON object: [String: BatchJSONValue]) -> [String: BatchCell] { [:] }
}
