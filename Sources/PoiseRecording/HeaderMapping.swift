/// Maps header names to column meanings (see docs/recordings.md for the accepted names).
///
/// Recognised layouts:
/// - Poise / BROAD: `quantity_axis_unit` (`t_s`, `t_ms`, `t_us`, `t_ns`, `acc_x_g`, `acc_x_mps2`,
///   `gyr_x_radps`, `gyr_x_dps`, `mag_x_uT`, `mag_x_nT`, `mag_x_G`), `gt_qw…gt_qz`, `movement`,
///   `gt_pos_*_m` (ignored).
/// - x-io Fusion: `Time (s)`, `Gyroscope X (deg/s)`, `Accelerometer X (g)`, `Magnetometer X (uT)`.
/// - phyphox: `Time (s)`, `Acceleration x (m/s^2)`, `Gyroscope x (rad/s)`, `Magnetic field x (µT)`.
/// - EuRoC MAV: `#timestamp [ns]`, `w_RS_S_x [rad s^-1]`, `a_RS_S_x [m s^-2]`.
enum HeaderMapping {
    static let axes = ["x": 0, "y": 1, "z": 2]
    static let radiansPerDegree = Double.pi / 180
    static let gPerMetrePerSecondSquared = 1 / 9.80665

    /// Maps one header cell. Returns `nil` when the name is not understood.
    static func meaning(of rawName: String) -> (ColumnMeaning, String)? {
        let name = rawName.trimmingSpaces()
        switch name {
        case "t_s", "Time (s)": return (.time(scale: 1), "s")
        case "t_ms": return (.time(scale: 1e-3), "ms")
        case "t_us": return (.time(scale: 1e-6), "µs")
        case "t_ns", "#timestamp [ns]", "#timestamp": return (.time(scale: 1e-9), "ns")
        case "movement": return (.movement, "")
        case "gt_qw": return (.truth(component: 0), "")
        case "gt_qx": return (.truth(component: 1), "")
        case "gt_qy": return (.truth(component: 2), "")
        case "gt_qz": return (.truth(component: 3), "")
        case "gt_pos_x_m", "gt_pos_y_m", "gt_pos_z_m":
            return (.ignored(reason: "ground-truth position (not used)"), "m")
        default: break
        }
        // quantity_axis_unit
        let parts = name.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, let axis = axes[parts[1]] {
            switch (parts[0], parts[2]) {
            case ("acc", "g"): return (.acceleration(axis: axis, scale: 1), "g")
            case ("acc", "mps2"): return (.acceleration(axis: axis, scale: gPerMetrePerSecondSquared), "m/s²")
            case ("gyr", "radps"): return (.rotationRate(axis: axis, scale: 1), "rad/s")
            case ("gyr", "dps"): return (.rotationRate(axis: axis, scale: radiansPerDegree), "°/s")
            case ("mag", "uT"): return (.magneticField(axis: axis, scale: 1), "µT")
            case ("mag", "nT"): return (.magneticField(axis: axis, scale: 1e-3), "nT")
            case ("mag", "G"): return (.magneticField(axis: axis, scale: 100), "G")
            default: return nil
            }
        }
        // "<Quantity> <axis> (<unit>)" — x-io Fusion and phyphox.
        if let open = name.lastIndex(of: "("), name.hasSuffix(")") {
            let unit = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            let words = name[..<open].split(separator: " ").map(String.init)
            if words.count >= 2, let axis = axes[words[words.count - 1].lowercased()] {
                let quantity = words.dropLast().joined(separator: " ")
                switch (quantity, unit) {
                case ("Gyroscope", "deg/s"), ("Gyroscope", "°/s"):
                    return (.rotationRate(axis: axis, scale: radiansPerDegree), "°/s")
                case ("Gyroscope", "rad/s"): return (.rotationRate(axis: axis, scale: 1), "rad/s")
                case ("Accelerometer", "g"): return (.acceleration(axis: axis, scale: 1), "g")
                case ("Accelerometer", "m/s^2"), ("Acceleration", "m/s^2"):
                    return (.acceleration(axis: axis, scale: gPerMetrePerSecondSquared), "m/s²")
                case ("Magnetometer", "uT"), ("Magnetometer", "µT"), ("Magnetic field", "µT"), ("Magnetic field", "uT"):
                    return (.magneticField(axis: axis, scale: 1), "µT")
                default: return nil
                }
            }
        }
        // EuRoC: w_RS_S_x [rad s^-1], a_RS_S_x [m s^-2]
        if name.hasPrefix("w_RS_S_") || name.hasPrefix("a_RS_S_") {
            let rest = name.dropFirst(7)
            if let letter = rest.first, let axis = axes[String(letter)] {
                let unit = rest.dropFirst().trimmingCharacters(" ")
                if name.first == "w", unit == "[rad s^-1]" { return (.rotationRate(axis: axis, scale: 1), "rad/s") }
                if name.first == "a", unit == "[m s^-2]" {
                    return (.acceleration(axis: axis, scale: gPerMetrePerSecondSquared), "m/s²")
                }
            }
        }
        return nil
    }

