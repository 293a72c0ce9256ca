/// A channel of an MCAP file: one topic, how its messages are encoded and the schema they follow.
public struct McapChannel: Sendable, Equatable {
    /// The id that message records refer to.
    public var id: UInt16
    /// The topic name, e.g. `/imu/data`.
    public var topic: String
    /// How messages are encoded: `cdr` for ROS 2.
    public var messageEncoding: String
    /// The schema's name (`sensor_msgs/msg/Imu`), or empty when the channel has none.
    public var schemaName: String
    /// How the schema is written (`ros2msg`, `ros2idl`), or empty.
    public var schemaEncoding: String

    public init(id: UInt16, topic: String, messageEncoding: String, schemaName: String, schemaEncoding: String) {
        self.id = id; self.topic = topic; self.messageEncoding = messageEncoding
        self.schemaName = schemaName; self.schemaEncoding = schemaEncoding
    }

    /// The schema name, or `no schema`, for messages.
    var typeName: String { schemaName.isEmpty ? "no schema" : schemaName }
}
