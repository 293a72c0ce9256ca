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
    /// `powersOfFive128` as a raw pointer (no bounds checks or lazy-global checks in the hot loop).
    let powersOfFive: UnsafeMutablePointer<UInt64>

    static let shared = DecimalTables()

    private init() {
        powersOfTen = .allocate(capacity: 23)
        var p = 1.0
        for i in 0...22 { powersOfTen[i] = p; p *= 10 }
        powersOfFive = .allocate(capacity: powersOfFive128.count)
        for (i, v) in powersOfFive128.enumerated() { powersOfFive[i] = v }
    }
}

/// A byte-level decimal number parser (value type holding pointers to the shared tables).
@usableFromInline
struct DecimalParser {
    let powersOfTen: UnsafeMutablePointer<Double>
    let powersOfFive: UnsafeMutablePointer<UInt64>
    /// Scratch space for the `strtod` fallback (NUL-terminated copy of a long token).
    let scratch: UnsafeMutablePointer<CChar>
    static let scratchCapacity = 512

    init() {
        let tables = DecimalTables.shared
        powersOfTen = tables.powersOfTen
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
        var negative = false
        if p < end, p.pointee == UInt8(ascii: "-") || p.pointee == UInt8(ascii: "+") {
            negative = p.pointee == UInt8(ascii: "-")
            p += 1
        }
        let digitsStart = p
        var mantissa: UInt64 = 0
        while p < end {
            let d = p.pointee &- 48
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            p += 1
        }
        var digitCount = p - digitsStart
        var exponent = 0
        if p < end, p.pointee == UInt8(ascii: ".") {
            p += 1
            let fractionStart = p
            while p < end {
                let d = p.pointee &- 48
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                p += 1
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
            var d = Double(mantissa)
            d = exponent < 0 ? d / powersOfTen[-exponent] : d * powersOfTen[exponent]
            value = negative ? -d : d
            return p
        }
        // Tier 2: Eisel–Lemire.
        let bits = eiselLemire(mantissa: mantissa, exponent: exponent)
        let d = Double(bitPattern: bits)
        value = negative ? -d : d
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
