/// Decodes the two ROS 1 message types Poise reads from their serialized bytes (little-endian,
/// fields in definition order, strings as `UInt32` length + bytes).
///
/// Both start with `std_msgs/Header`: `uint32 seq`, `time stamp` (`uint32 sec`, `uint32 nsec`),
/// `string frame_id`. Values are returned in the message's own units (m/s², rad/s, tesla).
enum RosMessageLayout {
    /// `sensor_msgs/Imu`'s definition MD5 (the layout below).
    static let imuMD5 = "6a62c6daae103f4ff57a132d6f95cec2"
    /// `sensor_msgs/MagneticField`'s definition MD5 (the layout below).
    static let magneticFieldMD5 = "2f3b0b43eed0c9501de0fa3ff89a45aa"

    typealias Imu = RosImuMerger.Imu

    /// Reads the header of a message; returns its stamp (s) and the index of the first byte
    /// after `frame_id`.
    static func header(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> (time: Double, end: Int) {
        guard bytes.count >= 16 else { throw fail("message of \(bytes.count) bytes is shorter than its 16-byte header") }
        let seconds = bytes.littleEndianUInt32(at: 4)
        let nanoseconds = bytes.littleEndianUInt32(at: 8)
        guard nanoseconds < 1_000_000_000 else { throw fail("header stamp has \(nanoseconds) ns (must be below 1e9)") }
        let frameLength = Int(bytes.littleEndianUInt32(at: 12))
        guard frameLength <= bytes.count - 16 else {
            throw fail("frame_id of \(frameLength) bytes runs past the end of the \(bytes.count)-byte message")
        }
        return (Double(seconds) + Double(nanoseconds) * 1e-9, 16 + frameLength)
    }

    /// Decodes a `sensor_msgs/Imu`: header, orientation (4), orientation_covariance (9),
    /// angular_velocity (3), its covariance (9), linear_acceleration (3), its covariance (9), all float64.
    static func imu(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> Imu {
        let (time, start) = try header(bytes, fail: fail)
        guard bytes.count - start == 37 * 8 else {
            throw fail("sensor_msgs/Imu body is \(bytes.count - start) bytes after the header, not \(37 * 8)")
        }
        let angular = start + 13 * 8
        let linear = angular + 12 * 8
        return Imu(time: time, linearAcceleration: vector(bytes, at: linear), angularVelocity: vector(bytes, at: angular))
    }

    /// Decodes a `sensor_msgs/MagneticField`: header, magnetic_field (3), covariance (9), all
    /// float64. Returns the stamp (s) and the field in tesla.
    static func magneticField(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> (time: Double, field: SIMD3<Double>) {
        let (time, start) = try header(bytes, fail: fail)
        guard bytes.count - start == 12 * 8 else {
            throw fail("sensor_msgs/MagneticField body is \(bytes.count - start) bytes after the header, not \(12 * 8)")
        }
        return (time, vector(bytes, at: start))
    }

    /// Three float64 from `index` (index + 24 ≤ count, checked by the caller).
    private static func vector(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> SIMD3<Double> {
        SIMD3(bytes.littleEndianDouble(at: index), bytes.littleEndianDouble(at: index + 8), bytes.littleEndianDouble(at: index + 16))
    }
}
