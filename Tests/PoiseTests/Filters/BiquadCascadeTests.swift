import Testing
@testable import Poise

/// The buffer form of the SOS cascade (blocks of sections interleaved sample by sample) against
/// the per-sample form, many-channel SIMD filters against one channel at a time, and the Float
/// cascade against scipy's goldens.
@Suite struct BiquadCascadeTests {
    static let bands: [ButterworthBand] = [.lowPass(cutoff: 5), .highPass(cutoff: 2), .bandPass(low: 1, high: 10)]

    /// A 3-axis signal with noise, a slow sine and a step; the fourth lane stays zero.
    static func signal(_ count: Int, seed: UInt64) -> [SIMD4<Float>] {
        var g = SplitMix(seed: seed)
        return (0..<count).map { n in
            let t = Float(n) / 100
            return SIMD4<Float>(0.3 * Float.sin(2 * t), n % 700 < 350 ? 1 : -1, 9.8, 0)
                + SIMD4(Float(g.gaussian()), Float(g.gaussian()), Float(g.gaussian()), 0) * 0.05
        }
    }

    /// Lengths around the block length (1024) and a prime well past two blocks.
    static let lengths = [1, 2, 1023, 1024, 1025, 3001]

    @Test(arguments: 1...8)
    func bufferFormEqualsPerSampleForEveryBandAndStart(order: Int) throws {
        let x = Self.signal(3001, seed: UInt64(order))
        for band in Self.bands {
            for start in FilterStart.allCases {
                let made = try ButterworthFilter<SIMD4<Float>>(band: band, order: order, sampleRate: 100, start: start)
                var single = made
                let expected = x.map { single.process($0) }
                for n in Self.lengths {
                    var batch = made
                    let actual = batch.process(Array(x.prefix(n)))
                    #expect(actual == Array(expected.prefix(n)), "\(band) order \(order) \(start) length \(n)")
                }
            }
        }
    }

