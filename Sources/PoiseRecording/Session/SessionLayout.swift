/// Which files of a session folder are read, how, and why the others are not (see
/// `SessionReader` for the layouts).
struct SessionLayout {
    /// A file to read: its column mapping (nil: its header is recognised) and what it fills.
    struct Plan {
        var name: String
        var columns: ColumnSpec?
        var slots: [SessionReader.Slot]
        var use: String
    }

    var format: RecordingFormat
    var plans: [Plan]
    var ignored: [(name: String, reason: String)]

    static let sensorLoggerFiles: Set<String> = [
        "Accelerometer.csv", "Gravity.csv", "TotalAcceleration.csv", "Gyroscope.csv", "GyroscopeUncalibrated.csv",
        "Magnetometer.csv", "MagnetometerUncalibrated.csv", "AccelerometerUncalibrated.csv",
    ]

    /// The layout of a folder holding `files`; `firstLine` gives a file's first line (its header),
    /// or nil when it cannot be read.
    ///
    /// - Throws: `RecordingError` for a folder that is no x-IMU3, phyphox or Sensor Logger session.
    init(files: [String], folder: String, firstLine: (String) -> String?) throws {
        let present = Set(files)
        if present.contains("Inertial.csv") {
            self = Self.ximu3(present)
        } else if let phyphox = try Self.phyphox(files, folder: folder, firstLine: firstLine) {
            self = phyphox
        } else if !present.isDisjoint(with: Self.sensorLoggerFiles) {
            self = try Self.sensorLogger(present, folder: folder)
        } else {
            let listed = files.isEmpty ? "it is empty" : "it holds " + files.prefix(20).joined(separator: ", ") + (files.count > 20 ? ", …" : "")
            throw RecordingError(file: folder, line: 0, column: 0,
                                 message: "a folder, but not a session Poise reads (a Sensor Logger export with Accelerometer.csv, Gyroscope.csv, Magnetometer.csv…, a phyphox CSV export whose files start with a 'Time (s)' header, or an x-IMU3 logged session with Inertial.csv); \(listed)")
        }
    }

    private init(format: RecordingFormat, plans: [Plan], ignored: [(name: String, reason: String)]) {
        self.format = format; self.plans = plans; self.ignored = ignored
    }

    /// A mapping known to parse.
    private static func spec(_ text: String) -> ColumnSpec? { try? ColumnSpec(text) }

    static func ximu3(_ present: Set<String>) -> SessionLayout {
        var plans = [Plan(name: "Inertial.csv", columns: nil, slots: [.acceleration, .rotationRate],
                          use: "accelerometer (g) and gyroscope (°/s)")]
        if present.contains("Magnetometer.csv") {
            plans.append(Plan(name: "Magnetometer.csv", columns: spec("t=Timestamp (us):us,mag=X (a.u.),Y (a.u.),Z (a.u.):au"),
                              slots: [.magneticField], use: "magnetometer in arbitrary units (a.u., kept as they are, not µT)"))
        }
        let reasons: [String: String] = [
            "HighGAccelerometer.csv": "high-g accelerometer (coarse range for impacts); Inertial.csv's accelerometer is read",
            "Quaternion.csv": "the device's own orientation estimate (not ground truth; not used)",
            "RotationMatrix.csv": "the device's own orientation estimate (not ground truth; not used)",
            "EulerAngles.csv": "the device's own orientation estimate (not ground truth; not used)",
            "LinearAcceleration.csv": "gravity-free acceleration computed by the device (not used)",
            "EarthAcceleration.csv": "earth-frame acceleration computed by the device (not used)",
            "Temperature.csv": "temperature (not used)",
            "Battery.csv": "battery (not used)",
            "Rssi.csv": "radio signal strength (not used)",
        ]
        let read = Set(plans.map(\.name))
        let ignored = present.subtracting(read).sorted().map { ($0, reasons[$0] ?? (($0.hasSuffix(".csv") ? "not a sensor Poise reads" : "not a CSV file"))) }
        return SessionLayout(format: .ximu3Session, plans: plans, ignored: ignored)
    }

