/// The bit streams of zstd's entropy-coded sections (RFC 8878, 4.1 and 4.2.2.x): written
/// forwards, read backwards. The last byte holds a 1 bit above the last bit written; reading
/// starts below it and goes towards the first byte, each field's bits most significant first as
/// a little-endian integer.
///
/// `position` counts the bits left. Reading past the start gives zero bits and makes
/// `position` negative (`isOverflowed`): callers check it where the format says a stream must
/// end exactly.
struct ZstdBackwardBits {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Bits not read yet (bits 0..<position of the stream).
    private(set) var position: Int

    /// - Throws: `ZstdDecoder.Failure` for an empty stream or a last byte of 0 (no end mark).
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let last = bytes.last, last != 0 else { throw ZstdDecoder.Failure("a bit stream without its end mark") }
        self.bytes = bytes
        position = (bytes.count - 1) * 8 + (7 - last.leadingZeroBitCount)
    }

    var isOverflowed: Bool { position < 0 }
    var isFinished: Bool { position == 0 }

    /// Up to 57 bits from `byteIndex` on, little endian, zeros past the end.
    private func word(at byteIndex: Int) -> UInt64 {
        if byteIndex + 8 <= bytes.count { return bytes.littleEndianUInt64(at: byteIndex) }
        var value: UInt64 = 0
        var k = 0
        while byteIndex + k < bytes.count && k < 8 {
            value |= UInt64(bytes[byteIndex + k]) << (8 * UInt64(k))
            k += 1
        }
        return value
    }

    /// The next `count` bits (0…32) without consuming them.
    func peek(_ count: Int) -> UInt64 {
        if count == 0 { return 0 }
        let start = position - count
        if start >= 0 {
            return (word(at: start >> 3) >> UInt64(start & 7)) & ((1 << UInt64(count)) - 1)
        }
        guard position > 0 else { return 0 }
        let low = word(at: 0) & ((1 << UInt64(position)) - 1)
        return low << UInt64(-start)
    }

    mutating func consume(_ count: Int) { position -= count }

    /// The next `count` bits (0…32).
    mutating func read(_ count: Int) -> UInt64 {
        let value = peek(count)
        position -= count
        return value
    }
}
