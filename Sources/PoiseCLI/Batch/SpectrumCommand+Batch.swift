/// `poise batch spectrum`: each input's spectrum JSON (or with `--csv` its CSV table), with the
/// rate in the summary.
extension SpectrumCommand: BatchableCommand {
    static var batchWritesOut: Bool { false }
    static func batchOutputExtension(options: [String]) -> String { options.contains("--csv") ? "csv" : "json" }
    static func batchAddedArguments(options: [String]) -> [String] { options.contains("--csv") ? [] : ["--json"] }
    static var batchHeadlineColumns: [String] { ["sample_rate_hz"] }
    static var batchRowsKey: String? { "samples" }
}
