/// A connection of a ROS 1 bag: one topic with one message type, as its connection record says.
public struct RosBagConnection: Sendable, Equatable {
    /// The `conn` id that message data records refer to.
    public var id: UInt32
    /// The topic name, e.g. `/imu/data`.
    public var topic: String
    /// The message type, e.g. `sensor_msgs/Imu`.
    public var type: String
    /// The MD5 sum of the message definition, which identifies the definition's layout.
    public var md5sum: String

    public init(id: UInt32, topic: String, type: String, md5sum: String) {
        self.id = id; self.topic = topic; self.type = type; self.md5sum = md5sum
    }

    /// Reads a connection record: `header` gives the id and topic, `data` (the connection header)
    /// the type and MD5 sum.
    ///
    /// - Throws: `fail(…)` for a malformed data block or a missing field.
    init(header: RosBagRecordHeader, data: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws {
        guard let id = header.connection else { throw fail("record without a conn field") }
        var topic = header.topic
        var type: String?
        var md5sum = ""
        try RosBagRecordHeader.forEachField(in: data, fail: fail) { name, value in
            if RosBagRecordHeader.equal(name, "type") {
                type = String(decoding: value, as: UTF8.self)
            } else if RosBagRecordHeader.equal(name, "md5sum") {
                md5sum = String(decoding: value, as: UTF8.self)
            } else if topic == nil, RosBagRecordHeader.equal(name, "topic") {
                topic = String(decoding: value, as: UTF8.self)
            }
        }
        guard let topic else { throw fail("\(id) has no topic") }
        guard let type else { throw fail("\(id) (\(topic)) has no message type") }
        self.init(id: id, topic: topic, type: type, md5sum: md5sum)
    }
}
