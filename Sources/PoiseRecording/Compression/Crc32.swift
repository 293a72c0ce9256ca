import CZlib

/// CRC-32 as ZIP and MCAP use it (ISO 3309 / ITU-T V.42: reflected polynomial 0xEDB88320,
/// initial and final value 0xFFFFFFFF), computed by the system zlib (`crc32_z`).
struct Crc32 {
    /// The CRC-32 of the bytes added so far (0 for none).
    private(set) var value: UInt32 = 0

    /// Extends the checksum with `bytes`.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        value = UInt32(truncatingIfNeeded: crc32_z(uLong(value), base, z_size_t(bytes.count)))
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = Crc32()
        crc.add(bytes)
        return crc.value
    }
}
