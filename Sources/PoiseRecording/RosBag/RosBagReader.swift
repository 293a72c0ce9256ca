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
/// `ReadOptions.bufferSize` bytes (a record larger than that is an error); `bz2` and `lz4` chunks
/// are decompressed whole, one at a time, into their declared size (at most 64 MiB), by libbz2
/// and liblz4 (`ChunkDecompression`: every CRC and xxHash the data carries checked); other
/// compressions are refused with an error naming the compression.
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
    public var issues: [RecordingIssue] { merger.issues }
    /// Delivered and dropped samples, issues by kind.
    public var summary: ReadSummary { merger.summary }
    /// `MagneticField` messages whose field was NaN or infinite (no reading; not delivered, not an issue).
    public var magneticFieldMessagesWithoutReading: Int { merger.magneticFieldMessagesWithoutReading }
    /// Called for every issue as it is found.
    public var onIssue: ((RecordingIssue) -> Void)? {
        get { merger.onIssue }
        set { merger.onIssue = newValue }
    }

    private let input: RosBagInput
    /// False for a bag read without its index (lenient reading of a bag whose recorder did not
    /// close it): the records end at the first one the end of the file cuts.
    public let isIndexed: Bool
    private let imuConnections: Set<UInt32>
    private let magneticFieldConnections: Set<UInt32>
    /// Offset of the first record after the chunks (`index_pos`).
    private let indexPosition: Int
    /// End offset of the uncompressed chunk being read, or nil between chunks.
    private var chunkEnd: Int?
    /// The decompressed chunk being read, or nil.
    private var chunkInput: RosBagInput?
    /// Units, the magnetometer merge, sample checks and issues.
    private var merger: RosImuMerger
    private var finished = false

    /// Whether `path` is a regular file that starts with `#ROSBAG V2.0` (reads 13 bytes; false
    /// for `-`, pipes and unreadable files, which are never opened here).
    public static func recognizes(path: String) -> Bool {
        RosBagInput.regularFile(path, startsWith: magic)
    }

    /// Opens a bag and reads its index.
    ///
    /// - Throws: `RecordingError` when the file is not a ROS 1 bag v2.0, is truncated, has a
    ///   malformed record, is not indexed, has no `sensor_msgs/Imu` topic (the message lists its
    ///   topics and types), or `options.topic` names no IMU topic.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        try options.refuseCSVLayout(path: path, "a ROS bag's topics are chosen with --topic")
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
        // A bag whose recorder did not close it has index_pos 0; one cut short points past its end.
        let unclosed = rawIndex == 0 || rawIndex > UInt64(input.fileSize)
        if unclosed && options.strict {
            let why = rawIndex == 0 ? "the bag is not indexed (index_pos 0, recording not closed): run `rosbag reindex` on it"
                : "truncated at byte \(input.fileSize) (the recorder did not close the file?): index_pos \(rawIndex) is past the end, so the bag's index is lost (`rosbag reindex` rebuilds it; lenient reading keeps the messages before the cut)"
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): \(why)")
        }
        guard let index = unclosed ? input.fileSize : Int(exactly: rawIndex), index >= dataStart else {
            throw RecordingError(file: path, line: 0, column: 0, message: "record at byte \(headerOffset): index_pos \(rawIndex) is before the first record (damaged bag?)")
        }
        indexPosition = index
        isIndexed = !unclosed
        var found: [UInt32: RosBagConnection] = [:]
        func take(_ header: RosBagRecordHeader, _ dataLength: Int, at offset: Int, from input: RosBagInput) throws {
            let data = try Self.data(input, count: dataLength, recordOffset: offset)
            let connection = try RosBagConnection(header: header, data: data) { input.failure(at: offset, "connection \($0)") }
            if found[connection.id] == nil { found[connection.id] = connection }
        }
        if unclosed {
            // No index (lenient reading): the connection records are found by a scan of the
            // records, in chunks too, up to the first record the end of the file cuts.
            input.seek(to: dataStart)
            scan: while true {
                let offset = input.offset
                guard let (header, dataLength) = try? Self.nextRecord(input, limit: input.fileSize) else { break scan }
                switch header.op {
                case .connection:
                    try take(header, dataLength, at: offset, from: input)
                case .chunk where (header.compression ?? "none") == "none":
                    break  // its records follow
                case .chunk where ["bz2", "lz4"].contains(header.compression ?? ""):
                    let chunk = try RosBagReader.decompressedChunk(input, header, dataLength: dataLength, at: offset)
                    while let (inner, innerLength) = try Self.nextRecord(chunk, limit: chunk.fileSize) {
                        let innerOffset = chunk.offset
                        if inner.op == .connection { try take(inner, innerLength, at: innerOffset, from: chunk) } else { chunk.skip(innerLength) }
                    }
                default:
                    input.skip(dataLength)
                }
            }
        } else {
            // The index: connection and chunk info records up to the end of the file.
            input.seek(to: index)
            while true {
                let offset = input.offset
                guard let (header, dataLength) = try Self.nextRecord(input, limit: input.fileSize) else { break }
                if header.op == .connection { try take(header, dataLength, at: offset, from: input) } else { input.skip(dataLength) }
            }
        }
        connections = found.values.sorted { $0.id < $1.id }
        let connections = self.connections
        let topics = connections.map { (topic: $0.topic, type: $0.type) }
        let choice = try RosImuMerger.chooseTopics(topics, imuType: "sensor_msgs/Imu", magneticFieldType: "sensor_msgs/MagneticField",
                                                   wanted: options.topic, path: path, container: "bag") { index in
            let (type, md5) = (connections[index].type, connections[index].md5sum)
            let standard = type == "sensor_msgs/Imu" ? RosMessageLayout.imuMD5 : RosMessageLayout.magneticFieldMD5
            return md5 == standard ? nil : "has a \(type) definition with MD5 \(md5), not the standard \(standard)"
        }
        imuTopic = choice.imu
        magneticFieldTopic = choice.magneticField
        imuConnections = Set(connections.filter { $0.topic == choice.imu }.map(\.id))
        magneticFieldConnections = Set(connections.filter { $0.topic == choice.magneticField }.map(\.id))
        merger = RosImuMerger(options: options, imuTopic: choice.imu, magneticFieldTopic: choice.magneticField)
        schema = RosImuMerger.schema(topics, format: .rosBag1, imu: choice.imu, magneticField: choice.magneticField,
                                     accelerationScale: merger.accelerationScale)
        input.seek(to: dataStart)
    }

    public func next() throws -> MotionSample? {
        while !finished {
            let input = chunkInput ?? self.input
            let offset = input.offset
            let limit = chunkInput?.fileSize ?? chunkEnd ?? indexPosition
            let next: (RosBagRecordHeader, Int)?
            do {
                next = try Self.nextRecord(input, limit: limit)
            } catch is RecordingError where !isIndexed && chunkInput == nil && limit == self.input.fileSize {
                // The end of an unclosed bag: the cut record and what it held are lost.
                try merger.note(.truncatedLastLine, RecordingError(file: path, line: 0, column: 0, message: "record at byte \(offset): truncated at byte \(self.input.fileSize) (the recorder did not close the file?): \(self.input.fileSize - offset) bytes of a record are there; the messages of the record (a whole chunk, when it is one) are lost"), isError: true)
                finished = true
                if let last = merger.finish() { return last }
                break
            }
            guard let (header, dataLength) = next else {
                if chunkInput != nil { chunkInput = nil; continue }
                if chunkEnd != nil { chunkEnd = nil; continue }
                finished = true
                if let last = merger.finish() { return last }
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
                    chunkInput = try Self.decompressedChunk(self.input, header, dataLength: dataLength, at: offset)
                case let compression:
                    throw failure("chunk compressed with \(compression): Poise reads uncompressed, bz2 and lz4 chunks only (`rosbag decompress` writes an uncompressed bag)")
                }
            case .messageData:
                guard let id = header.connection else { throw failure("message data record without a conn field") }
                if imuConnections.contains(id) {
                    let data = try Self.data(input, count: dataLength, recordOffset: offset)
                    let message = try RosMessageLayout.imu(data) { failure("\(imuTopic): \($0)") }
                    if let sample = try merger.add(message, failure: failure) { return sample }
                } else if magneticFieldConnections.contains(id) {
                    let data = try Self.data(input, count: dataLength, recordOffset: offset)
                    let message = try RosMessageLayout.magneticField(data) { failure("\(magneticFieldTopic ?? ""): \($0)") }
                    try merger.addField(time: message.time, field: message.field * 1e6, failure: failure)
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
    /// compressed and decompressed, as its `size` field says) into a buffer of its declared size.
    private static func decompressedChunk(_ input: RosBagInput, _ header: RosBagRecordHeader, dataLength: Int, at offset: Int) throws -> RosBagInput {
        guard let size = header.size.flatMap({ Int(exactly: $0) }) else { throw input.failure(at: offset, "chunk without a size field") }
        guard size <= maximumChunkSize, dataLength <= maximumChunkSize else {
            throw input.failure(at: offset, "chunk of \(dataLength) bytes (\(size) decompressed) is larger than the \(maximumChunkSize)-byte limit")
        }
        let compression = header.compression ?? ""
        return try RosBagInput(path: input.path, size: size, place: { "record at byte \($0) of the \(compression) chunk at byte \(offset)" }) { output in
            do {
                return try ChunkDecompression.decompress(compression == "lz4" ? .lz4 : .bzip2, from: input, count: dataLength, into: output)
            } catch let failure as ChunkDecompression.Failure {
                throw input.failure(at: offset, "\(compression) chunk: \(failure)")
            }
        }
    }

    /// The largest decompressed chunk read (bytes): chunks are held whole in memory.
    static let maximumChunkSize = 64 << 20

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
}
