import Testing
@testable import Poise

/// `ExactMedian`: the median found by selection on the values' bits equals the one found by
/// sorting, bit for bit, whatever the values (duplicates, negatives, infinities, subnormals,
/// NaN left out), and it reads the values only in index order.
@Suite struct ExactMedianTests {
    /// The median by sorting (the mean of the middle two for an even count) of the values that
    /// are not NaN.
    static func sortedMedian(_ values: [Double]) -> Double? {
        let kept = values.filter { !$0.isNaN }.sorted()
        guard !kept.isEmpty else { return nil }
        let h = kept.count / 2
        return kept.count % 2 == 1 ? kept[h] : (kept[h - 1] + kept[h]) / 2
    }

    /// Values of many kinds: a narrow cluster (equal leading bits, so every pass matters), wide
    /// magnitudes of both signs, repeated values, infinities, subnormals and NaN.
    static func values(_ random: inout SplitMix, count: Int) -> [Double] {
        (0..<count).map { _ -> Double in
            switch random.next() % 8 {
            case 0: return 1 + random.uniform() * 1e-12
            case 1: return (random.uniform() - 0.5) * Double.pow(10, Double(random.next() % 40) - 20)
            case 2: return Double(random.next() % 5)
            case 3: return random.next() % 2 == 0 ? .infinity : -.infinity
            case 4: return Double.leastNonzeroMagnitude * Double(random.next() % 7)
            case 5: return .nan
            case 6: return -Double(random.next() % 3)
            default: return random.gaussian()
            }
        }
    }

    @Test func equalsTheSortedMedianBitForBit() {
        var random = SplitMix(seed: 41)
        for count in [1, 2, 3, 4, 5, 10, 11, 100, 101, 1_000, 4_097] {
            for _ in 0..<6 {
                // One sign of zero per array (sorting leaves −0 and +0 in any order).
                let zero = random.next() % 2 == 0 ? 0.0 : -0.0
                let values = Self.values(&random, count: count).map { $0 == 0 ? zero : $0 }
                let expected = Self.sortedMedian(values)
                let got = ExactMedian.of(count: values.count) { values[$0] }
                #expect(got?.bitPattern == expected?.bitPattern, "\(count) values: \(String(describing: got)) vs \(String(describing: expected))")
            }
        }
    }

    @Test func clustersOfEqualValuesAndNoValue() {
        // The middle two equal (copies after the lower middle), and not.
        #expect(ExactMedian.of(count: 6) { [3, 1, 2, 2, 5, 2][$0] } == 2)
        #expect(ExactMedian.of(count: 4) { [1, 2, 3, 4][$0] } == 2.5)
        #expect(ExactMedian.of(count: 4) { [-1, -2, .nan, -4][$0] } == -2)
        #expect(ExactMedian.of(count: 0) { _ in 1 } == nil)
        #expect(ExactMedian.of(count: 3) { _ in .nan } == nil)
        #expect(ExactMedian.of(count: 2) { [-0.0, 0.0][$0] } == 0)
    }

    @Test func readsTheValuesInOrder() {
        var last = -1, jumps = 0, reads = 0
        let values = (0..<1_000).map { Double(($0 * 7919) % 1_000) }
        _ = ExactMedian.of(count: values.count) { i in
            if i != last + 1 && i != 0 { jumps += 1 }
            last = i
            reads += 1
            return values[i]
        }
        #expect(jumps == 0)
        #expect(reads <= 5 * values.count)
    }
}
