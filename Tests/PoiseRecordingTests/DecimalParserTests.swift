import Testing
@testable import PoiseRecording

/// The byte parser must agree bit for bit with Swift's `Double(String)` (correctly rounded).
@Suite struct DecimalParserTests {
    /// Deterministic test PRNG (SplitMix64).
    struct Mix { var state: UInt64; mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    } }

    func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Double(text)
        let actual = DecimalParser.parse(text)
        if let expected, let actual {
            #expect(expected.bitPattern == actual.bitPattern || (expected.isNaN && actual.isNaN),
                    "\(text): expected \(expected), got \(actual)", sourceLocation: sourceLocation)
        } else {
            #expect(expected == nil && actual == nil, "\(text): expected \(String(describing: expected)), got \(String(describing: actual))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func randomBitPatternsRoundTripThroughShortestRepresentation() {
        var random = Mix(state: 1)
        var checked = 0
        for _ in 0..<100_000 {
            let d = Double(bitPattern: random.next())
            guard d.isFinite else { continue }
            let text = d.description
            #expect(DecimalParser.parse(text)?.bitPattern == d.bitPattern, "\(text)")
            checked += 1
        }
        #expect(checked > 99_000)
    }

    @Test func randomDecimalStringsMatchDoubleInit() {
        var random = Mix(state: 2)
        for _ in 0..<100_000 {
            let digits = Int(random.next() % 19) + 1
            var mantissa = ""
            for i in 0..<digits { mantissa.append(Character(String((random.next() % 10) + (i == 0 ? 0 : 0)))) }
            let exponent = Int(random.next() % 680) - 360
            let point = Int(random.next() % UInt64(digits + 1))
            var text = mantissa
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            if random.next() & 1 == 0 { text = "-" + text }
            if text == "." || text == "-." { continue }
            expectSame(text + "e\(exponent)")
            expectSame(text)
        }
    }

    @Test func sensorLikeValuesMatchDoubleInit() {
        var random = Mix(state: 3)
        for _ in 0..<50_000 {
            let v = (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * 200
            for format in [v.description, String(Float(v)), "\(Int(v * 1e6))e-6"] { expectSame(format) }
        }
    }

    @Test func hardCases() {
        let cases = [
            "9007199254740993", "9007199254740992.5", "2.2250738585072011e-308", "2.2250738585072014e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1e400",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "0.1", "0.3",
            "123456789012345678901234567890", "0.000000000000000000000000000123456789012345678901",
            "7.038531e-26", "3.913601e-19", "1e23", "8.98846567431158e307", "-0", "0e999", "+1.5", ".5", "5.",
            "nan", "NaN", "-inf", "Infinity", "1e", "e5", "", "-", ".", "1.2.3", "1,5", "12abc",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791", // ~ DBL_MAX * 1.000…
        ]
        for c in cases { expectSame(c) }
        // Decimal only: hexadecimal floats (which Double(String) accepts) are not numbers in a CSV.
        #expect(DecimalParser.parse("0x10") == nil)
    }

    /// The short-form fast path (`[-]d{1,7}[.d{0,7}]`) gives the same bits as Double(String), keeps
    /// −0, stops at the first byte after the number, and declines anything else.
    @Test func shortFormMatchesDoubleInit() {
        let parser = DecimalParser()
        defer { parser.deallocate() }
        var random = Mix(state: 4)
        func short(_ text: String) -> (Double, Int)? {
            let bytes = Array(text.utf8) + Array(repeating: UInt8(ascii: ","), count: 24)
            return bytes.withUnsafeBufferPointer { b -> (Double, Int)? in
                var value = 0.0
                guard let end = parser.parseShort(b.baseAddress!, &value) else { return nil }
                return (value, end - b.baseAddress!)
            }
        }
        for _ in 0..<100_000 {
            let integerDigits = Int(random.next() % 7) + 1
            let fractionDigits = Int(random.next() % 8)
            var text = random.next() & 1 == 0 ? "-" : ""
            for _ in 0..<integerDigits { text += String(random.next() % 10) }
            if fractionDigits > 0 || random.next() & 1 == 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(random.next() % 10) }
            }
            guard let (value, length) = short(text) else { Issue.record("declined \(text)"); continue }
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
            #expect(length == text.utf8.count)
        }
        #expect(short("-0.0")?.0.sign == .minus)
        for declined in ["12345678.5", "1.12345678", ".5", "-", "nan", "abc"] { #expect(short(declined) == nil, "\(declined)") }
        #expect(short("1e5")?.1 == 1)  // stops before the exponent; the caller then sees no comma
    }
}
