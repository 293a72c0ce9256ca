/// A three-axis sensor a recording may or may not have. A recording's header says which ones it
/// has (`RecordingSchema.has(_:)`); a sensor without columns is absent, and the reader leaves its
/// `MotionSample` field at zero (magnetic field: nil), which must never be taken for a reading.
public enum Sensor: String, Sendable, CaseIterable {
    case accelerometer, gyroscope, magnetometer

    /// The column names the header mapping accepts for the x axis (y and z alike), for messages.
    public var columnsLookedFor: String {
        switch self {
        case .accelerometer:
            "acc_x_g or acc_x_mps2, 'Accelerometer X (g)', 'Acceleration x (m/s^2)', 'a_RS_S_x [m s^-2]', and the same for y and z"
        case .gyroscope:
            "gyr_x_radps or gyr_x_dps, 'Gyroscope X (deg/s)', 'Gyroscope x (rad/s)', 'w_RS_S_x [rad s^-1]', and the same for y and z"
        case .magnetometer:
            "mag_x_uT, mag_x_nT or mag_x_G, 'Magnetometer X (uT)', 'Magnetic field x (µT)', and the same for y and z"
        }
    }
}

extension RecordingSchema {
    /// Whether the header has all three columns of `sensor`.
    public func has(_ sensor: Sensor) -> Bool {
        switch sensor {
        case .accelerometer: hasAccelerometer
        case .gyroscope: hasGyroscope
        case .magnetometer: hasMagnetometer
        }
    }

    /// Throws when the header lacks one of `sensors`, so a command never computes a number from a
    /// sensor the file does not have.
    ///
    /// - Parameters:
    ///   - file: the path, as the user gave it.
    ///   - purpose: what needs the sensor, completing "… needs it" (`"--mode 6d fusion"`).
    /// - Throws: `RecordingError` at line 1 (the header) naming the file, the first missing sensor,
    ///   the columns looked for, and `purpose`.
    public func require(_ sensors: [Sensor], file: String, for purpose: String) throws {
        guard let missing = sensors.first(where: { !has($0) }) else { return }
        throw RecordingError(file: file, line: 1, column: 0,
                             message: "no \(missing.rawValue) columns (looked for \(missing.columnsLookedFor)); \(purpose) needs the \(missing.rawValue), so nothing was computed")
    }
}
