/// `poise batch info`: each input's `info --json`, with its duration, rate and sensors in the
/// summary.
extension InfoCommand: BatchableCommand {
    static var batchWritesOut: Bool { false }
    static func batchOutputExtension(options: [String]) -> String { "json" }
    static func batchAddedArguments(options: [String]) -> [String] { ["--json"] }
    static var batchHeadlineColumns: [String] { ["duration_s", "sample_rate_hz", "sensors"] }
    static var batchRowsKey: String? { "rows" }

    /// `sensors`: the sensors among the columns' meanings, as `acc+gyr+mag+truth`.
    static func batchCells(fromJSON object: [String: BatchJSONValue]) -> [String: BatchCell] {
        guard case .list(let columns)? = object["columns"] else { return [:] }
        let meanings = Set(columns.compactMap { column -> String? in
            guard case .object(let fields) = column, case .text(let meaning)? = fields["meaning"] else { return nil }
            return meaning.split(separator: ".").first.map(String.init)
        })
        let sensors = [("acceleration", "acc"), ("rotation_rate", "gyr"), ("magnetic_field", "mag"), ("truth", "truth")]
            .filter { meanings.contains($0.0) }.map(\.1)
        return ["sensors": .text(sensors.joined(separator: "+"))]
    }
}
