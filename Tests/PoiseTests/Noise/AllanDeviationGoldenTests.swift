import Foundation
import Testing
import Poise

/// `AllanDeviation` against `allantools.oadev(y, rate, data_type="freq", taus=…)`:
/// Fixtures/allan_golden.json, made once by Tests/Goldens/allan_golden.py. The signals are rebuilt here
/// from the same integer generator.
@Suite struct AllanDeviationGoldenTests {
    struct Golden: Decodable {
        struct Channel: Decodable { var taus: [Double], deviations: [Double], terms: [Int] }
        struct Case: Decodable { var count: Int, rate: Double, sizes: String, channels: [Channel] }
        var cases: [Case]

        static let shared: Golden = {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../Fixtures/allan_golden.json")
            return try! JSONDecoder().decode(Golden.self, from: Data(contentsOf: url))
        }()
    }

    /// The generator of Tests/Goldens/allan_golden.py: values in [−0.5, 0.5).
    static func uniforms(seed: UInt64, count: Int) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1p-53 - 0.5
        }
    }

    /// The script's three channels: white noise on an offset, white noise plus a rate random
    /// walk, and a sine with noise on an offset of 1000.
    static func signals(count: Int, rate: Double) -> [[Double]] {
        let a = uniforms(seed: 1, count: count), b = uniforms(seed: 2, count: count), c = uniforms(seed: 3, count: count)
        let white = a.map { 0.5 + 0.01 * $0 }
        var level = 0.0
        var walk: [Double] = []
        for (v, w) in zip(a, b) {
            level += 1e-4 * w
            walk.append(0.02 * v + level)
        }
        let sine = c.enumerated().map { i, v in 1000.0 + 0.3 * sin(2 * Double.pi * 1.7 * Double(i) / rate) + 0.05 * v }
        return [white, walk, sine]
    }

    static func expectEqual(_ result: AllanDeviation, _ golden: Golden.Case, sourceLocation: SourceLocation = #_sourceLocation) {
        for (c, channel) in golden.channels.enumerated() {
            #expect(result.clusterTimes.count == channel.taus.count, "\(golden.sizes) \(golden.count): channel \(c) sizes", sourceLocation: sourceLocation)
            guard result.clusterTimes.count == channel.taus.count else { continue }
            for i in channel.taus.indices {
                #expect(abs(result.clusterTimes[i] - channel.taus[i]) <= 1e-12 * channel.taus[i], sourceLocation: sourceLocation)
                #expect(result.termCounts[i] == channel.terms[i], sourceLocation: sourceLocation)
                let relative = abs(result.deviations[c][i] - channel.deviations[i]) / channel.deviations[i]
                #expect(relative <= 1e-9, "\(golden.sizes) \(golden.count): channel \(c) τ \(channel.taus[i]) s: \(result.deviations[c][i]) vs \(channel.deviations[i])", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func equalsAllantoolsInMemory() {
        for golden in Golden.shared.cases {
            let sizes = AllanClusterSizes(rawValue: golden.sizes)!
            let result = AllanDeviation.overlapping(Self.signals(count: golden.count, rate: golden.rate), sampleRate: golden.rate, sizes: sizes)
            #expect(result.omittedClusterSizes.isEmpty)
            Self.expectEqual(result, golden)
        }
    }

    /// Sample by sample with no memory reserved: the buffer is moved and re-centred many times.
    @Test func equalsAllantoolsStreamed() {
        for golden in Golden.shared.cases {
            let sizes = AllanClusterSizes(rawValue: golden.sizes)!
            let channels = Self.signals(count: golden.count, rate: golden.rate)
            var accumulator = AllanDeviationAccumulator(channelCount: 3, sizes: sizes, maximumClusterSize: 1 << 30)
            for i in 0..<golden.count { accumulator.add([channels[0][i], channels[1][i], channels[2][i]]) }
            Self.expectEqual(accumulator.result(sampleInterval: 1 / golden.rate), golden)
        }
    }

    /// A bounded largest size keeps the memory bounded and gives the same values at the sizes
    /// it computes; the others are listed as omitted.
    @Test func boundedSizesAgreeAndListTheRest() {
        let golden = Golden.shared.cases.first { $0.count == 20000 && $0.sizes == "octave" }!
        let channels = Self.signals(count: golden.count, rate: golden.rate)
        var accumulator = AllanDeviationAccumulator(channelCount: 3, sizes: .octave, maximumClusterSize: 100)
        for i in 0..<golden.count { accumulator.add([channels[0][i], channels[1][i], channels[2][i]]) }
        let result = accumulator.result(sampleInterval: 1 / golden.rate)
        #expect(result.clusterSizes == [1, 2, 4, 8, 16, 32, 64])
        #expect(result.omittedClusterSizes == [128, 256, 512, 1024, 2048, 4096, 8192])
        for c in 0..<3 {
            for i in result.clusterSizes.indices {
                #expect(abs(result.deviations[c][i] - golden.channels[c].deviations[i]) <= 1e-9 * golden.channels[c].deviations[i])
            }
        }
    }

    @Test func sizeSets() {
        #expect(AllanClusterSizes.octave.sizes(upTo: 20) == [1, 2, 4, 8, 16])
        #expect(AllanClusterSizes.decade.sizes(upTo: 450) == [1, 2, 4, 10, 20, 40, 100, 200, 400])
        #expect(AllanClusterSizes.largestSize(sampleCount: 2) == 0)
        #expect(AllanClusterSizes.largestSize(sampleCount: 9) == 4)
    }

    /// A non-finite sample is reported by index; the other channels are unaffected.
    @Test func nonFiniteSamplesAreReported() {
        var accumulator = AllanDeviationAccumulator(channelCount: 2, maximumClusterSize: 8)
        for i in 0..<100 { accumulator.add([Double(i % 3), i == 42 ? .nan : Double(i % 5)]) }
        #expect(accumulator.firstNonFiniteIndex == [nil, 42])
        let result = accumulator.result(sampleInterval: 0.01)
        #expect(result.deviations[0].allSatisfy { $0.isFinite })
    }
}
