import Poise

/// Streams the IMU samples of an MCAP file holding ROS 2 messages, in bounded memory.
///
/// What is read: one `sensor_msgs/msg/Imu` channel (the first, or `ReadOptions.topic`) and, when
/// the file has one, a `sensor_msgs/msg/MagneticField` channel (the one in the IMU topic's
/// namespace, else the first), both CDR-encoded (`CdrMessageLayout`, little or big endian).
/// Every other channel is listed in the schema as ignored. Time, units, the magnetometer merge
/// and the handling of bad samples are those of `RosBagReader` (`RosImuMerger`): header stamps in
/// seconds, m/s² → g, rad/s, tesla → µT, the IMU's orientation not read.
///
/// - Summary: when the file was closed (footer and closing magic present) and has a summary
///   section, channels and schemas come from it (its CRC checked when written) and chunks whose
///   index says they hold none of the channels read are skipped undecompressed. Otherwise (a
///   recording that was not closed, or written without a summary) the records are scanned once
///   for channels first; `notes` says so.
/// - Chunks: uncompressed, `lz4` (liblz4) and `zstd` (libzstd) through `ChunkDecompression`, each
///   decompressed into its declared `uncompressed_size` and held whole in memory (at most 64 MiB;
///   more data than declared is an error), its `uncompressed_crc` checked when written (non-zero),
///   and the frames' own checksums checked by the libraries.
///   Messages outside chunks are read too. Other compressions are refused with an error naming
///   the compression.
/// - Errors: `RecordingError`s with line 0, "record at byte N: …" (inside a chunk: "record at byte
///   N of the zstd chunk at byte M: …"). A file that ends inside a record (a recording that was
///   not closed, or a truncated file) is an error in strict mode; lenient mode reads up to that
///   record and records a `truncatedLastLine` issue.
public final class McapReader: SampleSource {
    public let path: String
    /// The channels as columns (`format == .mcap`), as `RosBagReader` lists topics.
    public let schema: RecordingSchema
    public let options: ReadOptions
    /// Every channel of the file, by id.
    public let channels: [McapChannel]
    /// The header's profile (`ros2` for ROS 2 recordings).
    public let profile: String
    /// The `sensor_msgs/msg/Imu` topic read.
    public let imuTopic: String
    /// The `sensor_msgs/msg/MagneticField` topic merged onto the IMU samples, if any.
    public let magneticFieldTopic: String?
    /// Whether the file ends with a footer and the closing magic.
    public let isClosed: Bool
    /// Whether channels came from the summary section (else from a scan of the records).
    public let readSummary: Bool
    /// How the file was read, for `poise info`.
    public private(set) var notes: [String] = []
    /// The first `options.maximumStoredIssues` issues, in file order.
    public var issues: [RecordingIssue] { merger.issues }
    /// Delivered and dropped samples, issues by kind.
    public var summary: ReadSummary { merger.summary }
    /// `MagneticField` messages whose field was NaN or infinite (no reading; not delivered, not an issue).
    public var magneticFieldMessagesWithoutReading: Int { merger.magneticFieldMessagesWithoutReading }
    /// Chunks read and chunks skipped because the summary's index says they hold no channel read.
    public private(set) var chunksRead = 0
    public private(set) var chunksSkipped = 0
    /// Called for every issue as it is found.
    public var onIssue: ((RecordingIssue) -> Void)? {
        get { merger.onIssue }
        set { merger.onIssue = newValue }
    }

    private let input: RosBagInput
    /// First byte after the header record, and the end of the data section (the summary or the
    /// footer of a closed file, else the end of the file).
    private let dataStart: Int
    private let dataLimit: Int
    private let imuChannels: Set<UInt16>
    private let magneticFieldChannels: Set<UInt16>
    /// Channels present in each chunk (by the chunk's offset), from the summary's chunk indexes.
    private let chunkChannels: [Int: Set<UInt16>]
    /// The decompressed chunk being read, or nil, and whether the end of the file cut it.
    private var chunkInput: RosBagInput?
    private var chunkIsPartial = false
    private var merger: RosImuMerger
    private var finished = false

    /// The largest chunk read (bytes, compressed or not): chunks are held whole in memory.
    static let maximumChunkSize = 64 << 20