    static func sensorLogger(_ present: Set<String>, folder: String) throws -> SessionLayout {
        var plans: [Plan] = []
        var reasons: [String: String] = [
            "AccelerometerUncalibrated.csv": "its unit is g or m/s² depending on the platform and the app's 'Standardise Units & Frames' setting, which the files do not record (not used)",
            "Orientation.csv": "the device's own orientation estimate (not ground truth; not used)",
            "Metadata.csv": "recording metadata (not used)",
            "Barometer.csv": "barometer (not used)",
            "Location.csv": "location (not used)",
        ]
        let time = "t=time:ns"
        if present.contains("TotalAcceleration.csv") {
            plans.append(Plan(name: "TotalAcceleration.csv", columns: spec("\(time),acc=x,y,z:mps2"), slots: [.acceleration],
                              use: "accelerometer with gravity (m/s², specific force)"))
            reasons["Accelerometer.csv"] = "gravity-free (user) acceleration; TotalAcceleration.csv is the accelerometer reading"
            reasons["Gravity.csv"] = "the device's gravity estimate; TotalAcceleration.csv is the accelerometer reading"
        } else if present.contains("Accelerometer.csv") && present.contains("Gravity.csv") {
            plans.append(Plan(name: "Accelerometer.csv", columns: spec("\(time),acc=x,y,z:mps2"), slots: [.acceleration],
                              use: "gravity-free acceleration (m/s²), added to Gravity.csv: the accelerometer reading"))
            plans.append(Plan(name: "Gravity.csv", columns: spec("\(time),acc=x,y,z:mps2"), slots: [.gravity],
                              use: "gravity (m/s²), added to Accelerometer.csv"))
        } else if present.contains("Accelerometer.csv") {
            reasons["Accelerometer.csv"] = "gravity-free (user) acceleration, not an accelerometer reading, and there is no Gravity.csv or TotalAcceleration.csv to complete it: the session has no accelerometer (gyroscope and magnetometer only)"
        }
        for (name, fallback, mapping, use) in [
            ("Gyroscope.csv", "GyroscopeUncalibrated.csv", "gyr=x,y,z:radps", "gyroscope (rad/s)"),
            ("Magnetometer.csv", "MagnetometerUncalibrated.csv", "mag=x,y,z:uT", "magnetometer (µT)"),
        ] {
            let chosen = present.contains(name) ? name : (present.contains(fallback) ? fallback : nil)
            guard let chosen else { continue }
            plans.append(Plan(name: chosen, columns: spec("\(time),\(mapping)"),
                              slots: [mapping.hasPrefix("gyr") ? .rotationRate : .magneticField], use: use))
            if chosen == name, present.contains(fallback) { reasons[fallback] = "uncalibrated; \(name) is read" }
        }
        guard plans.contains(where: { !$0.slots.contains(.gravity) }) else {
            throw RecordingError(file: folder, line: 0, column: 0,
                                 message: "Sensor Logger session without a sensor Poise reads: \(present.sorted().joined(separator: ", ")). \(reasons["Accelerometer.csv"] ?? "")")
        }
        let read = Set(plans.map(\.name))
        let ignored = present.subtracting(read).sorted().map { ($0, reasons[$0] ?? ($0.hasSuffix(".csv") ? "not a sensor Poise reads" : "not a CSV file")) }
        return SessionLayout(format: .sensorLogger, plans: plans, ignored: ignored)
    }

    /// The text of a file's first line (a UTF-8 byte order mark dropped), from its first bytes.
    static func firstLine(of bytes: some Collection<UInt8>) -> String {
        let line = bytes.prefix(65_536).prefix { $0 != 10 && $0 != 13 }
        var text = String(decoding: line, as: UTF8.self)
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        return text
    }

    /// The header cells of a first line, split at its detected delimiter.
    static func headerCells(_ line: String) -> [String] {
        CSVDialect.cells(of: line, delimiter: CSVDialect.detectDelimiter(header: line)).map { $0.trimmingSpaces() }
    }

