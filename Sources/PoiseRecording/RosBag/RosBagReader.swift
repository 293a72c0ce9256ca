import Poise

/// Streams the IMU samples of a ROS 1 bag (format 2.0) in bounded memory.
///
/// What is read: one `sensor_msgs/Imu` topic (the first, or `ReadOptions.topic`) and, when the
/// bag has one, a `sensor_msgs/MagneticField` topic (the one in the IMU topic's namespace, else
/// the first). Everything else is listed in the schema as ignored.
///
/// - Time: the messages' header stamps (`sec + nsec·1e-9` s, the bag's clock: epoch or sim time),
///   not the record times.
/// - Units: `linear_acceleration` m/s² → g (÷ 9.80665; ROS reports specific force, +1 g on the
///   up axis at rest, as Poise does); `angular_velocity` rad/s; `magnetic_field` tesla → µT (× 1e6).
///   Axes stay in the message's `frame_id` frame.
/// - Magnetometer: a `MagneticField` message is delivered with the next IMU sample whose stamp is
///   at or after its own (not interpolated); other samples have `magneticField == nil`.
/// - The IMU's orientation quaternion is the device's own estimate, not ground truth: it is not
///   read (`truth` stays nil).
///
/// The bag's index (connection records after `index_pos`) is read first, then the chunks in file
/// order. Uncompressed chunks are read record by record from a buffer of
/// `ReadOptions.bufferSize` bytes (a record larger than that is an error); `bz2` chunks are
/// and `lz4` chunks are decompressed whole, one at a time (at most 64 MiB), by `Bzip2Decoder` and
/// `Lz4FrameDecoder`; other compressions are refused with an error naming the compression.
///
/// Errors are `RecordingError`s with line 0 and the place in the message: "record at byte N: …".
/// Strict mode stops at the first bad sample (non-finite value, stamp going backwards); lenient
/// mode drops it and records a `RecordingIssue`. A malformed record stops the read in both modes.
public final class RosBagReader: SampleSource {
    /// The file's first line.
    static let magic: [UInt8] = Array("#ROSBAG V2.0\n".utf8)

    public let path: String
    /// The topics as columns: the IMU topic's stamp, acceleration and rotation rate, the
    /// magnetometer's field, and every other connection as ignored (`format == .rosBag1`).
    public let schema: RecordingSchema
    public let options: ReadOptions
    /// Every connection of the bag, by id.
    public let connections: [RosBagConnection]
    /// The `sensor_msgs/Imu` topic read.
    public let imuTopic: String
    /// The `sensor_msgs/MagneticField` topic merged onto the IMU samples, if any.
    public let magneticFieldTopic: String?
    /// The first `options.maximumStoredIssues` issues, in file order.
    public private(set) var issues: [RecordingIssue] = []
    /// Delivered and dropped samples, issues by kind.
    public private(set) var summary = ReadSummary()
    /// `MagneticField` messages whose field was NaN or infinite (no reading; not delivered, not an issue).
    public private(set) var magneticFieldMessagesWithoutReading = 0
    /// Called for every issue as it is found.
    public var onIssue: ((RecordingIssue) -> Void)?

    private let input: RosBagInput
    private let imuConnections: Set<UInt32>
    private let magneticFieldConnections: Set<UInt32>
    /// Offset of the first record after the chunks (`index_pos`).
    private let indexPosition: Int
    /// End offset of the uncompressed chunk being read, or nil between chunks.
    private var chunkEnd: Int?
    /// The decompressed chunk being read, or nil.
    private var chunkInput: RosBagInput?
    private let accelerationScale: Double
    /// Magnetometer readings not delivered yet (stamp s, field µT), in record order.
    private var pendingFields: [(time: Double, field: SIMD3<Double>)] = []
    private var previousTime: Double?
    /// The accepted IMU message not delivered yet.
    private var held: RosMessageLayout.Imu?
    private var finished = false

    /// At most this many magnetometer readings wait for an IMU sample; older ones are dropped.
    static let maximumPendingFields = 1024

