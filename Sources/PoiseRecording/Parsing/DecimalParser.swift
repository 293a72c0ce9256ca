#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exactly rounded decimal → Double conversion over raw bytes.
//
// Three tiers, fastest first; each returns the correctly rounded (round-to-nearest-even) value:
// 1. Clinger's fast path: mantissa ≤ 2^53 and |exponent| ≤ 22, so both the mantissa and the power
//    of ten are exact Doubles and one IEEE multiply or divide rounds correctly.
// 2. Eisel–Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second", Software: Practice and
//    Experience 51(8), 2021; the fast_float construction): a 64×128-bit product with a table of
//    powers of five. With at most 19 significant digits the product is always sufficient
//    (Mushtak & Lemire, "Fast number parsing without fallback", 2023).
// 3. More than 19 significant digits: the C library's `strtod` (correctly rounded in glibc).

/// Tables shared by all parsers, created once.
final class DecimalTables: @unchecked Sendable {
    /// 10^0 ... 10^22, all exact Doubles.
    let powersOfTen: UnsafeMutablePointer<Double>
    /// 10^0 ... 10^19 as integers.
    let integerPowersOfTen: UnsafeMutablePointer<UInt64>
    /// `powersOfFive128` as a raw pointer (no bounds checks or lazy-global checks in the hot loop).
    let powersOfFive: UnsafeMutablePointer<UInt64>

    static let shared = DecimalTables()

    private init() {
        powersOfTen = .allocate(capacity: 23)
        var p = 1.0
        for i in 0...22 { powersOfTen[i] = p; p *= 10 }
        integerPowersOfTen = .allocate(capacity: 20)
        var q: UInt64 = 1
        for i in 0...19 { integerPowersOfTen[i] = q; if i < 19 { q *= 10 } }
        powersOfFive = .allocate(capacity: powersOfFive128.count)
        for (i, v) in powersOfFive128.enumerated() { powersOfFive[i] = v }
    }
}

/// A byte-level decimal number parser (value type holding pointers to the shared tables).
@usableFromInline
struct DecimalParser {
    let powersOfTen: UnsafeMutablePointer<Double>
    let integerPowersOfTen: UnsafeMutablePointer<UInt64>
    let powersOfFive: UnsafeMutablePointer<UInt64>
    /// Scratch space for the `strtod` fallback (NUL-terminated copy of a long token).
    let scratch: UnsafeMutablePointer<CChar>
    static let scratchCapacity = 512

    init() {
        let tables = DecimalTables.shared
        powersOfTen = tables.powersOfTen
        integerPowersOfTen = tables.integerPowersOfTen
        powersOfFive = tables.powersOfFive
        scratch = .allocate(capacity: DecimalParser.scratchCapacity)
    }

    func deallocate() { scratch.deallocate() }

