/// xxHash64 (Yann Collet's non-cryptographic hash, as zstd frames use for their content
/// checksum), computed in one call over a buffer.
enum XXHash64 {
    private static let p1: UInt64 = 11_400_714_785_074_694_791
    private static let p2: UInt64 = 14_029_467_366_897_019_727
    private static let p3: UInt64 = 1_609_587_929_392_839_161
    private static let p4: UInt64 = 9_650_029_242_287_828_579
    private static let p5: UInt64 = 2_870_177_450_012_600_261

    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        rotl(accumulator &+ lane &* p2, 31) &* p1
    }

    private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        (accumulator ^ round(0, value)) &* p1 &+ p4
    }

    /// The 64-bit hash of `bytes` with `seed`.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var index = 0
        var h: UInt64
        if count >= 32 {
            var v1 = seed &+ p1 &+ p2, v2 = seed &+ p2, v3 = seed, v4 = seed &- p1
            while index + 32 <= count {
                v1 = round(v1, bytes.littleEndianUInt64(at: index))
                v2 = round(v2, bytes.littleEndianUInt64(at: index + 8))
                v3 = round(v3, bytes.littleEndianUInt64(at: index + 16))
                v4 = round(v4, bytes.littleEndianUInt64(at: index + 24))
                index += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(merge(merge(merge(h, v1), v2), v3), v4)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt64(count)
        while index + 8 <= count {
            h ^= round(0, bytes.littleEndianUInt64(at: index))
            h = rotl(h, 27) &* p1 &+ p4
            index += 8
        }
        if index + 4 <= count {
            h ^= UInt64(bytes.littleEndianUInt32(at: index)) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            index += 4
        }
        while index < count {
            h ^= UInt64(bytes[index]) &* p5
            h = rotl(h, 11) &* p1
            index += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