    /// The phyphox session in `files`, or nil when no CSV file has a phyphox header.
    ///
    /// phyphox exports one CSV per export set of the experiment, named after the set (a "simple
    /// experiment" with several sensors: `Accelerometer.csv`, `Gyroscope.csv`, `Magnetometer.csv`,
    /// `Linear Acceleration.csv`, `Attitude.csv`, `Location.csv`…), each with its own `Time (s)`
    /// column, and `meta/device.csv`, `meta/time.csv`. A file is read for what its header holds,
    /// whatever its name: `Acceleration x (m/s^2)` (with gravity, specific force: phyphox
    /// writes Android's sign on Android and iOS), `Gyroscope x (rad/s)`, `Magnetic field x (µT)`.
    static func phyphox(_ files: [String], folder: String, firstLine: (String) -> String?) throws -> SessionLayout? {
        let csvFiles = files.filter { $0.lowercased().hasSuffix(".csv") }
        var headers: [String: [String]] = [:]
        for name in csvFiles {
            guard let line = firstLine(name) else { continue }
            let cells = headerCells(line)
            if HeaderMapping.format(of: cells) == .phyphox { headers[name] = cells }
        }
        guard !headers.isEmpty else { return nil }
        var reasons: [String: String] = [
            "meta": "phyphox's metadata folder (device.csv, time.csv; not used)",
            "device.csv": "phyphox's device and sensor metadata (meta/device.csv; not used)",
            "time.csv": "phyphox's start and pause times (meta/time.csv; not used)",
            "Attitude.csv": "the device's own orientation estimate (not ground truth; not used)",
        ]
        // Which quantity each file holds; the simple experiment's own file name first.
        let preferred: [SessionReader.Slot: String] = [.acceleration: "Accelerometer.csv", .rotationRate: "Gyroscope.csv", .magneticField: "Magnetometer.csv"]
        let labels: [SessionReader.Slot: String] = [.acceleration: "accelerometer with gravity (m/s², specific force, +1 g up at rest)",
                                                    .rotationRate: "gyroscope (rad/s)", .magneticField: "magnetometer (µT)"]
        var offered: [(name: String, slots: [SessionReader.Slot])] = []
        var gravityFree: [String] = []
        for name in headers.keys.sorted() {
            let cells = headers[name]!
            guard let schema = try? HeaderMapping.schema(header: cells, file: name) else {
                if cells.contains(where: { HeaderMapping.ignoredReason(for: $0) == HeaderMapping.gravityFreeReason }) {
                    gravityFree.append(name)
                } else if reasons[name] == nil {
                    reasons[name] = "no accelerometer, gyroscope or magnetometer columns (header: \(cells.dropFirst().joined(separator: ", ")); not used)"
                }
                continue
            }
            var slots: [SessionReader.Slot] = []
            if schema.hasAccelerometer { slots.append(.acceleration) }
            if schema.hasGyroscope { slots.append(.rotationRate) }
            if schema.hasMagnetometer { slots.append(.magneticField) }
            offered.append((name, slots))
        }
        offered.sort { a, b in
            let ap = a.slots.contains { preferred[$0] == a.name }, bp = b.slots.contains { preferred[$0] == b.name }
            return ap != bp ? ap : a.name < b.name
        }
        var plans: [Plan] = []
        var taken: [SessionReader.Slot: String] = [:]
        for (name, slots) in offered {
            let free = slots.filter { taken[$0] == nil }
            guard !free.isEmpty else {
                reasons[name] = "a second file with the same sensor: " + slots.compactMap { taken[$0] }.joined(separator: ", ") + " is read"
                continue
            }
            for slot in free { taken[slot] = name }
            plans.append(Plan(name: name, columns: nil, slots: free, use: free.compactMap { labels[$0] }.joined(separator: ", ")))
        }
        for name in gravityFree {
            reasons[name] = taken[.acceleration].map { "gravity-free (linear) acceleration, not an accelerometer reading; \($0) is read" }
                ?? "gravity-free (linear) acceleration, not an accelerometer reading, and no file of the export holds 'Acceleration x (m/s^2)' (phyphox's accelerometer with g): the session has no accelerometer"
        }
        guard !plans.isEmpty else {
            throw RecordingError(file: folder, line: 0, column: 0,
                                 message: "phyphox session without a sensor Poise reads: " + files.sorted().map { "\($0) (\(reasons[$0] ?? "not a sensor file"))" }.joined(separator: "; "))
        }
        let read = Set(plans.map(\.name))
        let ignored = Set(files).subtracting(read).sorted().map { ($0, reasons[$0] ?? ($0.lowercased().hasSuffix(".csv") ? "not a phyphox sensor file" : "not a CSV file")) }
        return SessionLayout(format: .phyphoxSession, plans: plans, ignored: ignored)
    }
}