    /// Whether `path` is a regular file that starts with `#ROSBAG V2.0` (reads 13 bytes; false
    /// for `-`, pipes and unreadable files, which are never opened here).
    public static func recognizes(path: String) -> Bool {
        guard path != "-", RosBagInput.isRegularFile(path), let input = try? RosBagInput(path: path, capacity: 4096),
              input.fileSize >= magic.count, let head = try? input.bytes(count: magic.count) else { return false }
        return head.elementsEqual(magic)
    }

    /// Opens a bag and reads its index.
    ///
    /// - Throws: `RecordingError` when the file is not a ROS 1 bag v2.0, is truncated, has a
    ///   malformed record, is not indexed, has no `sensor_msgs/Imu` topic (the message lists its
    ///   topics and types), or `options.topic` names no IMU topic.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        if options.columns != nil || options.skipLines > 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "--columns and --skip-lines describe a CSV file; a ROS bag's topics are chosen with --topic")
        }
        let input = try RosBagInput(path: path, capacity: options.bufferSize)
        self.input = input
        guard input.fileSize >= Self.magic.count, try input.bytes(count: Self.magic.count).elementsEqual(Self.magic) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "not a ROS 1 bag v2.0 (the first line is not #ROSBAG V2.0)")
        }
        // The bag header record: where the index is.
        let headerOffset = input.offset
        guard let (bagHeader, bagHeaderData) = try Self.nextRecord(input, limit: input.fileSize) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): the file ends after its first line")
        }
        guard bagHeader.op == .bagHeader, let rawIndex = bagHeader.indexPosition else {
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): the first record is not a bag header with index_pos")
        }
        input.skip(bagHeaderData)
        let dataStart = input.offset
        guard rawIndex != 0 else {
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): the bag is not indexed (index_pos 0, recording not closed): run `rosbag reindex` on it")
        }
        guard let index = Int(exactly: rawIndex), index >= dataStart, index <= input.fileSize else {
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): index_pos \(rawIndex) is outside the \(input.fileSize)-byte file (truncated bag?)")
        }
        indexPosition = index
        // The index: connection and chunk info records up to the end of the file.
        input.seek(to: index)
        var found: [UInt32: RosBagConnection] = [:]
        while true {
            let offset = input.offset
            guard let (header, dataLength) = try Self.nextRecord(input, limit: input.fileSize) else { break }
            if header.op == .connection {
                let data = try Self.data(input, count: dataLength, recordOffset: offset)
                let connection = try RosBagConnection(header: header, data: data) { input.failure(at: offset, "connection \($0)") }
                found[connection.id] = connection
            } else {
                input.skip(dataLength)
            }
        }
        connections = found.values.sorted { $0.id < $1.id }
        let choice = try Self.chooseTopics(connections, wanted: options.topic, path: path)
        imuTopic = choice.imu
        magneticFieldTopic = choice.magneticField
        imuConnections = Set(connections.filter { $0.topic == choice.imu }.map(\.id))
        magneticFieldConnections = Set(connections.filter { $0.topic == choice.magneticField }.map(\.id))
        accelerationScale = (options.appleAccelerometerSign ? -1 : 1) / Units.standardGravity
        schema = Self.schema(connections, imu: choice.imu, magneticField: choice.magneticField, accelerationScale: accelerationScale)
        input.seek(to: dataStart)
    }

    public func next() throws -> MotionSample? {
        while !finished {
            let input = chunkInput ?? self.input
            let offset = input.offset
            let limit = chunkInput?.fileSize ?? chunkEnd ?? indexPosition
            guard let (header, dataLength) = try Self.nextRecord(input, limit: limit) else {
                if chunkInput != nil { chunkInput = nil; continue }
                if chunkEnd != nil { chunkEnd = nil; continue }
                finished = true
                if let last = held {
                    held = nil
                    return sample(from: last)
                }
                break
            }
            let failure = { (message: String) in input.failure(at: offset, message) }
            switch header.op {
            case .chunk:
                guard chunkEnd == nil && chunkInput == nil else { throw failure("a chunk inside a chunk") }
                switch header.compression ?? "none" {
                case "none":
                    chunkEnd = input.offset + dataLength
                case "bz2", "lz4":
                    chunkInput = try decompressedChunk(header, dataLength: dataLength, at: offset)
                case let compression:
                    throw failure("chunk compressed with \(compression): Poise reads uncompressed, bz2 and lz4 chunks only (`rosbag decompress` writes an uncompressed bag)")
                }
            case .messageData:
                guard let id = header.connection else { throw failure("message data record without a conn field") }
                if imuConnections.contains(id) {
                    let data = try Self.data(input, count: dataLength, recordOffset: offset)
                    let message = try RosMessageLayout.imu(data) { failure("\(imuTopic): \($0)") }
                    if try accept(message, at: (input, offset)) {
                        // Held back one message, so magnetometer readings recorded just after an
                        // IMU message with the same stamp still join it.
                        let ready = held
                        held = message
                        if let ready { return sample(from: ready) }
                    }
                } else if magneticFieldConnections.contains(id) {
                    let data = try Self.data(input, count: dataLength, recordOffset: offset)
                    let message = try RosMessageLayout.magneticField(data) { failure("\(magneticFieldTopic ?? ""): \($0)") }
                    try addField(time: message.time, field: message.field * 1e6, at: (input, offset))
                } else {
                    input.skip(dataLength)
                }
            default:
                input.skip(dataLength)
            }
        }
        return nil
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        try readByNext(into: &samples, maximumCount: maximumCount)
    }

    /// Decompresses the bz2 or lz4 chunk whose data follows (`dataLength` bytes; at most 64 MiB
    /// compressed and decompressed, as its `size` field says).
    private func decompressedChunk(_ header: RosBagRecordHeader, dataLength: Int, at offset: Int) throws -> RosBagInput {
        guard let size = header.size.flatMap({ Int(exactly: $0) }) else { throw input.failure(at: offset, "chunk without a size field") }
        guard size <= Self.maximumChunkSize, dataLength <= Self.maximumChunkSize else {
            throw input.failure(at: offset, "chunk of \(dataLength) bytes (\(size) decompressed) is larger than the \(Self.maximumChunkSize)-byte limit")
        }
        let compression = header.compression ?? ""
        func decode(_ compressed: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
            do {
                return compression == "lz4" ? try Lz4FrameDecoder.decompress(compressed, expectedSize: size)
                                            : try Bzip2Decoder.decompress(compressed, expectedSize: size)
            } catch let failure as Bzip2Decoder.Failure {
                throw input.failure(at: offset, "bz2 chunk: \(failure)")
            } catch let failure as Lz4FrameDecoder.Failure {
                throw input.failure(at: offset, "lz4 chunk: \(failure)")
            }
        }
        // A chunk larger than the read buffer is copied out of it first.
        let bytes = dataLength <= input.capacity
            ? try decode(try input.bytes(count: dataLength))
            : try input.copy(count: dataLength).withUnsafeBufferPointer(decode)
        return RosBagInput(path: path, bytes: bytes) { "record at byte \($0) of the \(compression) chunk at byte \(offset)" }
    }

    /// The largest decompressed chunk read (bytes): chunks are held whole in memory.
    static let maximumChunkSize = 64 << 20

    // MARK: - Samples

    /// Checks an IMU message: false when it is dropped (lenient mode) for a non-finite value or a
    /// stamp going backwards.
    private func accept(_ message: RosMessageLayout.Imu, at offset: (RosBagInput, Int)) throws -> Bool {
        let sum = message.linearAcceleration + message.angularVelocity
        if !(message.time.isFinite && (sum * 0).sum() == 0) {
            try problem(.nonFinite, at: offset, "\(imuTopic): non-finite value in stamp, linear_acceleration or angular_velocity", isError: true)
            return false
        }
        if let previousTime {
            if message.time < previousTime {
                try problem(.timeBackwards, at: offset, "\(imuTopic): stamp \(message.time) s is earlier than the previous message's \(previousTime) s", isError: true)
                return false
            }
            if message.time == previousTime {
                try problem(.duplicateTime, at: offset, "\(imuTopic): stamp \(message.time) s repeats the previous message's", isError: false)
            }
        }
        previousTime = message.time
        return true
    }

    /// The sample for an accepted message, with the latest magnetometer reading stamped at or
    /// before it that no earlier sample took.
    private func sample(from message: RosMessageLayout.Imu) -> MotionSample {
        var field: SIMD3<Double>?
        var delivered = 0
        for pending in pendingFields where pending.time <= message.time {
            field = pending.field
            delivered += 1
        }
        if delivered > 0 { pendingFields.removeAll { $0.time <= message.time } }
        summary.rowsDelivered += 1
        return MotionSample(time: message.time, acceleration: message.linearAcceleration * accelerationScale,
                            rotationRate: message.angularVelocity, magneticField: field)
    }

    /// Queues a magnetometer reading (µT) for the next IMU sample at or after its stamp. A
    /// message with a NaN or infinite field is no reading (drivers such as the Phidgets one send
    /// NaN when the magnetometer has no new value): it is counted, not an error.
    private func addField(time: Double, field: SIMD3<Double>, at place: (RosBagInput, Int)) throws {
        guard field.x.isFinite, field.y.isFinite, field.z.isFinite else {
            magneticFieldMessagesWithoutReading += 1
            return
        }
        guard time.isFinite else {
            try problem(.nonFinite, at: place, "\(magneticFieldTopic ?? ""): non-finite stamp", isError: true, dropsSample: false)
            return
        }
        if pendingFields.count >= Self.maximumPendingFields { pendingFields.removeFirst() }
        pendingFields.append((time, field))
    }

    /// Throws an error in strict mode; otherwise records the issue (errors drop the sample).
    private func problem(_ kind: RecordingIssue.Kind, at place: (input: RosBagInput, offset: Int), _ message: String,
                         isError: Bool, dropsSample: Bool = true) throws {
        let location = place.input.failure(at: place.offset, message)
        if isError && options.strict {
            record(RecordingIssue(kind: kind, action: .stopped, location: location))
            throw location
        }
        if isError && dropsSample { summary.rowsDropped += 1 }
        record(RecordingIssue(kind: kind, action: isError ? .dropped : .kept, location: location))
    }

    private func record(_ issue: RecordingIssue) {
        summary.issueCounts[issue.kind, default: 0] += 1
        if issues.count < options.maximumStoredIssues { issues.append(issue) }
        onIssue?(issue)
    }

    // MARK: - Records

    /// Reads the next record's header and data length, leaving the input at its data; nil when
    /// `limit` (end of the chunk, of the chunk section or of the file) is reached exactly.
    ///
    /// - Throws: `RecordingError` ("record at byte N: …") for lengths that run past `limit` and
    ///   for malformed headers.
    static func nextRecord(_ input: RosBagInput, limit: Int) throws -> (RosBagRecordHeader, Int)? {
        let offset = input.offset
        func fail(_ message: String) -> RecordingError { input.failure(at: offset, message) }
        let end = min(limit, input.fileSize)
        if offset == end { return nil }
        let available = end - offset
        let place = end == input.fileSize ? "the end of the \(input.descriptorIsFile ? "file" : "chunk")" : "byte \(end)"
        guard available >= 8 else { throw fail("only \(available) bytes before \(place), too few for a record (truncated?)") }
        let headerLength = Int(try input.bytes(count: 4).littleEndianUInt32(at: 0))
        guard headerLength <= available - 8 else {
            throw fail("header length \(headerLength) runs past \(place) (\(available - 8) bytes left)")
        }
        guard headerLength <= input.capacity else {
            throw fail("header length \(headerLength) is larger than the \(input.capacity)-byte read buffer")
        }
        let header = try RosBagRecordHeader(try input.bytes(count: headerLength), fail: fail)
        let dataLength = Int(try input.bytes(count: 4).littleEndianUInt32(at: 0))
        guard dataLength <= available - 8 - headerLength else {
            throw fail("data length \(dataLength) runs past \(place) (\(available - 8 - headerLength) bytes left)")
        }
        return (header, dataLength)
    }

    /// The `count` data bytes of the record at `recordOffset`, which must fit the buffer.
    static func data(_ input: RosBagInput, count: Int, recordOffset: Int) throws -> UnsafeBufferPointer<UInt8> {
        guard count <= input.capacity else {
            throw input.failure(at: recordOffset, "\(count) data bytes, larger than the \(input.capacity)-byte read buffer (ReadOptions.bufferSize)")
        }
        return try input.bytes(count: count)
    }

    // MARK: - Topics and schema

    /// The IMU topic (`wanted`, or the first) and the magnetometer topic to merge onto it.
    static func chooseTopics(_ connections: [RosBagConnection], wanted: String?, path: String) throws -> (imu: String, magneticField: String?) {
        func fail(_ message: String) -> RecordingError {
            let list = connections.map { "\($0.topic) (\($0.type))" }
            return RecordingError(file: path, line: 0, column: 0,
                                  message: "\(message); the bag has \(list.isEmpty ? "no topics" : list.joined(separator: ", "))")
        }
        let imus = connections.filter { $0.type == "sensor_msgs/Imu" }
        let imu: RosBagConnection
        if let wanted {
            guard let named = connections.first(where: { $0.topic == wanted }) else { throw fail("no topic \(wanted)") }
            guard named.type == "sensor_msgs/Imu" else { throw fail("topic \(wanted) is \(named.type), not sensor_msgs/Imu") }
            imu = named
        } else {
            guard let first = imus.first else { throw fail("no sensor_msgs/Imu topic") }
            imu = first
        }
        guard imu.md5sum == RosMessageLayout.imuMD5 else {
            throw fail("topic \(imu.topic) has a sensor_msgs/Imu definition with MD5 \(imu.md5sum), not the standard \(RosMessageLayout.imuMD5)")
        }
        let magnetometers = connections.filter { $0.type == "sensor_msgs/MagneticField" && $0.md5sum == RosMessageLayout.magneticFieldMD5 }
        let namespace = imu.topic.split(separator: "/").dropLast().joined(separator: "/")
        let sameNamespace = magnetometers.first { $0.topic.split(separator: "/").dropLast().joined(separator: "/") == namespace }
        return (imu.topic, (sameNamespace ?? magnetometers.first)?.topic)
    }

    /// The topics as columns, in the order time, acceleration, rotation rate, orientation,
    /// magnetic field, then the other topics (ignored).
    static func schema(_ connections: [RosBagConnection], imu: String, magneticField: String?, accelerationScale: Double) -> RecordingSchema {
        var columns = [ColumnMapping(name: "\(imu) header.stamp", meaning: .time(scale: 1), unit: "s")]
        for (axis, name) in ["x", "y", "z"].enumerated() {
            columns.append(ColumnMapping(name: "\(imu) linear_acceleration.\(name)", meaning: .acceleration(axis: axis, scale: accelerationScale), unit: "m/s²"))
        }
        for (axis, name) in ["x", "y", "z"].enumerated() {
            columns.append(ColumnMapping(name: "\(imu) angular_velocity.\(name)", meaning: .rotationRate(axis: axis, scale: 1), unit: "rad/s"))
        }
        columns.append(ColumnMapping(name: "\(imu) orientation", meaning: .ignored(reason: "the device's own estimate (x, y, z, w), not ground truth"), unit: ""))
        if let magneticField {
            for (axis, name) in ["x", "y", "z"].enumerated() {
                columns.append(ColumnMapping(name: "\(magneticField) magnetic_field.\(name)", meaning: .magneticField(axis: axis, scale: 1e6), unit: "T"))
            }
        }
        var listed: Set<String> = [imu]
        if let magneticField { listed.insert(magneticField) }
        for connection in connections where !listed.contains(connection.topic) {
            listed.insert(connection.topic)
            columns.append(ColumnMapping(name: connection.topic, meaning: .ignored(reason: "\(connection.type), not read"), unit: ""))
        }
        return RecordingSchema(format: .rosBag1, columns: columns)
    }
}