    @Test func bufferFormEqualsPerSampleAcrossCallsOfAnyLength() throws {
        // Band-pass order 8 is 8 sections: two passes of four per block.
        let x = Self.signal(5000, seed: 3)
        var chunked = try ButterworthFilter<SIMD4<Double>>(band: .bandPass(low: 0.5, high: 20), order: 8, sampleRate: 100)
        var single = chunked
        let doubles = x.map { SIMD4<Double>($0) }
        let expected = doubles.map { single.process($0) }
        var g = SplitMix(seed: 11)
        var actual: [SIMD4<Double>] = []
        var i = 0
        while i < doubles.count {
            let n = min(doubles.count - i, Int(g.next() % 1500))
            actual += chunked.process(Array(doubles[i..<(i + n)]))
            i += n
        }
        #expect(actual == expected)
        // And the per-sample form continues exactly where the buffer form stopped.
        #expect(chunked.process(doubles[17]) == single.process(doubles[17]))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 9])
    func arbitrarySectionsRunLikePerSample(sectionCount: Int) {
        // Any stable SOS cascade, not only Butterworth designs: poles inside the unit circle.
        var g = SplitMix(seed: UInt64(sectionCount))
        let sections = (0..<sectionCount).map { _ in
            let radius = 0.5 + 0.45 * g.uniform(), angle = Double.pi * g.uniform()
            return Biquad(b0: g.gaussian(), b1: g.gaussian(), b2: g.gaussian(),
                          a1: -2 * radius * Double.cos(angle), a2: radius * radius)
        }
        let x = Self.signal(2500, seed: 5)
        var batch = ButterworthFilter<SIMD4<Float>>(sections: sections)
        var single = batch
        #expect(batch.process(x) == x.map { single.process($0) })
    }

    @Test func noSectionsPassesTheInputThrough() {
        var filter = ButterworthFilter<SIMD4<Float>>(sections: [])
        let x = Self.signal(1500, seed: 2)
        #expect(filter.process(x) == x)
    }

    @Test(arguments: [1, 4, 8])
    func manyChannelsEqualOneChannelAtATime(order: Int) throws {
        // 16 channels with different signals; SIMD8 / SIMD16 filters against 16 Float filters.
        let count = 2600
        var g = SplitMix(seed: 21)
        var channels: [[Float]] = []
        for c in 0..<16 {
            let offset = Float(c) / 10, period = 100 + 37 * c
            channels.append((0..<count).map { n -> Float in
                let step: Float = n % period < 50 ? 1 : 0
                return offset + step + Float(g.gaussian()) / 10
            })
        }
        for band in Self.bands {
            let one = try ButterworthFilter<Float>(band: band, order: order, sampleRate: 100)
            let expected = channels.map { channel in
                var f = one
                return f.process(channel)
            }
            var eight = try ButterworthFilter<SIMD8<Float>>(band: band, order: order, sampleRate: 100)
            let eightOut = eight.process((0..<count).map { n in SIMD8<Float>((0..<8).map { channels[$0][n] }) })
            var sixteen = try ButterworthFilter<SIMD16<Float>>(band: band, order: order, sampleRate: 100)
            let sixteenOut = sixteen.process((0..<count).map { n in SIMD16<Float>((0..<16).map { channels[$0][n] }) })
            for c in 0..<16 {
                let lanes = (0..<count).map { sixteenOut[$0][c] }
                #expect(lanes == expected[c], "\(band) order \(order) SIMD16 lane \(c)")
                if c < 8 {
                    #expect((0..<count).map { eightOut[$0][c] } == expected[c], "\(band) order \(order) SIMD8 lane \(c)")
                }
            }
        }
    }

    @Test func badInputAndOverflowAtBlockEdgesMatchPerSample() throws {
        // Wide values (two sections per pass) and many sections (several passes per block).
        var x = Self.signal(4200, seed: 9).map { v -> SIMD16<Float> in
            SIMD16(lowHalf: SIMD8(lowHalf: v, highHalf: 2 * v), highHalf: SIMD8(lowHalf: -v, highHalf: v + 1))
        }
        for i in [0, 1023, 1024, 2047, 4199] { x[i][5] = .nan }
        for i in [1500, 3072] { x[i][0] = .infinity }
        for i in 2500..<2510 { x[i] = SIMD16(repeating: 3.4e38) }
        for band in Self.bands {
            var batch = try ButterworthFilter<SIMD16<Float>>(band: band, order: 8, sampleRate: 100)
            var single = batch
            let expected = x.map { single.process($0) }
            let actual = batch.process(x)
            #expect(actual == expected, "\(band)")
            #expect(actual.allSatisfy { $0.isFinite })
        }
    }

    @Test func floatCascadeFollowsScipyGoldens() throws {
        // The Float buffer form against scipy's float64 sosfilt for every golden case. Low-pass
        // designs stay within 1e-5 (relative, floor 1e-3 of the peak; measured ≤ 2.8e-6; with
        // separate multiplies and adds ≤ 8.3e-6). High- and band-pass outputs are small next to
        // the input and their poles sit close to the unit circle, so Float rounding shows more
        // (worst: band-pass 30–48 Hz order 8 at 100 Hz, 8.0e-3; unfused 9.0e-3).
        let goldens = FilterGoldens.shared
        let input = goldens.input.map(Float.init)
        for c in goldens.butterworth {
            var filter = try ButterworthFilter<Float>(band: ButterworthTests.band(c.band, c.edges), order: c.order,
                                                      sampleRate: goldens.rate, start: c.start == "zero" ? .zero : .firstInput)
            let error = maximumRelativeError(filter.process(input).map(Double.init), c.output)
            let limit = c.band == "lowpass" ? 1e-5 : 2e-2
            #expect(error < limit, "butter \(c.band) order \(c.order) \(c.edges) start \(c.start): relative error \(error)")
        }
    }
}
