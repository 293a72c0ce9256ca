/// Maps header names to column meanings (see docs/recordings.md for the accepted names).
///
/// Recognised layouts:
/// - Poise / BROAD: `quantity_axis_unit` (`t_s`, `t_ms`, `t_us`, `t_ns`, `acc_x_g`, `acc_x_mps2`,
///   `gyr_x_radps`, `gyr_x_dps`, `mag_x_uT`, `mag_x_nT`, `mag_x_G`, `mag_x_au` (arbitrary
///   units, kept as they are)), `gt_qw…gt_qz`, `movement`,
///   `gt_pos_*_m` (ignored).
/// - x-io Fusion: `Time (s)`, `Gyroscope X (deg/s)`, `Accelerometer X (g)`, `Magnetometer X (uT)`.
/// - x-io x-IMU3 logged `Inertial.csv`: `Timestamp (us)` and the x-io Fusion sensor names.
/// - phyphox: `Time (s)`, `Acceleration x (m/s^2)`, `Gyroscope x (rad/s)`, `Magnetic field x (µT)`.
/// - EuRoC MAV: `#timestamp [ns]`, `w_RS_S_x [rad s^-1]`, `a_RS_S_x [m s^-2]`.
/// - Xsens MT Manager export: `PacketCounter` (time = counter / update rate), `Acc_X` (m/s²),
///   `Gyr_X` (rad/s, MT Manager's default unit).
///
/// Columns it does not read are ignored with a reason (`ignoredReason(for:)`), never an error.
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
        case "t_us", "Timestamp (us)": return (.time(scale: 1e-6), "µs")
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
            case ("mag", "au"): return (.magneticField(axis: axis, scale: 1), ColumnSpec.arbitraryUnitLabel)
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
        // Xsens MT Manager: Acc_X (m/s², specific force), Gyr_X (rad/s).
        let xsens = name.split(separator: "_").map(String.init)
        if xsens.count == 2, let axis = axes[xsens[1].lowercased()], xsens[1].count == 1 {
            switch xsens[0] {
            case "Acc": return (.acceleration(axis: axis, scale: gPerMetrePerSecondSquared), "m/s²")
            case "Gyr": return (.rotationRate(axis: axis, scale: 1), "rad/s")
            default: break
            }
        }
        // CoreMotion CMDeviceMotion: gravity.x + userAcceleration.x (g, Apple's sign), rotationRate.x.
        if let dot = name.lastIndex(of: "."), let axis = axes[String(name[name.index(after: dot)...])] {
            switch name[..<dot] {
            case "gravity": return (.acceleration(axis: axis, scale: -1), "g (Apple sign)")
            case "userAcceleration": return (.accelerationComponent(axis: axis, scale: -1), "g (Apple sign)")
            case "rotationRate": return (.rotationRate(axis: axis, scale: 1), "rad/s")
            default: break
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

    static let expectedNames = "expected names like t_s, t_ns, acc_x_g, acc_x_mps2, gyr_x_radps, gyr_x_dps, mag_x_uT, gt_qw, movement, or the x-io Fusion, phyphox, EuRoC or Xsens MT Manager headers"

    /// Builds the schema for a header line. Columns it does not read are kept as `.ignored` with
    /// the reason (and an `unknownColumn` note in `issues` for names it does not know); it throws
    /// only when the time or sensor columns cannot be identified, or for duplicate or incomplete
    /// sensor columns.
    ///
    /// - Parameter line: the header's 1-based line number (after any preamble lines).
    /// - Parameter sampleRate: when given, a header without a time column is accepted (the reader
    ///   then times row n at n / rate); when nil, a missing time column is an error.
    /// - Parameter counterRate: the rate of a packet counter column (Xsens `PacketCounter`, from
    ///   the `// Update Rate:` line): the counter becomes the time column, counter / rate s.
    static func schema(header: [String], file: String, line: Int = 1, sampleRate: Double? = nil,
                       counterRate: Double? = nil) throws -> RecordingSchema {
        var issues: [RecordingIssue] = []
        return try schema(header: header, file: file, line: line, sampleRate: sampleRate, counterRate: counterRate,
                          issues: &issues)
    }

    static func schema(header: [String], file: String, line: Int = 1, sampleRate: Double? = nil,
                       counterRate: Double? = nil, issues: inout [RecordingIssue]) throws -> RecordingSchema {
        var columns: [ColumnMapping] = []
        var seen: [String: Int] = [:]
        for (i, name) in header.enumerated() {
            let trimmed = name.trimmingSpaces()
            let mapped: (ColumnMeaning, String)?
            if trimmed == "PacketCounter" {
                mapped = counterRate.map { (.time(scale: 1 / $0), "packets at \(formatRate($0)) Hz") }
                    ?? (.ignored(reason: "packet counter without an '// Update Rate:' line: rows are timed by the rate given with --rate"), "")
            } else {
                mapped = meaning(of: name) ?? ignoredReason(for: trimmed).map { (.ignored(reason: $0), "") }
            }
            guard let (meaning, unit) = mapped else {
                let reason = trimmed.isEmpty ? unnamedReason : unknownReason
                issues.append(RecordingIssue(kind: .unknownColumn, action: .kept,
                                             location: RecordingError(file: file, line: line, column: i + 1,
                                                                      message: "column '\(trimmed)' ignored: \(reason)")))
                columns.append(ColumnMapping(name: trimmed, meaning: .ignored(reason: reason), unit: ""))
                continue
            }
            if let slot = meaning.slot {
                if let first = seen[slot] {
                    throw RecordingError(file: file, line: line, column: i + 1,
                                         message: "duplicate column '\(trimmed)' (same quantity as column \(first + 1) '\(header[first].trimmingSpaces())')")
                }
                seen[slot] = i
            }
            columns.append(ColumnMapping(name: trimmed, meaning: meaning, unit: unit))
        }
        // A gravity-free component without the acceleration it is added to is no accelerometer.
        for (i, column) in columns.enumerated() {
            if case .accelerationComponent(let axis, _) = column.meaning, seen["acceleration[\(axis)]"] == nil {
                columns[i].meaning = .ignored(reason: gravityFreeReason)
                seen[column.meaning.slot ?? ""] = nil
            }
        }
        guard seen["time"] != nil || sampleRate != nil else {
            throw RecordingError(file: file, line: line, column: 0, message: "missing time column (t_s, t_ms, t_us, t_ns, 'Time (s)', '#timestamp [ns]', or an Xsens PacketCounter with its '// Update Rate:' line); for a file without timestamps give its sample rate: --rate HZ (poise info, replay, spectrum), --sample-rate HZ (fuse, evaluate), ReadOptions.sampleRate. \(describe(header: header, columns: columns))")
        }
        // Sensors come as complete triples; the truth quaternion as all four components.
        let groups: [(label: String, slots: [String], parts: [String], names: String)] = [
            ("acceleration", (0..<3).map { "acceleration[\($0)]" }, ["x", "y", "z"], "acc_x/y/z"),
            ("accelerationComponent", (0..<3).map { "accelerationComponent[\($0)]" }, ["x", "y", "z"], "userAcceleration.x/y/z"),
            ("rotationRate", (0..<3).map { "rotationRate[\($0)]" }, ["x", "y", "z"], "gyr_x/y/z"),
            ("magneticField", (0..<3).map { "magneticField[\($0)]" }, ["x", "y", "z"], "mag_x/y/z"),
            ("truth", (0..<4).map { "truth[\($0)]" }, ["qw", "qx", "qy", "qz"], "gt_qw/qx/qy/qz"),
        ]
        var sensors = 0
        for group in groups {
            let missing = zip(group.slots, group.parts).filter { seen[$0.0] == nil }.map(\.1)
            if missing.count == group.slots.count { continue }
            if !missing.isEmpty {
                throw RecordingError(file: file, line: line, column: 0,
                                     message: "incomplete \(group.label) columns (\(group.names)): missing \(missing.joined(separator: ", "))")
            }
            if group.label != "truth" && group.label != "accelerationComponent" { sensors += 1 }
        }
        guard sensors > 0 else {
            throw RecordingError(file: file, line: line, column: 0,
                                 message: "no sensor columns Poise can read (need an accelerometer, gyroscope or magnetometer triple; \(expectedNames)). \(describe(header: header, columns: columns))")
        }
        return RecordingSchema(format: format(of: header), columns: columns)
    }

    /// The layout a header comes from, by its names.
    static func format(of header: [String]) -> RecordingFormat {
        let names = header.map { $0.trimmingSpaces() }
        let first = names.first ?? ""
        if names.contains("PacketCounter") || names.contains("Acc_X") { return .xsens }
        if names.contains("gravity.x") || names.contains("userAcceleration.x") { return .coreMotion }
        if names.contains(where: { $0.hasPrefix("Accelerometer") || $0.hasPrefix("Gyroscope X") }) && first == "Time (s)" {
            return .xioFusion
        }
        if first == "Time (s)" { return .phyphox }
        if first == "Timestamp (us)" { return .ximu3 }
        if first.hasPrefix("#timestamp") { return .euroc }
        return .poise
    }

    /// The header and what became of each column, for errors about a header that cannot be read,
    /// with how to make it readable.
    static func describe(header: [String], columns: [ColumnMapping]) -> String {
        let names = header.map { "'\($0.trimmingSpaces())'" }.joined(separator: ", ")
        var text = "Header: \(names)."
        let ignored = ignoredByReason(columns)
        if !ignored.isEmpty {
            text += " Ignored: " + ignored.map { "\($0.names.map { "'\($0)'" }.joined(separator: ", ")) (\($0.reason))" }
                .joined(separator: "; ") + "."
        }
        if header.count == 1 {
            text += " The header is a single column: if its fields are separated by another character, give --delimiter comma|semicolon|tab."
        }
        let reasons = Set(ignored.map(\.reason))
        if reasons.contains(unknownReason) {
            text += " To read this file, rename its columns to Poise names (t_s or t_ns, acc_x_mps2 or acc_x_g, gyr_x_radps or gyr_x_dps, mag_x_uT; see docs/recordings.md)."
        } else if reasons.contains(gravityFreeReason) {
            text += " Gravity-free acceleration cannot stand in for an accelerometer: export the accelerometer itself (phyphox 'Acceleration (with g)', Sensor Logger 'TotalAcceleration' or uncalibrated accelerometer)."
        }
        return text
    }

    /// The ignored columns grouped by reason, in file order of each reason's first column.
    static func ignoredByReason(_ columns: [ColumnMapping]) -> [(reason: String, names: [String])] {
        var groups: [(reason: String, names: [String])] = []
        for column in columns {
            guard case .ignored(let reason) = column.meaning else { continue }
            if let i = groups.firstIndex(where: { $0.reason == reason }) {
                groups[i].names.append(column.name)
            } else {
                groups.append((reason, [column.name]))
            }
        }
        return groups
    }

    static func formatRate(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
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
