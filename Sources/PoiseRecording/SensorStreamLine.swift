import Foundation

/// One line of the UDP stream of the Android app "Sensorstream IMU+GPS"
/// (`de.lorenz_fenster.sensorstreamgps`): the app's timestamp in seconds, then for each sensor
/// switched on its id and three values, all separated by commas (blanks around them ignored):
///
/// ```
/// 1234.567, 3, 0.08, 9.75, 0.99, 4, 0.001, -0.002, 0.0005, 5, 21.5, -3.1, -40.2
/// ```
///
/// Ids 3 (accelerometer, m/s², Android's sign: +9.81 on the up axis at rest), 4 (gyroscope,
/// rad/s) and 5 (magnetometer, µT) become Poise columns (`acc_x_mps2…`, `gyr_x_radps…`,
/// `mag_x_uT…`); any other id (1 GPS, 81 orientation and the app's derived sensors) is skipped
/// with its three values. Axes are Android's device axes, which are Poise's.
struct SensorStreamLine {
    /// Sensor ids that become columns, and their column names (x, y, z).
    static let columns: [(id: Int, names: [String])] = [
        (3, ["acc_x_mps2", "acc_y_mps2", "acc_z_mps2"]),
        (4, ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]),
        (5, ["mag_x_uT", "mag_y_uT", "mag_z_uT"]),
    ]
    /// Largest sensor id accepted in a group (the app's ids are small numbers).
    static let largestId = 99

    /// The timestamp text, s.
    var time: String
    /// Per sensor id in the line, its three value texts.
    var values: [Int: [String]]

    /// Reads `line`; `nil` when it is not in this form (a number, then groups of an id 1–99 and
    /// three fields, at least one group a column sensor), so Poise's own CSV and JSON lines are
    /// never taken for it.
    init?(_ line: Substring) {
        // Split at the comma bytes, as the CSV reader does (a comma followed by a combining mark
        // is one Character, which a Character split would not take apart).
        let fields = line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        guard fields.count >= 5, (fields.count - 1) % 4 == 0, Double(fields[0]) != nil else { return nil }
        var values: [Int: [String]] = [:]
        for start in stride(from: 1, to: fields.count, by: 4) {
            guard let id = Int(fields[start]), (1 ... Self.largestId).contains(id), values[id] == nil else { return nil }
            values[id] = Array(fields[start + 1 ... start + 3])
        }
        guard Self.columns.contains(where: { values[$0.id] != nil }) else { return nil }
        time = fields[0]
        self.values = values
    }

    /// The column sensors present in this line, in column order.
    var sensorIds: [Int] { Self.columns.map(\.id).filter { values[$0] != nil } }

    /// The CSV header for `ids` (the first line's `sensorIds`).
    static func header(for ids: [Int]) -> String {
        (["t_s"] + columns.filter { ids.contains($0.id) }.flatMap(\.names)).joined(separator: ",")
    }

    /// The CSV row under the header for `ids`: empty fields for a sensor this line lacks.
    func row(for ids: [Int]) -> String {
        ([time] + Self.columns.filter { ids.contains($0.id) }.flatMap { values[$0.id] ?? ["", "", ""] })
            .joined(separator: ",")
    }
}
