/// CRC-32 as zlib, PNG and MCAP compute it (IEEE 802.3 polynomial, reflected: 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF), one table lookup per byte.
struct Crc32 {
    /// The running value (before the final XOR).
    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of everything added so far.
    var value: UInt32 { ~state }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        state = crc
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = Crc32()
        crc.add(bytes)
        return crc.value
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
