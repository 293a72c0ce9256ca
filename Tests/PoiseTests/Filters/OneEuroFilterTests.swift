import Testing
@testable import Poise

@Suite struct OneEuroFilterTests {
    @Test func matchesTheReferenceImplementationWithIrregularTimestamps() throws {
        let goldens = FilterGoldens.shared
        for c in goldens.one_euro {
            var filter = try OneEuroFilter<Double>(minimumCutoff: c.mincutoff, beta: c.beta, derivativeCutoff: c.dcutoff,
                                                   sampleRate: goldens.rate)
            var output: [Double] = []
            for i in goldens.input.indices {
                output.append(i == 0 ? filter.process(goldens.input[i])
                                     : filter.process(goldens.input[i], dt: goldens.times[i] - goldens.times[i - 1]))
            }
            let error = maximumRelativeError(output, c.output)
            #expect(error < 1e-9, "mincutoff \(c.mincutoff) beta \(c.beta): relative error \(error)")
        }
    }

    @Test func vectorLanesAreFilteredIndependently() throws {
        let input = FilterGoldens.shared.input
        var scalar = try OneEuroFilter<Double>(minimumCutoff: 0.5, beta: 0.3, sampleRate: 100)
        var vector = try OneEuroFilter<SIMD2<Double>>(minimumCutoff: 0.5, beta: 0.3, sampleRate: 100)
        for x in input {
            let y = vector.process(SIMD2(x, 0.25))
            #expect(abs(y.x - scalar.process(x)) < 1e-15)
            #expect(y.y == 0.25)
        }
    }
}
