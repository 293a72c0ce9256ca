import Testing
import Poise

/// `init(saturating:)`: like `init(_:)` inside the range, bounded outside it, never a trap.
@Suite struct SaturatingConversionTests {
    @Test func insideTheRangeItTruncatesLikeTheTrappingConversion() {
        for x in [0.0, -0.0, 1.9, -1.9, 1e15 + 0.5, -123456.75, 9.2e18, -9.2e18] {
            #expect(Int64(saturating: x) == Int64(x), "\(x)")
            #expect(Int(saturating: x) == Int(x), "\(x)")
        }
        #expect(Int8(saturating: 127.9) == 127)
        #expect(UInt8(saturating: 0.5) == 0)
    }

    @Test func outsideTheRangeItGivesTheBoundAndNaNGivesZero() {
        // 2^63 is the first Double above Int64.max.
        for x in [9.223372036854775808e18, 1e19, 1e300, .greatestFiniteMagnitude, .infinity] {
            #expect(Int64(saturating: x) == .max, "\(x)")
            #expect(Int64(saturating: -x) == .min, "\(-x)")
        }
        #expect(Int64(saturating: -1e300) == .min)
        #expect(Int64(saturating: Double.nan) == 0)
        #expect(Int(saturating: Float.infinity) == .max)
        #expect(UInt64(saturating: -1.0) == 0)
        #expect(Int8(saturating: 1000.0) == 127 && Int8(saturating: -1000.0) == -128)
        // The replay deadline of nanoseconds read as seconds: 1.7e18 s × 1e9 ns/s.
        #expect(Int64(saturating: 1.7e18 * 1e9) == .max)
    }
}
