import ArgumentParser
import Foundation

/// The per-file commands `poise batch` runs, what each writes per input and which of its numbers
/// go into the summary table.
enum BatchKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    case fuse, evaluate, info, spectrum, report, convert

    /// The command's own parser (to check its options before any file is processed).
    var command: ParsableCommand.Type {
        switch self {
        case .fuse: FuseCommand.self
        case .evaluate: EvaluateCommand.self
        case .info: InfoCommand.self
        case .spectrum: SpectrumCommand.self
        case .report: ReportCommand.self
        case .convert: ConvertCommand.self
        }
    }

    /// True when the command writes its output file itself (`--out PATH`); otherwise batch keeps
    /// what it prints on standard output as the output file.
    var writesOutOption: Bool { self == .fuse || self == .report || self == .convert }

    /// The extension of each output (`--csv` makes spectrum's a CSV table).
    func outputExtension(options: [String]) -> String {
        switch self {
        case .fuse, .convert: "csv"
        case .evaluate, .info: "json"
        case .spectrum: options.contains("--csv") ? "csv" : "json"
        case .report: "html"
        }
    }

    /// Arguments batch adds to the command's own: the JSON that carries the headline numbers.
    func addedArguments(options: [String]) -> [String] {
        switch self {
        case .fuse, .evaluate, .info: ["--json"]
        case .spectrum: options.contains("--csv") ? [] : ["--json"]
        case .report, .convert: []
        }
    }

    /// Options batch owns or adds, refused in the command's options.
    static let reservedOptions: Set<String> = ["--out", "--json"]

    /// Summary columns after `rows`, with their units in the names.
    var headlineColumns: [String] {
        switch self {
        case .fuse: ["sample_rate_hz"]
        case .evaluate: ["scored_samples", "total_rmse_deg", "heading_rmse_deg", "inclination_rmse_deg"]
        case .info: ["duration_s", "sample_rate_hz", "sensors"]
        case .spectrum: ["sample_rate_hz"]
        case .report, .convert: []
        }
    }

    /// `rows` and the headline columns from the JSON the command printed (fuse, evaluate, info,
    /// spectrum with `--json`); empty for other output. Read with `JSONDecoder`, which gives
    /// back the printed doubles exactly.
    func headline(fromJSON data: Data) -> [String: BatchCell] {
        guard let object = try? JSONDecoder().decode([String: BatchJSONValue].self, from: data) else { return [:] }
        var cells: [String: BatchCell] = [:]
        let rowsKey: String? = switch self {
        case .fuse, .spectrum: "samples"
        case .evaluate, .info: "rows"
        case .report, .convert: nil
        }
        if let rowsKey, case .number(let rows)? = object[rowsKey] { cells["rows"] = .integer(Int(rows)) }
        for column in headlineColumns where column != "sensors" {
            guard case .number(let value)? = object[column] else { continue }
            cells[column] = BatchCell.integerColumns.contains(column) ? .integer(Int(value)) : .number(value)
        }
        if self == .info, case .list(let columns)? = object["columns"] {
            let meanings = Set(columns.compactMap { column -> String? in
                guard case .object(let fields) = column, case .text(let meaning)? = fields["meaning"] else { return nil }
                return meaning.split(separator: ".").first.map(String.init)
            })
            let sensors = [("acceleration", "acc"), ("rotation_rate", "gyr"), ("magnetic_field", "mag"), ("truth", "truth")]
                .filter { meanings.contains($0.0) }.map(\.1)
            cells["sensors"] = .text(sensors.joined(separator: "+"))
        }
        return cells
    }
}
