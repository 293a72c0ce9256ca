/// Maps header names to column meanings (see docs/recordings.md for the accepted names).
enum HeaderMapping {
    static let axes = ["x": 0, "y": 1, "z": 2]

    /// Maps one header cell. Returns `nil` when the name is not understood.
    static func meaning(of rawName: String) -> (ColumnMeaning, String)? {
        let name = rawName.trimmingSpaces()
        switch name {
        case "t_s": return (.time(scale: 1), "s")
        case "t_ms": return (.time(scale: 1e-3), "ms")
        case "t_us": return (.time(scale: 1e-6), "µs")
        case "t_ns": return (.time(scale: 1e-9), "ns")
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
            case ("acc", "mps2"): return (.acceleration(axis: axis, scale: 1 / 9.80665), "m/s²")
            case ("gyr", "radps"): return (.rotationRate(axis: axis, scale: 1), "rad/s")
            case ("gyr", "dps"): return (.rotationRate(axis: axis, scale: Double.pi / 180), "°/s")
            case ("mag", "uT"): return (.magneticField(axis: axis, scale: 1), "µT")
            case ("mag", "nT"): return (.magneticField(axis: axis, scale: 1e-3), "nT")
            case ("mag", "G"): return (.magneticField(axis: axis, scale: 100), "G")
            default: return nil
            }
        }
        // x-io Fusion example format.
        switch name {
        case "Time (s)": return (.time(scale: 1), "s")
        default: break
        }
        let xio: [(String, (Int, Double) -> ColumnMeaning, String, Double)] = [
            ("Gyroscope", { .rotationRate(axis: $0, scale: $1) }, "(deg/s)", Double.pi / 180),
            ("Accelerometer", { .acceleration(axis: $0, scale: $1) }, "(g)", 1),
            ("Magnetometer", { .magneticField(axis: $0, scale: $1) }, "(uT)", 1),
        ]
        for (prefix, make, unit, scale) in xio {
            for (letter, axis) in [("X", 0), ("Y", 1), ("Z", 2)] where name == "\(prefix) \(letter) \(unit)" {
                let label = unit == "(deg/s)" ? "°/s" : unit == "(g)" ? "g" : "µT"
                return (make(axis, scale), label)
            }
        }
        return nil
    }

    /// Builds the schema for a header line, or throws naming the first column it cannot map.
    static func schema(header: [String], file: String) throws -> RecordingSchema {
        var columns: [ColumnMapping] = []
        var seen: Set<ColumnMeaning> = []
        for (i, name) in header.enumerated() {
            guard let (meaning, unit) = meaning(of: name) else {
                throw RecordingError(file: file, line: 1, column: i + 1,
                                     message: "unknown column '\(name)' (expected names like t_s, acc_x_g, acc_x_mps2, gyr_x_radps, gyr_x_dps, mag_x_uT, gt_qw, movement, or the x-io Fusion headers)")
            }
            if case .ignored = meaning {} else {
                if seen.contains(meaning) {
                    throw RecordingError(file: file, line: 1, column: i + 1, message: "duplicate column '\(name)'")
                }
                seen.insert(meaning)
            }
            columns.append(ColumnMapping(name: name, meaning: meaning, unit: unit))
        }
        let format: RecordingFormat = header.first?.trimmingSpaces() == "Time (s)" ? .xioFusion : .poise
        return RecordingSchema(format: format, columns: columns)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\u{FEFF}" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