    static let expectedNames = "expected names like t_s, t_ns, acc_x_g, acc_x_mps2, gyr_x_radps, gyr_x_dps, mag_x_uT, gt_qw, movement, or the x-io Fusion, phyphox or EuRoC headers"

    /// Builds the schema for a header line, or throws naming the first column it cannot map.
    ///
    /// - Parameter strict: when false, unknown columns are ignored and reported in `issues`.
    /// - Parameter sampleRate: when given, a header without a time column is accepted (the reader
    ///   then times row n at n / rate); when nil, a missing time column is an error.
    static func schema(header: [String], file: String, strict: Bool = true, sampleRate: Double? = nil) throws -> RecordingSchema {
        var issues: [RecordingIssue] = []
        return try schema(header: header, file: file, strict: strict, sampleRate: sampleRate, issues: &issues)
    }

    static func schema(header: [String], file: String, strict: Bool, sampleRate: Double? = nil,
                       issues: inout [RecordingIssue]) throws -> RecordingSchema {
        var columns: [ColumnMapping] = []
        var seen: [String: Int] = [:]
        for (i, name) in header.enumerated() {
            let trimmed = name.trimmingSpaces()
            guard let (meaning, unit) = meaning(of: name) else {
                let error = RecordingError(file: file, line: 1, column: i + 1,
                                           message: trimmed.isEmpty ? "empty column name (\(expectedNames))"
                                                                    : "unknown column '\(trimmed)' (\(expectedNames))")
                if strict { throw error }
                issues.append(RecordingIssue(kind: .unknownColumn, action: .kept,
                                             location: RecordingError(file: file, line: 1, column: i + 1,
                                                                      message: "unknown column '\(trimmed)' ignored")))
                columns.append(ColumnMapping(name: trimmed, meaning: .ignored(reason: "unknown column"), unit: ""))
                continue
            }
            if let slot = meaning.slot {
                if let first = seen[slot] {
                    throw RecordingError(file: file, line: 1, column: i + 1,
                                         message: "duplicate column '\(trimmed)' (same quantity as column \(first + 1) '\(header[first].trimmingSpaces())')")
                }
                seen[slot] = i
            }
            columns.append(ColumnMapping(name: trimmed, meaning: meaning, unit: unit))
        }
        guard seen["time"] != nil || sampleRate != nil else {
            throw RecordingError(file: file, line: 1, column: 0, message: "missing time column (t_s, t_ms, t_us, t_ns, 'Time (s)' or '#timestamp [ns]'); for a file without timestamps give its sample rate with --rate HZ (poise info, poise replay; ReadOptions.sampleRate)")
        }
        // Sensors come as complete triples; the truth quaternion as all four components.
        let groups: [(label: String, slots: [String], parts: [String], names: String)] = [
            ("acceleration", (0..<3).map { "acceleration[\($0)]" }, ["x", "y", "z"], "acc_x/y/z"),
            ("rotationRate", (0..<3).map { "rotationRate[\($0)]" }, ["x", "y", "z"], "gyr_x/y/z"),
            ("magneticField", (0..<3).map { "magneticField[\($0)]" }, ["x", "y", "z"], "mag_x/y/z"),
            ("truth", (0..<4).map { "truth[\($0)]" }, ["qw", "qx", "qy", "qz"], "gt_qw/qx/qy/qz"),
        ]
        var sensors = 0
        for group in groups {
            let missing = zip(group.slots, group.parts).filter { seen[$0.0] == nil }.map(\.1)
            if missing.count == group.slots.count { continue }
            if !missing.isEmpty {
                throw RecordingError(file: file, line: 1, column: 0,
                                     message: "incomplete \(group.label) columns (\(group.names)): missing \(missing.joined(separator: ", "))")
            }
            if group.label != "truth" { sensors += 1 }
        }
        guard sensors > 0 else {
            throw RecordingError(file: file, line: 1, column: 0,
                                 message: "no sensor columns (need accelerometer, gyroscope or magnetometer; \(expectedNames))")
        }
        let first = header.first?.trimmingSpaces() ?? ""
        let format: RecordingFormat
        if header.contains(where: { $0.trimmingSpaces().hasPrefix("Accelerometer") || $0.trimmingSpaces().hasPrefix("Gyroscope X") }) && first == "Time (s)" {
            format = .xioFusion
        } else if first == "Time (s)" {
            format = .phyphox
        } else if first.hasPrefix("#timestamp") {
            format = .euroc
        } else {
            format = .poise
        }
        return RecordingSchema(format: format, columns: columns)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\u{FEFF}" || f == "\"" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\"" { s.removeLast() }
        return String(s)
    }
}

extension Substring {
    func trimmingCharacters(_ c: Character) -> String {
        var s = self
        while s.first == c { s.removeFirst() }
        while s.last == c { s.removeLast() }
        return String(s)
    }
}
