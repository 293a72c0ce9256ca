import Testing
@testable import Poise

@Suite struct ButterworthTests {
    static func band(_ name: String, _ edges: [Double]) -> ButterworthBand {
        switch name {
        case "lowpass": .lowPass(cutoff: edges[0])
        case "highpass": .highPass(cutoff: edges[0])
        default: .bandPass(low: edges[0], high: edges[1])
        }
    }

    @Test func matchesScipySosfiltForAllOrdersAndBands() throws {
        let goldens = FilterGoldens.shared
        #expect(goldens.butterworth.count >= 48)
        for c in goldens.butterworth {
            var filter = try ButterworthFilter<Double>(band: Self.band(c.band, c.edges), order: c.order,
                                                       sampleRate: goldens.rate, start: c.start == "zero" ? .zero : .firstInput)
            let output = filter.process(goldens.input)
            let error = maximumRelativeError(output, c.output)
            #expect(error < 1e-9, "butter \(c.band) order \(c.order) \(c.edges) start \(c.start): relative error \(error)")
        }
    }

    @Test func floatFollowsDouble() throws {
        let goldens = FilterGoldens.shared
        let c = goldens.butterworth.first { $0.band == "lowpass" && $0.order == 4 && $0.start == "zero" }!
        var filter = try ButterworthFilter<Float>(band: .lowPass(cutoff: 5), order: 4, sampleRate: goldens.rate, start: .zero)
        let output = filter.process(goldens.input.map(Float.init)).map(Double.init)
        #expect(maximumRelativeError(output, c.output) < 1e-4)
    }

    @Test(arguments: 1...8)
    func lowPassHasUnityDCGainAndHalfPowerAtCutoff(order: Int) throws {
        let sections = try ButterworthDesign.sections(band: .lowPass(cutoff: 7), order: order, sampleRate: 100)
        #expect(sections.count == (order + 1) / 2)
        let dc = sections.reduce(1.0) { $0 * $1.dcGain }
        #expect(abs(dc - 1) < 1e-12)
        let atCutoff = sections.reduce(1.0) { $0 * $1.magnitude(atFrequency: 7, sampleRate: 100) }
        #expect(abs(atCutoff - 0.5.squareRoot()) < 1e-12)
        let nyquist = sections.reduce(1.0) { $0 * $1.magnitude(atFrequency: 50, sampleRate: 100) }
        #expect(nyquist < 1e-9)
    }

    @Test(arguments: 1...8)
    func highPassAndBandPassHaveHalfPowerAtTheirEdges(order: Int) throws {
        let high = try ButterworthDesign.sections(band: .highPass(cutoff: 3), order: order, sampleRate: 100)
        #expect(abs(high.reduce(1.0) { $0 * $1.magnitude(atFrequency: 3, sampleRate: 100) } - 0.5.squareRoot()) < 1e-12)
        #expect(abs(high.reduce(1.0) { $0 * $1.dcGain }) < 1e-12)
        let band = try ButterworthDesign.sections(band: .bandPass(low: 2, high: 9), order: order, sampleRate: 100)
        #expect(band.count == order)
        for edge in [2.0, 9.0] {
            let gain = band.reduce(1.0) { $0 * $1.magnitude(atFrequency: edge, sampleRate: 100) }
            #expect(abs(gain - 0.5.squareRoot()) < 1e-10, "edge \(edge) Hz gain \(gain)")
        }
    }

    @Test func lowPassPassesAConstantUnchanged() throws {
        var filter = try ButterworthFilter<SIMD4<Double>>(band: .lowPass(cutoff: 5), order: 6, sampleRate: 100)
        let x = SIMD4<Double>(0.25, -1, 3, 0)
        for _ in 0..<50 {
            let y = filter.process(x)
            #expect(((y - x) * (y - x)).sum() < 1e-24)
        }
    }

    @Test func rejectsBadDesigns() {
        #expect(throws: FilterParameterError.self) { try ButterworthDesign.sections(band: .lowPass(cutoff: 5), order: 9, sampleRate: 100) }
        #expect(throws: FilterParameterError.self) { try ButterworthDesign.sections(band: .lowPass(cutoff: 50), order: 2, sampleRate: 100) }
        #expect(throws: FilterParameterError.self) { try ButterworthDesign.sections(band: .bandPass(low: 5, high: 2), order: 2, sampleRate: 100) }
        #expect(throws: FilterParameterError.self) { try ButterworthDesign.sections(band: .highPass(cutoff: -1), order: 2, sampleRate: 100) }
    }
}