    /// Whether `path` is a regular file that starts with the MCAP magic (reads 8 bytes; false for
    /// `-`, pipes and unreadable files, which are never opened here).
    public static func recognizes(path: String) -> Bool {
        RosBagInput.regularFile(path, startsWith: McapRecord.magic)
    }

    /// Opens an MCAP file and finds its channels (from the summary, or by a scan of the records).
    ///
    /// - Throws: `RecordingError` when the file is not MCAP, has a malformed record, a chunk that
    ///   does not decompress or whose CRC differs, has no `sensor_msgs/msg/Imu` channel (the
    ///   message lists its topics and schemas), or `options.topic` names no IMU topic.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        try options.refuseCSVLayout(path: path, "an MCAP file's topics are chosen with --topic")
        let input = try RosBagInput(path: path, capacity: options.bufferSize)
        self.input = input
        guard input.fileSize >= McapRecord.magic.count, try input.bytes(count: McapRecord.magic.count).elementsEqual(McapRecord.magic) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "not an MCAP file (it does not start with the MCAP magic)")
        }
        // The header record.
        let headerOffset = input.offset
        guard let header = try Self.recordHead(input, limit: input.fileSize, cut: nil), header.opcode == McapRecord.Opcode.header.rawValue else {
            throw input.failure(at: headerOffset, "the file does not start with a header record")
        }
        let headerContent = try Self.content(input, header)
        var headerFields = McapRecord.Fields(headerContent) { input.failure(at: headerOffset, "header record: \($0)") }
        profile = try headerFields.string("profile")
        dataStart = input.offset

        // The footer, when the file was closed.
        let footerOffset = input.fileSize - McapRecord.magic.count - McapRecord.footerSize
        var summaryStart = 0
        var closed = false
        if footerOffset >= dataStart {
            input.seek(to: footerOffset)
            let footer = try input.bytes(count: McapRecord.footerSize + McapRecord.magic.count)
            if footer[0] == McapRecord.Opcode.footer.rawValue, footer.littleEndianUInt64(at: 1) == 20,
               UnsafeBufferPointer(rebasing: footer[McapRecord.footerSize...]).elementsEqual(McapRecord.magic) {
                closed = true
                let start = footer.littleEndianUInt64(at: 9)
                let crc = footer.littleEndianUInt32(at: 25)
                guard start == 0 || (start >= UInt64(dataStart) && start <= UInt64(footerOffset)) else {
                    throw input.failure(at: footerOffset, "footer record: summary_start \(start) is outside the data (\(dataStart)…\(footerOffset))")
                }
                summaryStart = Int(start)
                if summaryStart > 0 && crc != 0 {
                    let computed = try Self.crc(input, from: summaryStart, to: footerOffset + 1 + 8 + 16)
                    guard computed == crc else {
                        throw input.failure(at: footerOffset, "footer record: summary CRC 0x\(String(crc, radix: 16)) differs from the summary's 0x\(String(computed, radix: 16)) (damaged file)")
                    }
                }
            }
        }
        isClosed = closed
        dataLimit = summaryStart > 0 ? summaryStart : (closed ? footerOffset : input.fileSize)

        var found: [UInt16: McapChannel] = [:]
        var schemas: [UInt16: (name: String, encoding: String)] = [:]
        var chunkChannels: [Int: Set<UInt16>] = [:]
        func take(_ opcode: UInt8, _ fields: inout McapRecord.Fields) throws {
            switch opcode {
            case McapRecord.Opcode.schema.rawValue:
                let id = try fields.uint16("schema id")
                let name = try fields.string("schema name")
                let encoding = try fields.string("schema encoding")
                if schemas[id] == nil { schemas[id] = (name, encoding) }
            case McapRecord.Opcode.channel.rawValue:
                let id = try fields.uint16("channel id")
                let schemaId = try fields.uint16("schema id")
                let topic = try fields.string("topic")
                let encoding = try fields.string("message encoding")
                if found[id] == nil {
                    let schema = schemaId == 0 ? nil : schemas[schemaId]
                    guard schemaId == 0 || schema != nil else { throw fields.fail("channel \(id) (\(topic)) refers to schema \(schemaId), which is not defined before it") }
                    found[id] = McapChannel(id: id, topic: topic, messageEncoding: encoding, schemaName: schema?.name ?? "", schemaEncoding: schema?.encoding ?? "")
                }
            case McapRecord.Opcode.chunkIndex.rawValue:
                _ = try fields.uint64("message_start_time")
                _ = try fields.uint64("message_end_time")
                let start = try fields.uint64("chunk_start_offset")
                _ = try fields.uint64("chunk_length")
                let ids = try fields.channelIds("message_index_offsets")
                if let start = Int(exactly: start) { chunkChannels[start] = ids }
            default:
                break
            }
        }
        if summaryStart > 0 {
            input.seek(to: summaryStart)
            while let record = try Self.recordHead(input, limit: footerOffset, cut: nil) {
                let offset = input.offset - 9
                if [McapRecord.Opcode.schema, .channel, .chunkIndex].contains(where: { $0.rawValue == record.opcode }) {
                    var fields = McapRecord.Fields(try Self.content(input, record)) { input.failure(at: offset, "\(McapRecord.name(record.opcode)): \($0)") }
                    try take(record.opcode, &fields)
                } else {
                    input.skip(record.length)
                }
            }
        }
        readSummary = !found.isEmpty
        /// Where the end of the file cut a record, found by the scan.
        var truncation: RecordingError?
        if found.isEmpty {
            // No summary: a scan of the data section (chunks decompressed) for schemas and channels.
            chunkChannels = [:]
            input.seek(to: dataStart)
            scan: while let record = try Self.recordHead(input, limit: dataLimit, cut: { truncation = $0 }) {
                let offset = input.offset - 9
                switch record.opcode {
                case McapRecord.Opcode.schema.rawValue, McapRecord.Opcode.channel.rawValue:
                    var fields = McapRecord.Fields(try Self.content(input, record)) { input.failure(at: offset, "\(McapRecord.name(record.opcode)): \($0)") }
                    try take(record.opcode, &fields)
                case McapRecord.Opcode.chunk.rawValue:
                    var partial = false
                    let chunk = try Self.chunk(input, record, at: offset, path: path, cut: { truncation = $0 }, partial: &partial)
                    while let inner = try Self.recordHead(chunk, limit: chunk.fileSize, cut: partial ? { _ in } : nil) {
                        let innerOffset = chunk.offset - 9
                        if inner.opcode == McapRecord.Opcode.schema.rawValue || inner.opcode == McapRecord.Opcode.channel.rawValue {
                            var fields = McapRecord.Fields(try Self.content(chunk, inner)) { chunk.failure(at: innerOffset, "\(McapRecord.name(inner.opcode)): \($0)") }
                            try take(inner.opcode, &fields)
                        } else {
                            chunk.skip(inner.length)
                        }
                    }
                case McapRecord.Opcode.dataEnd.rawValue, McapRecord.Opcode.footer.rawValue:
                    break scan
                default:
                    input.skip(record.length)
                }
            }
        }
        self.chunkChannels = chunkChannels
        channels = found.values.sorted { $0.id < $1.id }

        let channels = self.channels
        let topics = channels.map { (topic: $0.topic, type: $0.typeName) }
        let choice: (imu: String, magneticField: String?)
        do {
            choice = try RosImuMerger.chooseTopics(topics, imuType: "sensor_msgs/msg/Imu", magneticFieldType: "sensor_msgs/msg/MagneticField",
                                                   wanted: options.topic, path: path, container: "MCAP file") { index in
                channels[index].messageEncoding == "cdr" ? nil
                    : "is encoded as \(channels[index].messageEncoding), not cdr: Poise reads ROS 2 (CDR) messages from MCAP files"
            }
        } catch let error as RecordingError where truncation != nil {
            // The channel may be in the part that is missing: the cut is the news.
            throw RecordingError(file: path, line: 0, column: 0, message: "\(truncation!.message); before the cut, \(error.message)")
        }
        imuTopic = choice.imu
        magneticFieldTopic = choice.magneticField
        imuChannels = Set(channels.filter { $0.topic == choice.imu && $0.schemaName == "sensor_msgs/msg/Imu" && $0.messageEncoding == "cdr" }.map(\.id))
        magneticFieldChannels = Set(channels.filter {
            $0.topic == choice.magneticField && $0.schemaName == "sensor_msgs/msg/MagneticField" && $0.messageEncoding == "cdr"
        }.map(\.id))
        merger = RosImuMerger(options: options, imuTopic: choice.imu, magneticFieldTopic: choice.magneticField)
        schema = RosImuMerger.schema(topics, format: .mcap, imu: choice.imu, magneticField: choice.magneticField,
                                     accelerationScale: merger.accelerationScale)
        if !closed {
            notes.append("not closed (no footer: the recording was interrupted or is still being written): channels found by a scan of the records, messages read up to the last whole record")
        } else if summaryStart == 0 || !readSummary {
            notes.append("closed without a summary section: channels found by a scan of the records")
        } else {
            notes.append("channels and chunk index read from the summary section")
        }
        input.seek(to: dataStart)
    }

    public func next() throws -> MotionSample? {
        while !finished {
            if let chunk = chunkInput {
                // A cut chunk's last record may be cut too: the truncation is noted already.
                guard let record = try Self.recordHead(chunk, limit: chunk.fileSize, cut: chunkIsPartial ? { _ in } : nil) else {
                    chunkInput = nil
                    continue
                }
                if let sample = try take(record, from: chunk) { return sample }
                continue
            }
            let cut: (RecordingError) throws -> Void = { [self] error in try merger.note(.truncatedLastLine, error, isError: true) }
            guard let record = try Self.recordHead(input, limit: dataLimit, cut: isClosed ? nil : cut) else {
                finished = true
                return merger.finish()
            }
            let offset = input.offset - 9
            switch record.opcode {
            case McapRecord.Opcode.chunk.rawValue:
                if let ids = chunkChannels[offset], !ids.isEmpty, ids.isDisjoint(with: imuChannels), ids.isDisjoint(with: magneticFieldChannels) {
                    chunksSkipped += 1
                    input.skip(record.length)
                } else {
                    chunksRead += 1
                    chunkInput = try Self.chunk(input, record, at: offset, path: path, cut: cut, partial: &chunkIsPartial)
                }
            case McapRecord.Opcode.dataEnd.rawValue:
                try checkDataSection(record, at: offset)
                if !isClosed {
                    // The summary and footer of a file that was not closed: a cut one is truncation too.
                    while let rest = try Self.recordHead(input, limit: input.fileSize, cut: cut) { input.skip(rest.length) }
                }
                finished = true
                return merger.finish()
            case McapRecord.Opcode.footer.rawValue:
                finished = true
                return merger.finish()
            default:
                if let sample = try take(record, from: input) { return sample }
            }
        }
        return nil
    }

    /// Checks the data end record's `data_section_crc` (the CRC-32 of every byte before it) when
    /// one is written (non-zero), reading the data section again.
    private func checkDataSection(_ record: (opcode: UInt8, length: Int), at offset: Int) throws {
        guard record.length >= 4 else { throw input.failure(at: offset, "data end record: \(record.length) bytes, shorter than its data_section_crc") }
        let crc = try input.bytes(count: 4).littleEndianUInt32(at: 0)
        guard crc != 0 else { return }
        let computed = try Self.crc(input, from: 0, to: offset)
        guard computed == crc else {
            throw input.failure(at: offset, "data end record: data_section_crc 0x\(String(crc, radix: 16)) differs from the data section's 0x\(String(computed, radix: 16)) (damaged file)")
        }
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        try readByNext(into: &samples, maximumCount: maximumCount)
    }

    /// One record of the data section or of a chunk (not a chunk itself): a message of a channel
    /// read is decoded, anything else skipped.
    private func take(_ record: (opcode: UInt8, length: Int), from input: RosBagInput) throws -> MotionSample? {
        let offset = input.offset - 9
        let failure = { (message: String) in input.failure(at: offset, "\(McapRecord.name(record.opcode)): \(message)") }
        switch record.opcode {
        case McapRecord.Opcode.message.rawValue:
            guard record.length >= 22 else { throw failure("\(record.length) bytes, shorter than its 22-byte fields") }
            let head = try input.bytes(count: 2)
            let channel = UInt16(head[0]) | UInt16(head[1]) << 8
            let isImu = imuChannels.contains(channel)
            guard isImu || magneticFieldChannels.contains(channel) else {
                input.skip(record.length - 2)
                return nil
            }
            input.skip(20)  // sequence, log_time, publish_time
            let count = record.length - 22
            guard count <= input.capacity else {
                throw failure("\(count) message bytes, larger than the \(input.capacity)-byte read buffer (ReadOptions.bufferSize)")
            }
            let data = try input.bytes(count: count)
            if isImu {
                let message = try CdrMessageLayout.imu(data) { failure("\(imuTopic): \($0)") }
                return try merger.add(message, failure: failure)
            }
            let message = try CdrMessageLayout.magneticField(data) { failure("\(magneticFieldTopic ?? ""): \($0)") }
            try merger.addField(time: message.time, field: message.field * 1e6, failure: failure)
        case McapRecord.Opcode.chunk.rawValue:
            throw failure("inside a chunk")
        case McapRecord.Opcode.header.rawValue:
            throw failure("a second one")
        case McapRecord.Opcode.dataEnd.rawValue, McapRecord.Opcode.footer.rawValue:
            throw failure("inside a chunk")
        case 0:
            throw failure("opcode 0x00 is no record kind (damaged file?)")
        default:
            input.skip(record.length)
        }
        return nil
    }

    // MARK: - Records

    /// Reads the next record's opcode and content length, leaving the input at its content; nil
    /// when `limit` is reached exactly. A record that runs past `limit` is an error, unless `cut`
    /// is given and the limit is the end of the file (a recording that was not closed): then
    /// `cut` gets the error ("truncated at byte N (the recorder did not close the file?): …"; it
    /// throws it, or notes it) and the record is the end; a chunk record cut there is returned
    /// with its declared length, for `chunk` to read the part that is there.
    static func recordHead(_ input: RosBagInput, limit: Int, cut: ((RecordingError) throws -> Void)?) throws -> (opcode: UInt8, length: Int)? {
        let offset = input.offset
        let end = min(limit, input.fileSize)
        if offset >= end { return nil }
        let available = end - offset
        let place = end == input.fileSize ? "the end of the \(input.descriptorIsFile ? "file" : "chunk")" : "byte \(end)"
        let atFileEnd = cut != nil && end == input.fileSize
        func fail(_ message: String) throws -> (opcode: UInt8, length: Int)? {
            let error = input.failure(at: offset, atFileEnd && input.descriptorIsFile ? "\(truncation(input)): \(message)" : message)
            guard atFileEnd, let cut else { throw error }
            try cut(error)
            input.seek(to: end)
            return nil
        }
        guard available >= 9 else {
            return try fail("only \(available) bytes before \(place), too few for a record\(atFileEnd ? "" : " (truncated?)")")
        }
        let head = try input.bytes(count: 9)
        let length = head.littleEndianUInt64(at: 1)
        if atFileEnd, input.descriptorIsFile, head[0] == McapRecord.Opcode.chunk.rawValue, length > UInt64(available - 9) {
            return (head[0], Int(clamping: length))  // cut inside a chunk: `chunk` reads what is there
        }
        guard length <= UInt64(available - 9) else {
            return try fail("\(McapRecord.name(head[0])): length \(length) runs past \(place) (\(available - 9) bytes left)")
        }
        return (head[0], Int(length))
    }

    /// "truncated at byte N (the recorder did not close the file?)", N the file's size.
    static func truncation(_ input: RosBagInput) -> String {
        "truncated at byte \(input.fileSize) (the recorder did not close the file?)"
    }

    /// The content of `record` (at most the read buffer's size), valid until the next read.
    static func content(_ input: RosBagInput, _ record: (opcode: UInt8, length: Int)) throws -> UnsafeBufferPointer<UInt8> {
        guard record.length <= input.capacity else {
            throw input.failure(at: input.offset - 9, "record of \(record.length) bytes, larger than the \(input.capacity)-byte read buffer (ReadOptions.bufferSize)")
        }
        return try input.bytes(count: record.length)
    }

    /// Reads a chunk record's content and returns its records decompressed (into the declared
    /// `uncompressed_size`, at most `maximumChunkSize`), CRC checked when one is written.
    ///
    /// A chunk that the end of the file cuts (`recordHead` returned it) is handed to `cut` as a
    /// truncation error (which throws it in strict reading); then the records decompressed from
    /// the bytes that are there are returned (the CRC cannot be checked), and `partial` is set.
    static func chunk(_ input: RosBagInput, _ record: (opcode: UInt8, length: Int), at offset: Int, path: String,
                      cut: ((RecordingError) throws -> Void)? = nil, partial: UnsafeMutablePointer<Bool>? = nil) throws -> RosBagInput {
        func fail(_ message: String) -> RecordingError { input.failure(at: offset, "chunk record: \(message)") }
        let present = min(record.length, input.remaining)
        let isCut = present < record.length
        partial?.pointee = isCut
        func empty() throws -> RosBagInput { try RosBagInput(path: path, size: 0, place: { "record at byte \($0)" }) { _ in 0 } }
        // message_start_time, message_end_time, uncompressed_size, uncompressed_crc, the length
        // of compression; then compression and the records' length.
        let fixed = 8 + 8 + 8 + 4 + 4
        guard record.length >= fixed + 8 else { throw fail("\(record.length) bytes, shorter than its \(fixed + 8) bytes of fields") }
        if isCut {
            try cut?(input.failure(at: offset, "\(truncation(input)): chunk record: \(present) of its \(record.length) bytes are there; the messages after the last whole record they hold are lost"))
        }
        guard present >= fixed else { input.skip(present); return try empty() }
        var head = McapRecord.Fields(try input.bytes(count: fixed), fail: fail)
        _ = try head.uint64("message_start_time")
        _ = try head.uint64("message_end_time")
        let size = try head.uint64("uncompressed_size")
        let crc = try head.uint32("uncompressed_crc")
        let nameLength = Int(try head.uint32("length of compression"))
        guard nameLength <= record.length - fixed - 8, nameLength <= input.capacity else {
            throw fail("compression (\(nameLength) bytes) runs past the end of the \(record.length)-byte record")
        }
        guard present >= fixed + nameLength + 8 else { input.skip(present - fixed); return try empty() }
        let compression = String(decoding: try input.bytes(count: nameLength), as: UTF8.self)
        let recordsLength = try input.bytes(count: 8).littleEndianUInt64(at: 0)
        let left = record.length - fixed - nameLength - 8
        guard recordsLength == UInt64(left) else {
            throw fail("records length \(recordsLength) differs from the \(left) bytes the record has left")
        }
        guard size <= UInt64(maximumChunkSize) else {
            throw fail("uncompressed_size \(size) is larger than the \(maximumChunkSize)-byte limit")
        }
        let method: ChunkDecompression.Method
        switch compression {
        case "": method = .none
        case "lz4": method = .lz4
        case "zstd": method = .zstd
        default:
            throw fail("compressed with \(compression): Poise reads uncompressed, lz4 and zstd chunks (`mcap recover --compression zstd IN -o OUT` rewrites a file with zstd)")
        }
        return try RosBagInput(path: path, size: Int(size), place: { "record at byte \($0) of the \(method.rawValue) chunk at byte \(offset)" }) { output in
            let produced: Int
            do {
                produced = try ChunkDecompression.decompress(method, from: input, count: left - (record.length - present), into: output, partial: isCut)
            } catch let failure as ChunkDecompression.Failure {
                throw fail(method == .none ? "\(failure)" : "\(method.rawValue): \(failure)")
            }
            if isCut { return produced }
            if crc != 0 {
                let computed = Crc32.checksum(UnsafeBufferPointer(output))
                guard computed == crc else {
                    throw fail("uncompressed_crc 0x\(String(crc, radix: 16)) differs from the records' 0x\(String(computed, radix: 16)) (damaged chunk)")
                }
            }
            return produced
        }
    }

    /// CRC-32 of the file's bytes `from..<to`, read a buffer-full at a time.
    static func crc(_ input: RosBagInput, from start: Int, to end: Int) throws -> UInt32 {
        input.seek(to: start)
        var crc = Crc32()
        var left = end - start
        while left > 0 {
            let piece = min(left, input.capacity)
            crc.add(try input.bytes(count: piece))
            left -= piece
        }
        return crc.value
    }
}
