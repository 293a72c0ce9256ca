/// `poise batch report`: each input's HTML report, written by the command itself.
extension ReportCommand: BatchableCommand {
    static var batchWritesOut: Bool { true }
    static func batchOutputExtension(options: [String]) -> String { "html" }
}
