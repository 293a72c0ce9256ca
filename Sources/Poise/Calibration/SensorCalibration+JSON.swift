extension SensorCalibration {
    /// The sensors of the JSON, in the order written, with their unit(s).
    static let sections: [(name: String, units: [String])] = [
        ("magnetometer", ["uT", "au"]), ("gyroscope", ["rad/s"]), ("accelerometer", ["g"]),
    ]

    /// The calibration as a JSON document (the schema of the type's documentation), two-space
    /// indented, numbers in their shortest exact form, ending with a newline.
    public var json: String {
        var lines = ["{", "  \"format\": \"\(Self.format)\",", "  \"version\": \(Self.version)"]
        for (name, _) in Self.sections {
            guard let correction = correction(named: name) else { continue }
            lines[lines.count - 1] += ","
            let unit = name == "magnetometer" ? magnetometerUnit : name == "gyroscope" ? "rad/s" : "g"
            var members = ["\"unit\": \"\(unit)\"", "\"offset\": \(Self.text(correction.offset))"]
            if correction.matrix != .scaledIdentity(1) {
                let m = correction.matrix
                members.append("\"matrix\": [\(Self.text(m.r0)), \(Self.text(m.r1)), \(Self.text(m.r2))]")
            }
            for (key, value) in (facts[name] ?? [:]).sorted(by: { $0.key < $1.key }) where value.isFinite {
                members.append("\"\(key)\": \(Self.text(value))")
            }
            lines.append("  \"\(name)\": {")
            lines.append(members.map { "    " + $0 }.joined(separator: ",\n"))
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a calibration JSON document.
    ///
    /// - Throws: ``CalibrationError`` with the line, column and byte of a syntax error, or naming
    ///   the member that is missing, of the wrong type, not finite, or of an unknown unit; a
    ///   `format` other than "poise-calibration" or a `version` other than 1 is refused. Members
    ///   this version does not know are ignored.
    public init(json text: String) throws(CalibrationError) {
        let root = try JSONValue.parse(text)
        guard case .object = root else { throw CalibrationError("a calibration is a JSON object, {…}") }
        guard root["format"] == .string(Self.format) else {
            throw CalibrationError("not a Poise calibration: \"format\" must be \"\(Self.format)\"")
        }
        guard case .number(let version) = root["version"] else { throw CalibrationError("\"version\" (a number) is missing") }
        guard version == Double(Self.version) else {
            throw CalibrationError("calibration version \(version) is not supported (this Poise reads version \(Self.version))")
        }
        self.init()
        for (name, units) in Self.sections {
            guard let section = root[name] else { continue }
            guard case .object(let members) = section else { throw CalibrationError("\"\(name)\" must be an object") }
            guard case .string(let unit) = section["unit"] ?? .null, units.contains(unit) else {
                throw CalibrationError("\"\(name)\".\"unit\" must be " + units.map { "\"\($0)\"" }.joined(separator: " or "))
            }
            guard let offsetValue = section["offset"] else { throw CalibrationError("\"\(name)\".\"offset\" is missing") }
            let offset = try Self.vector(offsetValue, "\"\(name)\".\"offset\"")
            var matrix = Matrix3.scaledIdentity(1)
            if let rows = section["matrix"] {
                guard case .array(let r) = rows, r.count == 3 else {
                    throw CalibrationError("\"\(name)\".\"matrix\" must be three rows of three numbers")
                }
                matrix = Matrix3(try Self.vector(r[0], "\"\(name)\".\"matrix\" row 1"), try Self.vector(r[1], "\"\(name)\".\"matrix\" row 2"),
                                 try Self.vector(r[2], "\"\(name)\".\"matrix\" row 3"))
            }
            let correction = SensorCorrection(offset: offset, matrix: matrix)
            switch name {
            case "magnetometer": magnetometer = correction; magnetometerUnit = unit
            case "gyroscope": gyroscope = correction
            default: accelerometer = correction
            }
            var numbers: [String: Double] = [:]
            for (key, value) in members where !["unit", "offset", "matrix"].contains(key) {
                if case .number(let number) = value { numbers[key] = number }
            }
            if !numbers.isEmpty { facts[name] = numbers }
        }
        guard !isEmpty else {
            throw CalibrationError("the calibration has no sensor: expected \"magnetometer\", \"gyroscope\" or \"accelerometer\"")
        }
    }

    func correction(named name: String) -> SensorCorrection? {
        switch name {
        case "magnetometer": magnetometer
        case "gyroscope": gyroscope
        default: accelerometer
        }
    }

    static func vector(_ value: JSONValue, _ what: String) throws(CalibrationError) -> SIMD3<Double> {
        guard case .array(let elements) = value, elements.count == 3 else { throw CalibrationError("\(what) must be an array of three numbers") }
        var result = SIMD3<Double>.zero
        for (i, element) in elements.enumerated() {
            guard case .number(let number) = element else { throw CalibrationError("\(what) must be an array of three numbers") }
            result[i] = number
        }
        return result
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func text(_ v: SIMD3<Double>) -> String { "[\(text(v.x)), \(text(v.y)), \(text(v.z))]" }
}
