import PoiseRecording
import PoiseSpectral

extension MotionChannel {
    /// The sensor whose columns the channel is computed from.
    var sensor: Sensor {
        switch self {
        case .accelerationX, .accelerationY, .accelerationZ, .accelerationNorm: .accelerometer
        case .rotationRateX, .rotationRateY, .rotationRateZ, .rotationRateNorm: .gyroscope
        case .magneticFieldX, .magneticFieldY, .magneticFieldZ, .magneticFieldNorm: .magnetometer
        }
    }

    /// The channels to analyse in a recording with `schema`. Channels the user named must all
    /// exist (else an error naming the sensor and the columns looked for); the default channels
    /// are narrowed to the sensors the file has (never analysed as zeros).
    ///
    /// - Throws: `RecordingError` when a named channel's sensor is absent, or when none of the
    ///   default channels' sensors is present.
    static func available(_ requested: [MotionChannel], named: Bool, schema: RecordingSchema,
                          file: String) throws -> [MotionChannel] {
        if named {
            for channel in requested {
                try schema.require([channel.sensor], file: file, for: "channel \(channel.rawValue)")
            }
            return requested
        }
        let present = requested.filter { schema.has($0.sensor) }
        guard !present.isEmpty else {
            let sensors = Array(Set(requested.map(\.sensor))).sorted { $0.rawValue < $1.rawValue }
            try schema.require(sensors, file: file, for: "the default channels (\(requested.map(\.rawValue).joined(separator: " ")))")
            return requested
        }
        return present
    }
}