    /// Parses one number starting exactly at `start` (no leading spaces) and ending before `end`.
    ///
    /// Accepts `[+-]digits[.digits][(e|E)[+-]digits]`, `.5`, `5.`, and case-insensitive `nan`,
    /// `inf`, `infinity`. Returns the position after the number, or `nil` when no number starts
    /// at `start`. The caller checks that what follows is a delimiter.
    @inline(__always)
    func parse(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ value: inout Double) -> UnsafePointer<UInt8>? {
        var p = start
        guard p < end else { return nil }
        // Branch-free sign (signs are unpredictable in sensor data).
        let first = p.pointee
        let negative = first == UInt8(ascii: "-")
        p += (negative || first == UInt8(ascii: "+")) ? 1 : 0
        let signBit: UInt64 = negative ? 1 << 63 : 0
        let digitsStart = p
        var mantissa: UInt64 = 0
        // Integer digits: eight at a time without a branch per digit (SWAR), then byte by byte.
        if end - p >= 8 {
            let (n, v) = DecimalParser.eightDigits(p)
            mantissa = v
            p += n
            if n == 8 { p = DecimalParser.accumulateDigits(p, end, &mantissa) }
        } else {
            p = DecimalParser.accumulateDigits(p, end, &mantissa)
        }
        var digitCount = p - digitsStart
        var exponent = 0
        if p < end, p.pointee == UInt8(ascii: ".") {
            p += 1
            let fractionStart = p
            if end - p >= 8 {
                let (n, v) = DecimalParser.eightDigits(p)
                mantissa = mantissa &* integerPowersOfTen[n] &+ v
                p += n
                if n == 8 { p = DecimalParser.accumulateDigits(p, end, &mantissa) }
            } else {
                p = DecimalParser.accumulateDigits(p, end, &mantissa)
            }
            let fractionDigits = p - fractionStart
            exponent = -fractionDigits
            digitCount += fractionDigits
        }
        if digitCount == 0 {
            return parseSpecial(digitsStart, end, negative: negative, &value)
        }
        if p < end, p.pointee | 0x20 == UInt8(ascii: "e") {
            var q = p + 1
            var exponentNegative = false
            if q < end, q.pointee == UInt8(ascii: "-") || q.pointee == UInt8(ascii: "+") {
                exponentNegative = q.pointee == UInt8(ascii: "-")
                q += 1
            }
            let exponentStart = q
            var e = 0
            while q < end {
                let d = q.pointee &- 48
                if d >= 10 { break }
                if e < 100_000 { e = e &* 10 &+ Int(d) }
                q += 1
            }
            if q == exponentStart { return nil }  // "1e" or "1e+": not a number
            exponent += exponentNegative ? -e : e
            p = q
        }
        if digitCount > 19 {
            // Leading zeros do not count as significant digits; strip them before deciding.
            var significant = 0
            var r = digitsStart
            var leading = true
            while r < p, r.pointee | 0x20 != UInt8(ascii: "e") {
                let d = r.pointee &- 48
                if d < 10 {
                    if d != 0 { leading = false }
                    if !leading { significant += 1 }
                }
                r += 1
            }
            if significant > 19 {
                value = slowParse(start, p)
                return p
            }
        }
        // Tier 1: Clinger.
        if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var d = Double(Int64(bitPattern: mantissa))  // ≤ 2^53: the signed conversion is exact
            d = exponent < 0 ? d / powersOfTen[-exponent] : d * powersOfTen[exponent]
            value = Double(bitPattern: d.bitPattern | signBit)
            return p
        }
        // Tier 2: Eisel–Lemire.
        value = Double(bitPattern: eiselLemire(mantissa: mantissa, exponent: exponent) | signBit)
        return p
    }

    /// The common case only: `[-]d…d[.d…d]` with at most 7 digits before and 7 after the point,
    /// no exponent. Needs 17 readable bytes at `start`. Returns the position after the number, or
    /// nil when the text is anything else (then `parse` handles it). The value is exact: the
    /// mantissa is below 10¹⁴ < 2⁵³ and the power of ten at most 10⁷, so one IEEE division rounds
    /// correctly (Clinger's fast path).
    @inline(__always)
    func parseShort(_ start: UnsafePointer<UInt8>, _ value: inout Double) -> UnsafePointer<UInt8>? {
        var mantissa = 0.0, divisor = 1.0
        guard let end = parseShortMantissa(start, &mantissa, &divisor) else { return nil }
        value = mantissa / divisor
        return end
    }

    /// `parseShort` without the final division: `mantissa` gets ±(the digits as an integer),
    /// exact as a Double (below 10¹⁴; −0 for "-0…"), and `divisor` the power of ten to divide it
    /// by. The caller divides several fields at once with SIMD division, which rounds each lane
    /// exactly as the scalar division would (IEEE), at a fraction of the cost per value.
    @inline(__always)
    func parseShortMantissa(_ start: UnsafePointer<UInt8>, _ mantissa: inout Double, _ divisor: inout Double) -> UnsafePointer<UInt8>? {
        let negative = start.pointee == UInt8(ascii: "-")
        var p = start + (negative ? 1 : 0)
        // Integer digits one byte at a time: sensor values have few of them (the count is usually
        // the same from row to row, so the loop's exit branch predicts well).
        // At most 7 are taken; an eighth digit sends the field to `parse`.
        var integerPart: UInt64 = 0
        let integerStart = p
        p = DecimalParser.accumulateDigits(p, p + 8, &integerPart)
        guard UInt(bitPattern: (p - integerStart) &- 1) < 7 else { return nil }  // 1...7 digits
        var digits = integerPart
        var fractionDigits = 0
        if p.pointee == UInt8(ascii: ".") {
            let (count, fraction) = DecimalParser.eightDigits(p + 1)
            guard count < 8 else { return nil }
            digits = integerPart &* integerPowersOfTen[count] &+ fraction
            fractionDigits = count
            p += 1 &+ count
        }
        let magnitude = Double(Int64(bitPattern: digits))
        mantissa = negative ? -magnitude : magnitude
        divisor = powersOfTen[fractionDigits]
        return p
    }

    /// Counts the decimal digits among the 8 bytes at `p` (stopping at the first non-digit) and
    /// returns their value, without a branch per digit. `p` must have 8 readable bytes.
    /// (The SWAR digit test and the three-multiply conversion are fast_float's.)
    @inline(__always)
    static func eightDigits(_ p: UnsafePointer<UInt8>) -> (count: Int, value: UInt64) {
        let chunk = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3 and its low nibble is at most 9.
        let highNibbleWrong = (chunk & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        let lowNibbleTooLarge = ((chunk & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        let count = (highNibbleWrong | lowNibbleTooLarge).trailingZeroBitCount >> 3
        if count == 0 { return (0, 0) }
        // Keep the first `count` digit bytes as the most significant ones (zeros in front).
        var v = (chunk &- 0x3030_3030_3030_3030) &<< UInt64((8 &- count) &* 8)
        v = (v &* 10) &+ (v >> 8)
        v = (((v & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064)
             &+ (((v >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001)) >> 32
        return (count, v)
    }

    /// Appends digits byte by byte (wrapping; callers count digits and fall back when > 19).
    @inline(__always)
    static func accumulateDigits(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ mantissa: inout UInt64) -> UnsafePointer<UInt8> {
        var p = start
        while p < end {
            let d = p.pointee &- 48
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            p += 1
        }
        return p
    }

    /// `nan`, `inf`, `infinity` (any case), after an optional sign.
    @inline(never)
    func parseSpecial(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, negative: Bool, _ value: inout Double) -> UnsafePointer<UInt8>? {
        func matches(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard end - start >= n else { return false }
            for i in 0..<n where start[i] | 0x20 != word.utf8Start[i] { return false }
            return true
        }
        if matches("nan") { value = negative ? -.nan : .nan; return start + 3 }
        if matches("infinity") { value = negative ? -.infinity : .infinity; return start + 8 }
        if matches("inf") { value = negative ? -.infinity : .infinity; return start + 3 }
        return nil
    }

    /// Correctly rounded conversion of a long token through the C library.
    @inline(never)
    func slowParse(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double {
        let count = end - start
        if count < DecimalParser.scratchCapacity {
            for i in 0..<count { scratch[i] = CChar(bitPattern: start[i]) }
            scratch[count] = 0
            return strtod(scratch, nil)
        }
        let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The IEEE binary64 bit pattern (without sign) of mantissa × 10^exponent, rounded to nearest
    /// even, for a mantissa of at most 19 decimal digits.
    @inline(__always)
    func eiselLemire(mantissa: UInt64, exponent q: Int) -> UInt64 {
        if mantissa == 0 || q < -342 { return 0 }
        if q > 308 { return 0x7FF << 52 }
        let leadingZeros = mantissa.leadingZeroBitCount
        let w = mantissa << UInt64(leadingZeros)
        let index = 2 * (q + 342)
        var (high, low) = w.multipliedFullWidth(by: powersOfFive[index])
        let precisionMask: UInt64 = 0xFFFF_FFFF_FFFF_FFFF >> 55
        if high & precisionMask == precisionMask {
            let (secondHigh, _) = w.multipliedFullWidth(by: powersOfFive[index + 1])
            low = low &+ secondHigh
            if secondHigh > low { high = high &+ 1 }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 64 - 52 - 3)
        var m = high >> shift
        // power(q) = floor(q · log2(10)) + 63, then rebias (minimum exponent −1023).
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - leadingZeros + 1023
        if power2 <= 0 {
            if -power2 + 1 >= 64 { return 0 }
            m >>= UInt64(-power2 + 1)
            m += m & 1
            m >>= 1
            power2 = m < (1 << 52) ? 0 : 1
            return m | (UInt64(power2) << 52)
        }
        if low <= 1, q >= -4, q <= 23, m & 3 == 1, (m << shift) == high {
            m &= ~1
        }
        m += m & 1
        m >>= 1
        if m >= 2 << 52 {
            m = 1 << 52
            power2 += 1
        }
        m &= ~(1 << 52)
        if power2 >= 0x7FF { return 0x7FF << 52 }
        return m | (UInt64(power2) << 52)
    }
}

extension DecimalParser {
    /// Parses a whole string as one number (spaces around it allowed); `nil` when it is not one.
    /// Convenience for tests and non-hot paths.
    static func parse(_ text: String) -> Double? {
        let parser = DecimalParser()
        defer { parser.deallocate() }
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            var p = UnsafePointer(base)
            let end = p + buffer.count
            while p < end, p.pointee == 32 || p.pointee == 9 { p += 1 }
            var value = 0.0
            guard var q = parser.parse(p, end, &value) else { return nil }
            while q < end, q.pointee == 32 || q.pointee == 9 { q += 1 }
            return q == end ? value : nil
        }
    }
}
