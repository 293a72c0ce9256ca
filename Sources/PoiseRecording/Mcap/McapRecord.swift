/// The record layer of MCAP (https://mcap.dev/spec): every record is an opcode byte, a
/// little-endian `UInt64` content length and the content. Strings are a `UInt32` byte count and
/// UTF-8 bytes; byte arrays and maps carry a `UInt32` byte count too.
enum McapRecord {
    /// The record kinds Poise reads or steps over (others are skipped, as the spec asks).
    enum Opcode: UInt8 {
        case header = 0x01
        case footer = 0x02
        case schema = 0x03
        case channel = 0x04
        case message = 0x05
        case chunk = 0x06
        case messageIndex = 0x07
        case chunkIndex = 0x08
        case dataEnd = 0x0F
    }

    /// The record kind in words, for messages: `chunk record`, `record 0x42`.
    static func name(_ opcode: UInt8) -> String {
        let names: [UInt8: String] = [0x01: "header", 0x02: "footer", 0x03: "schema", 0x04: "channel", 0x05: "message",
                                      0x06: "chunk", 0x07: "message index", 0x08: "chunk index", 0x09: "attachment",
                                      0x0A: "attachment index", 0x0B: "statistics", 0x0C: "metadata", 0x0D: "metadata index",
                                      0x0E: "summary offset", 0x0F: "data end"]
        return names[opcode].map { "\($0) record" } ?? "record 0x\(String(opcode, radix: 16))"
    }

    /// `\x89MCAP0\r\n`: the first and last 8 bytes of a file.
    static let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]
    /// A footer record: opcode, length 20, `summary_start`, `summary_offset_start`, `summary_crc`.
    static let footerSize = 1 + 8 + 20

    /// Reads the fields of one record's content in order; every read is checked against the
    /// content's end, so a length field can never reach past it.
    struct Fields {
        let bytes: UnsafeBufferPointer<UInt8>
        private(set) var index = 0
        /// Makes the error for the record ("record at byte N: <what>: …").
        let fail: (String) -> RecordingError

        init(_ bytes: UnsafeBufferPointer<UInt8>, fail: @escaping (String) -> RecordingError) {
            self.bytes = bytes
            self.fail = fail
        }

        var remaining: Int { bytes.count - index }

        private mutating func take(_ count: Int, _ what: String) throws -> Int {
            guard count >= 0, count <= remaining else {
                throw fail("\(what) (\(count) bytes) runs past the end of the \(bytes.count)-byte record")
            }
            defer { index += count }
            return index
        }

        mutating func uint16(_ what: String) throws -> UInt16 {
            let at = try take(2, what)
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }

        mutating func uint32(_ what: String) throws -> UInt32 { bytes.littleEndianUInt32(at: try take(4, what)) }

        mutating func uint64(_ what: String) throws -> UInt64 { bytes.littleEndianUInt64(at: try take(8, what)) }

        /// A `UInt32`-prefixed run of bytes.
        mutating func prefixedBytes(_ what: String) throws -> UnsafeBufferPointer<UInt8> {
            let count = Int(try uint32("length of \(what)"))
            let at = try take(count, what)
            return UnsafeBufferPointer(rebasing: bytes[at..<(at + count)])
        }

        mutating func string(_ what: String) throws -> String {
            String(decoding: try prefixedBytes(what), as: UTF8.self)
        }

        /// The map of a chunk index record: channel id → message index offset; returns the ids.
        mutating func channelIds(_ what: String) throws -> Set<UInt16> {
            var entries = Fields(try prefixedBytes(what), fail: fail)
            var ids: Set<UInt16> = []
            while entries.remaining > 0 {
                ids.insert(try entries.uint16("channel id in \(what)"))
                _ = try entries.uint64("offset in \(what)")
            }
            return ids
        }

        mutating func skip(_ count: Int, _ what: String) throws { _ = try take(count, what) }
    }
}
