/// Little-endian fields of ROS serialization (bag records and messages).
extension UnsafeBufferPointer<UInt8> {
    /// The little-endian `UInt32` at `index` (index + 4 ≤ count, checked by the caller).
    func littleEndianUInt32(at index: Int) -> UInt32 {
        UInt32(self[index]) | UInt32(self[index + 1]) << 8 | UInt32(self[index + 2]) << 16 | UInt32(self[index + 3]) << 24
    }

    /// The little-endian `UInt64` at `index` (index + 8 ≤ count, checked by the caller).
    func littleEndianUInt64(at index: Int) -> UInt64 {
        UInt64(littleEndianUInt32(at: index)) | UInt64(littleEndianUInt32(at: index + 4)) << 32
    }

    /// The little-endian IEEE 754 `Double` at `index` (index + 8 ≤ count, checked by the caller).
    func littleEndianDouble(at index: Int) -> Double {
        Double(bitPattern: littleEndianUInt64(at: index))
    }
}
