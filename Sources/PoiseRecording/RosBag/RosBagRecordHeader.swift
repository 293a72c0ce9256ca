/// The header of one ROS 1 bag record (format 2.0): `name=value` fields, each preceded by its
/// little-endian `UInt32` length. Only the fields Poise uses are kept; the others are skipped.
struct RosBagRecordHeader {
    /// Record kinds (the `op` field).
    enum Op: UInt8 {
        case messageData = 0x02
        case bagHeader = 0x03
        case indexData = 0x04
        case chunk = 0x05
        case chunkInfo = 0x06
        case connection = 0x07
    }

    var op: Op?
    /// The raw `op` byte when it is not a known kind.
    var unknownOp: UInt8?
    /// Connection id (`conn`: message data, connection and index records).
    var connection: UInt32?
    /// `compression` of a chunk record (`none`, `bz2`, `lz4`).
    var compression: String?
    /// `size` of a chunk record: its data's size decompressed.
    var size: UInt32?
    /// `topic` of a connection record.
    var topic: String?
    /// `index_pos` of the bag header record: offset of the first record after the chunks.
    var indexPosition: UInt64?

    /// Parses `bytes`, a record's header; `fail` makes the error for the record.
    ///
    /// - Throws: `RecordingError` ("record at byte N: …") for a field whose length runs past the
    ///   header, a field without `=`, a field of the wrong size, or a missing `op`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError) throws {
        try Self.forEachField(in: bytes, fail: fail) { name, value in
            if Self.equal(name, "op") {
                guard value.count == 1 else { throw fail("op field has \(value.count) bytes, not 1") }
                op = Op(rawValue: value[0])
                if op == nil { unknownOp = value[0] }
            } else if Self.equal(name, "conn") {
                guard value.count == 4 else { throw fail("conn field has \(value.count) bytes, not 4") }
                connection = value.littleEndianUInt32(at: 0)
            } else if Self.equal(name, "compression") {
                compression = String(decoding: value, as: UTF8.self)
            } else if Self.equal(name, "size") {
                guard value.count == 4 else { throw fail("size field has \(value.count) bytes, not 4") }
                size = value.littleEndianUInt32(at: 0)
            } else if Self.equal(name, "topic") {
                topic = String(decoding: value, as: UTF8.self)
            } else if Self.equal(name, "index_pos") {
                guard value.count == 8 else { throw fail("index_pos field has \(value.count) bytes, not 8") }
                indexPosition = value.littleEndianUInt64(at: 0)
            }
        }
        if let unknownOp {
            throw fail("unknown op code 0x\(String(unknownOp, radix: 16)) (a ROS 1 bag v2.0 has 0x02…0x07)")
        }
        guard op != nil else { throw fail("header has no op field") }
    }

    /// Calls `body` with the name and value of each `length, name=value` field of `bytes` (a
    /// record header, or the data of a connection record).
    ///
    /// - Throws: `fail(…)` for a length that runs past `bytes` or a field without `=`; what `body` throws.
    static func forEachField(in bytes: UnsafeBufferPointer<UInt8>, fail: (String) -> RecordingError,
                             _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var index = 0
        while index < bytes.count {
            guard bytes.count - index >= 4 else { throw fail("field length cut short (\(bytes.count - index) bytes left)") }
            let length = Int(bytes.littleEndianUInt32(at: index))
            index += 4
            guard length <= bytes.count - index else {
                throw fail("field of \(length) bytes runs past the end of its \(bytes.count)-byte block")
            }
            let field = UnsafeBufferPointer(rebasing: bytes[index..<(index + length)])
            index += length
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { throw fail("field without '='") }
            try body(UnsafeBufferPointer(rebasing: field[0..<equals]), UnsafeBufferPointer(rebasing: field[(equals + 1)...]))
        }
    }

    /// Whether `bytes` spell `name` (ASCII).
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for i in 0..<bytes.count where bytes[i] != expected[i] { return false }
        return true
    }
}
