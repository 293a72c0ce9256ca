extension RecordingSchema {
    /// The layout of samples made in code (a step response, a test signal): Poise names, time in
    /// s, acceleration in g, and with `gyroscope` the rotation rate in rad/s.
    public static func generated(gyroscope: Bool = false) -> RecordingSchema {
        var columns = [ColumnMapping(name: "t_s", meaning: .time(scale: 1), unit: "s")]
        for (axis, name) in ["x", "y", "z"].enumerated() {
            columns.append(ColumnMapping(name: "acc_\(name)_g", meaning: .acceleration(axis: axis, scale: 1), unit: "g"))
        }
        if gyroscope {
            for (axis, name) in ["x", "y", "z"].enumerated() {
                columns.append(ColumnMapping(name: "gyr_\(name)_radps", meaning: .rotationRate(axis: axis, scale: 1), unit: "rad/s"))
            }
        }
        return RecordingSchema(format: .poise, columns: columns)
    }
}
