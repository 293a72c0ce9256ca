/// Decodes the two ROS 2 message types Poise reads from their CDR bytes (OMG CDR as ROS 2's
/// middleware writes it, "XCDR1"): a 4-byte encapsulation header (`00 00` big endian, `00 01`
/// little endian, then 2 option bytes), then the fields in definition order, each primitive
/// aligned to its own size counted from the end of the encapsulation header; a string is a
/// `UInt32` byte count (with its terminating NUL) and the bytes.
///
/// Both types start with `std_msgs/msg/Header`: `builtin_interfaces/msg/Time stamp` (`int32
/// sec`, `uint32 nanosec`) and `string frame_id`. Values are returned in the message's own units
/// (m/s², rad/s, tesla).
enum CdrMessageLayout {
    /// Reads the encapsulation and the header; returns the stamp (s), the byte order and the
    /// offset of the first float64 after `frame_id` (aligned to 8 from the body's start).
    static func header(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> (time: Double, bigEndian: Bool, end: Int) {
        guard bytes.count >= 16 else { throw fail("message of \(bytes.count) bytes is shorter than its encapsulation and header") }
        guard bytes[0] == 0, bytes[1] <= 1 else {
            let kind = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            throw fail("CDR encapsulation 0x\(String(kind, radix: 16)): Poise reads plain CDR (0x0000 big endian, 0x0001 little endian)")
        }
        let bigEndian = bytes[1] == 0
        let body = UnsafeBufferPointer(rebasing: bytes[4...])
        let seconds = Int32(bitPattern: uint32(body, at: 0, bigEndian: bigEndian))
        let nanoseconds = uint32(body, at: 4, bigEndian: bigEndian)
        guard nanoseconds < 1_000_000_000 else { throw fail("header stamp has \(nanoseconds) ns (must be below 1e9)") }
        let frameLength = Int(uint32(body, at: 8, bigEndian: bigEndian))
        guard frameLength <= body.count - 12 else {
            throw fail("frame_id of \(frameLength) bytes runs past the end of the \(bytes.count)-byte message")
        }
        let end = (12 + frameLength + 7) & ~7
        return (Double(seconds) + Double(nanoseconds) * 1e-9, bigEndian, 4 + end)
    }

    /// Decodes a `sensor_msgs/msg/Imu`: header, orientation (4), orientation_covariance (9),
    /// angular_velocity (3), its covariance (9), linear_acceleration (3), its covariance (9), all float64.
    static func imu(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> RosImuMerger.Imu {
        let (time, bigEndian, start) = try header(bytes, fail: fail)
        try checkBody(bytes, start: start, doubles: 37, type: "sensor_msgs/msg/Imu", fail: fail)
        let angular = start + 13 * 8
        let linear = angular + 12 * 8
        return RosImuMerger.Imu(time: time, linearAcceleration: vector(bytes, at: linear, bigEndian: bigEndian),
                                angularVelocity: vector(bytes, at: angular, bigEndian: bigEndian))
    }

    /// Decodes a `sensor_msgs/msg/MagneticField`: header, magnetic_field (3), its covariance (9),
    /// all float64. Returns the stamp (s) and the field in tesla.
    static func magneticField(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws -> (time: Double, field: SIMD3<Double>) {
        let (time, bigEndian, start) = try header(bytes, fail: fail)
        try checkBody(bytes, start: start, doubles: 12, type: "sensor_msgs/msg/MagneticField", fail: fail)
        return (time, vector(bytes, at: start, bigEndian: bigEndian))
    }

    /// The body after the header must hold `doubles` float64 and at most 3 bytes of padding.
    private static func checkBody(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, doubles: Int, type: String,
                                  fail: (String) -> RecordingError) throws {
        let left = bytes.count - start
        guard left >= doubles * 8, left <= doubles * 8 + 3 else {
            throw fail("\(type) body is \(max(0, left)) bytes after the header, not \(doubles * 8)")
        }
    }

    private static func uint32(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, bigEndian: Bool) -> UInt32 {
        let value = bytes.littleEndianUInt32(at: index)
        return bigEndian ? value.byteSwapped : value
    }

    /// Three float64 from `index` (index + 24 ≤ count, checked by the caller).
    private static func vector(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, bigEndian: Bool) -> SIMD3<Double> {
        func double(_ at: Int) -> Double {
            let raw = bytes.littleEndianUInt64(at: at)
            return Double(bitPattern: bigEndian ? raw.byteSwapped : raw)
        }
        return SIMD3(double(index), double(index + 8), double(index + 16))
    }
}
