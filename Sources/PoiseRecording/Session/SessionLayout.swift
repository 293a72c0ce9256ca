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

    /// The layout of a folder holding `files`.
    ///
    /// - Throws: `RecordingError` for a folder that is neither a Sensor Logger nor an x-IMU3 session.
    init(files: [String], folder: String) throws {
        let present = Set(files)
        if present.contains("Inertial.csv") {
            self = Self.ximu3(present)
        } else if !present.isDisjoint(with: Self.sensorLoggerFiles) {
            self = try Self.sensorLogger(present, folder: folder)
        } else {
            let listed = files.isEmpty ? "it is empty" : "it holds " + files.prefix(20).joined(separator: ", ") + (files.count > 20 ? ", …" : "")
            throw RecordingError(file: folder, line: 0, column: 0,
                                 message: "a folder, but not a session Poise reads (a Sensor Logger export with Accelerometer.csv, Gyroscope.csv, Magnetometer.csv…, or an x-IMU3 logged session with Inertial.csv); \(listed)")
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
}
