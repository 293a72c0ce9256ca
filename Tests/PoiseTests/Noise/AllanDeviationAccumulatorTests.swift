import Foundation
import Testing
import Poise

/// `AllanDeviationAccumulator` over recordings many times longer than its bounded history (its
/// sums re-centred many times and its ring wrapping): against a direct computation that keeps
/// every sample, and fed in different pieces.
@Suite struct AllanDeviationAccumulatorTests {
    /// Deterministic test channels: white noise on an offset, plus a random walk and a slow sine
    /// on the second channel (so that the cumulative sums drift far from zero).
    static func channels(count: Int, seed: UInt64) -> [[Double]] {
        var state = seed
        func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1p-53 - 0.5
        }
        var level = 0.0
        var a: [Double] = [], b: [Double] = []
        for i in 0..<count {
            a.append(3.25 + 0.01 * uniform())
            level += 1e-3 * uniform()
            b.append(-40 + 0.02 * uniform() + level + 0.5 * sin(Double(i) / 977))
        }
        return [a, b]
    }

    /// σ(m) from the definition with every sample in memory: the second difference of the
    /// cumulative sums, Σᵢ₌ₖ₊ₘ^ₖ₊₂ₘ₋₁ yᵢ − Σᵢ₌ₖ^ₖ₊ₘ₋₁ yᵢ, from prefix sums of the samples less the
    /// mean (accumulated with a compensated sum), summed over every start k.
    static func reference(_ y: [Double], size m: Int) -> Double {
        let mean = y.reduce(0, +) / Double(y.count)
        var prefix = [Double](repeating: 0, count: y.count + 1)
        var sum = 0.0, carry = 0.0
        for (i, v) in y.enumerated() {
            let term = (v - mean) - carry
            let next = sum + term
            carry = (next - sum) - term
            sum = next
            prefix[i + 1] = sum
        }
        var total = 0.0
        for k in 0...(y.count - 2 * m) {
            let d = (prefix[k + 2 * m] - prefix[k + m]) - (prefix[k + m] - prefix[k])
            total += d * d
        }
        return (total / (2 * Double(y.count + 1 - 2 * m))).squareRoot() / Double(m)
    }

    /// Lengths from a few blocks to many times the history, largest sizes from 64 to 10,000
    /// (the larger ones with a ring shorter than the logical history, so that adding waits for
    /// tiles to be summed): every computed size within 1e-10 of the reference.
    @Test(arguments: [(64, 20_000), (512, 37_777), (10_000, 120_001)])
    func equalsTheDirectComputation(maximumClusterSize: Int, count: Int) {
        let y = Self.channels(count: count, seed: UInt64(maximumClusterSize))
        var accumulator = AllanDeviationAccumulator(channelCount: 2, maximumClusterSize: maximumClusterSize)
        for i in 0..<count { accumulator.add([y[0][i], y[1][i]]) }
        let result = accumulator.result(sampleInterval: 0.01)
        let expected = AllanClusterSizes.octave.sizes(upTo: maximumClusterSize)
        #expect(result.clusterSizes == expected)
        #expect(result.termCounts == expected.map { count + 1 - 2 * $0 })
        for c in 0..<2 {
            for (i, m) in result.clusterSizes.enumerated() {
                let direct = Self.reference(y[c], size: m)
                let relative = abs(result.deviations[c][i] - direct) / direct
                #expect(relative <= 1e-10, "channel \(c), m = \(m): \(result.deviations[c][i]) vs \(direct)")
            }
        }
    }

    /// Sample by sample, whole channels at once and pieces of odd lengths give the same bits,
    /// also when the result is asked for halfway (which sums the pending terms early).
    @Test(arguments: [64, 300, 10_000])
    func piecesGiveTheSameBits(maximumClusterSize: Int) {
        let count = 4 * (2 * maximumClusterSize + 1) + 9_001
        let y = Self.channels(count: count, seed: 7)
        let sizes = AllanClusterSizes.decade
        func bySample(_ range: Range<Int>, into accumulator: inout AllanDeviationAccumulator) {
            for i in range { accumulator.add([y[0][i], y[1][i]]) }
        }
        var single = AllanDeviationAccumulator(channelCount: 2, sizes: sizes, maximumClusterSize: maximumClusterSize)
        bySample(0..<count, into: &single)
        var whole = AllanDeviationAccumulator(channelCount: 2, sizes: sizes, maximumClusterSize: maximumClusterSize)
        whole.add(channels: y)
        let expected = single.result(sampleInterval: 0.004)
        #expect(whole.result(sampleInterval: 0.004) == expected)
        #expect(expected.clusterSizes.last == sizes.sizes(upTo: maximumClusterSize).last)

        for pieces in [[1, 4_095, 2_049, 13, 7_777], [3, 5, 7, 1_021, 65_537], [10_007]] {
            var chunked = AllanDeviationAccumulator(channelCount: 2, sizes: sizes, maximumClusterSize: maximumClusterSize)
            var done = 0, p = 0
            while done < count {
                let n = Swift.min(pieces[p % pieces.count], count - done)
                chunked.add(channels: y.map { Array($0[done..<(done + n)]) })
                done += n; p += 1
            }
            #expect(chunked.result(sampleInterval: 0.004) == expected, "pieces \(pieces)")
        }

        // A result halfway cuts a tile there: the same cut, sample by sample or in one piece.
        let half = count / 2 + 17
        var early = AllanDeviationAccumulator(channelCount: 2, sizes: sizes, maximumClusterSize: maximumClusterSize)
        bySample(0..<half, into: &early)
        var earlyWhole = AllanDeviationAccumulator(channelCount: 2, sizes: sizes, maximumClusterSize: maximumClusterSize)
        earlyWhole.add(channels: y.map { Array($0[..<half]) })
        #expect(early.result(sampleInterval: 0.004) == earlyWhole.result(sampleInterval: 0.004))
        bySample(half..<count, into: &early)
        earlyWhole.add(channels: y.map { Array($0[half...]) })
        let late = early.result(sampleInterval: 0.004)
        #expect(earlyWhole.result(sampleInterval: 0.004) == late)
        for (c, row) in late.deviations.enumerated() {
            for (i, value) in row.enumerated() {
                #expect(abs(value - expected.deviations[c][i]) <= 1e-12 * expected.deviations[c][i])
            }
        }
    }

    /// Memory reserved for a known length (one logical history, no re-centring) or not at all
    /// (re-centred and regrown many times) changes nothing but the rounding of the sums.
    @Test func reservedMemoryAgrees() {
        let count = 50_000
        let y = Self.channels(count: count, seed: 11)
        var reserved = AllanDeviationAccumulator(channelCount: 2, maximumClusterSize: 4_096, expectedCount: count)
        var grown = AllanDeviationAccumulator(channelCount: 2, maximumClusterSize: 4_096)
        reserved.add(channels: y)
        grown.add(channels: y)
        let a = reserved.result(sampleInterval: 1), b = grown.result(sampleInterval: 1)
        #expect(a.clusterSizes == b.clusterSizes)
        for c in 0..<2 {
            for i in a.clusterSizes.indices {
                #expect(abs(a.deviations[c][i] - b.deviations[c][i]) <= 1e-11 * b.deviations[c][i])
            }
        }
    }
}
