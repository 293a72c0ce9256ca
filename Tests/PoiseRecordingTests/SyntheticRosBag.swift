import Foundation

/// Builds small ROS 1 bags (format 2.0) byte by byte for tests: one chunk holding the connection
/// records and messages, then the index (the connection records again), as `rosbag` writes them.
struct SyntheticRosBag {
    struct Connection { var id: UInt32; var topic: String; var type: String; var md5sum: String }

    static let imuMD5 = "6a62c6daae103f4ff57a132d6f95cec2"
    static let magneticFieldMD5 = "2f3b0b43eed0c9501de0fa3ff89a45aa"

    var connections: [Connection] = []
    /// Message data records: connection id and serialized message.
    var messages: [(connection: UInt32, data: [UInt8])] = []
    /// The chunk's `compression` field. `lz4` wraps the chunk in an LZ4 frame of one stored
    /// block (FLG 0x40, BD 0x40, header checksum 0xC0: the frame header the `lz4` command writes
    /// with `-B4 -BD --no-frame-crc`); any other value leaves the bytes as they are.
    var compression = "none"

    /// A `sensor_msgs/Imu` message: stamp (sec, nsec), acceleration m/s², angular velocity rad/s.
    static func imu(sec: UInt32, nsec: UInt32, acceleration: SIMD3<Double>, angularVelocity: SIMD3<Double>) -> [UInt8] {
        var bytes = header(sec: sec, nsec: nsec)
        let orientation = [0.0, 0, 0, 1] + [Double](repeating: 0, count: 9)
        let values = orientation + [angularVelocity.x, angularVelocity.y, angularVelocity.z] + [Double](repeating: 0, count: 9)
            + [acceleration.x, acceleration.y, acceleration.z] + [Double](repeating: 0, count: 9)
        for v in values { bytes += le(v.bitPattern) }
        return bytes
    }

    /// A `sensor_msgs/MagneticField` message: stamp and field in tesla.
    static func magneticField(sec: UInt32, nsec: UInt32, field: SIMD3<Double>) -> [UInt8] {
        var bytes = header(sec: sec, nsec: nsec)
        for v in [field.x, field.y, field.z] + [Double](repeating: 0, count: 9) { bytes += le(v.bitPattern) }
        return bytes
    }

    /// The whole file.
    func bytes() -> [UInt8] {
        var chunk: [UInt8] = []
        for c in connections { chunk += connectionRecord(c) }
        for m in messages {
            chunk += Self.record([Self.field("op", [0x02]), Self.field("conn", Self.le(m.connection)), Self.field("time", Self.le(UInt64(0)))], data: m.data)
        }
        var file = Array("#ROSBAG V2.0\n".utf8)
        let bagHeaderSize = 4096
        let stored = compression == "lz4" ? Self.le(UInt32(0x184D_2204)) + [0x40, 0x40, 0xC0] + Self.le(UInt32(chunk.count) | 0x8000_0000) + chunk + Self.le(UInt32(0)) : chunk
        let chunkRecord = Self.record([Self.field("op", [0x05]), Self.field("compression", Array(compression.utf8)),
                                       Self.field("size", Self.le(UInt32(chunk.count)))], data: stored)
        let indexPosition = UInt64(file.count + bagHeaderSize + chunkRecord.count)
        let headerFields = [Self.field("op", [0x03]), Self.field("index_pos", Self.le(indexPosition)),
                            Self.field("conn_count", Self.le(UInt32(connections.count))), Self.field("chunk_count", Self.le(UInt32(1)))]
        let headerLength = headerFields.reduce(0) { $0 + $1.count }
        file += Self.record(headerFields, data: [UInt8](repeating: 0x20, count: bagHeaderSize - 8 - headerLength))
        file += chunkRecord
        for c in connections { file += connectionRecord(c) }
        return file
    }

    private func connectionRecord(_ c: Connection) -> [UInt8] {
        let data = [Self.field("topic", Array(c.topic.utf8)), Self.field("type", Array(c.type.utf8)),
                    Self.field("md5sum", Array(c.md5sum.utf8)), Self.field("message_definition", Array("...".utf8))].flatMap { $0 }
        return Self.record([Self.field("op", [0x07]), Self.field("conn", Self.le(c.id)), Self.field("topic", Array(c.topic.utf8))], data: data)
    }

    static func record(_ fields: [[UInt8]], data: [UInt8]) -> [UInt8] {
        let header = fields.flatMap { $0 }
        return le(UInt32(header.count)) + header + le(UInt32(data.count)) + data
    }

    static func field(_ name: String, _ value: [UInt8]) -> [UInt8] {
        let body = Array(name.utf8) + [UInt8(ascii: "=")] + value
        return le(UInt32(body.count)) + body
    }

    static func header(sec: UInt32, nsec: UInt32) -> [UInt8] {
        le(UInt32(0)) + le(sec) + le(nsec) + le(UInt32(3)) + Array("imu".utf8)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
