import Foundation

/// Turns datagrams into CSV lines: CSV passes through (a newline is added when missing); flat
/// JSON objects become rows under a header made from the first object's keys; lines of the
/// "Sensorstream IMU+GPS" app (`SensorStreamLine`: `time, 3, ax, ay, az, 4, gx, gy, gz, 5, mx,
/// my, mz`) become rows under a header made from the first such line's sensors, when the stream
/// starts with one. Anything else is passed on as a line for the CSV reader to judge (and
/// count) — nothing in a datagram is interpreted as anything but values — except lines that
/// cannot be rows at all: a line holding a NUL byte (binary data) and a line that starts with `{`
/// but is not a flat JSON object are left out and counted in `bad`.
public struct DatagramLines: Sendable {
    /// The header made from the first JSON object's keys, once one has arrived.
    public private(set) var header: [String]?
    /// The sensor ids (3, 4, 5) of the first Sensorstream line, when the stream started with one:
    /// every row made from such a line has `1 + 3 × count` fields.
    public private(set) var sensorStreamIds: [Int]?
    /// True once a line went through as CSV (then the stream is CSV, not Sensorstream).
    private var passedCSV = false
    /// Lines left out so far (`binary`, `badJSON`).
    public private(set) var bad = LiveBadInput()

    public init() {}

    /// The CSV lines (each ending in a newline) for one datagram's bytes.
    public mutating func lines(_ datagram: ArraySlice<UInt8>) -> [UInt8] {
        let text = String(decoding: datagram, as: UTF8.self)
        let hasZero = datagram.contains(0)
        var out = ""
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where !line.allSatisfy({ $0 == " " }) {
            if hasZero, line.utf8.contains(0) {
                bad.binary += 1
            } else if line.first == "{" {
                guard let fields = Self.flatObject(line) else { bad.badJSON += 1; continue }
                if header == nil {
                    header = fields.map(\.key)
                    out += header!.joined(separator: ",") + "\n"
                }
                let values = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                out += header!.map { values[$0] ?? "" }.joined(separator: ",") + "\n"
            } else if !passedCSV, header == nil, let sample = SensorStreamLine(line) {
                let ids = sensorStreamIds ?? sample.sensorIds
                if sensorStreamIds == nil {
                    sensorStreamIds = ids
                    out += SensorStreamLine.header(for: ids) + "\n"
                }
                out += sample.row(for: ids) + "\n"
            } else {
                if sensorStreamIds == nil { passedCSV = true }
                out += line + "\n"
            }
        }
        return Array(out.utf8)
    }

    /// The keys and value texts of `{"k":v,…}` with number, `null` or string values, in order;
    /// `nil` when it is not such an object (the line is then passed on and the reader reports it).
    static func flatObject(_ line: Substring) -> [(key: String, value: String)]? {
        var fields: [(key: String, value: String)] = []
        var rest = line.drop { $0 == " " }
        guard rest.first == "{" else { return nil }
        rest = rest.dropFirst()
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            if rest.first == "}" { return fields }
            guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            // A comma in a key would split the header: it becomes a space (the reader then
            // reports the unknown column by that name).
            let key = String(rest[rest.index(after: rest.startIndex) ..< end].map { $0 == "," ? " " : $0 })
            rest = rest[rest.index(after: end)...].drop { $0 == " " }
            guard rest.first == ":" else { return nil }
            rest = rest.dropFirst().drop { $0 == " " }
            let valueEnd = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
            var value = String(rest[..<valueEnd]).trimmingCharacters(in: .whitespaces)
            if value == "null" { value = "" }
            if value.hasPrefix("\"") { value = String(value.dropFirst().dropLast()) }
            fields.append((key, value))
            rest = rest[valueEnd...]
            guard !rest.isEmpty else { return nil }
        }
    }
}
