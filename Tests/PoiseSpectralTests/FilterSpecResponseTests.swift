import Foundation
import Poise
import Testing
@testable import PoiseSpectral

/// Frequency responses of Poise's own filters, measured through their FilterSpec.
@Suite struct FilterSpecResponseTests {
    /// `butter:lowpass,order=4,cutoff=10` at 100 Hz: the measured response equals the exact
    /// response of the filter's own biquads, and it is 3.01 dB down at 10 Hz.
    @Test func butterworthMeasuredEqualsExactAndCutsAtCutoff() throws {
        let spec = try FilterSpec(parsing: "butter:lowpass,order=4,cutoff=10")
        let measured = try FrequencyResponse.measure(spec: spec, sampleRate: 100)
        let design = try ButterworthFilter<Double>(band: .lowPass(cutoff: 10), order: 4, sampleRate: 100)
        let exact = try FrequencyResponse(filter: SecondOrderSections(biquads: design.sections), sampleRate: 100,
                                          frequencies: measured.frequencies)
        expectClose(measured.response.map(\.real), exact.response.map(\.real), relative: 1e-8, floor: 1e-10, "real")
        expectClose(measured.response.map(\.imaginary), exact.response.map(\.imaginary), relative: 1e-8, floor: 1e-10, "imaginary")
        let fine = try FrequencyResponse(filter: SecondOrderSections(biquads: design.sections), sampleRate: 100,
                                         frequencies: FrequencyResponse.frequencyGrid(sampleRate: 100, count: 5001))
        #expect(abs(try #require(fine.frequency(atDrop: 10 * log10(2))) - 10) < 1e-3)
        #expect(abs(try #require(measured.frequency()) - 10) < 0.002)
        #expect(spec.isLinearTimeInvariant && measured.linearityError! < 1e-12)
    }

    /// `lowpass:cutoff=0.5` at 100 Hz is the RC low-pass α = dt/(dt + RC), RC = 1/(2π·fc)
    /// (its documented design): the measurement equals that transfer function α/(1 − (1−α)z⁻¹),
    /// and the gain at the cutoff is within 0.1 dB of −3 dB. (numpy, same formula: −3.08 dB at
    /// fc = rate/200, but −3.27 dB at fc = rate/50, so the design's −3 dB drifts as fc grows.)
    @Test func onePoleLowPassMatchesItsDesign() throws {
        let rate = 100.0, cutoff = 0.5
        let dt = 1 / rate, rc = 1 / (2 * Double.pi * cutoff), alpha = dt / (dt + rc)
        let measured = try FrequencyResponse.measure(spec: FilterSpec(parsing: "lowpass:cutoff=0.5"), sampleRate: rate, length: 8192)
        let exact = try FrequencyResponse(filter: TransferFunction(numerator: [alpha], denominator: [1, -(1 - alpha)]),
                                          sampleRate: rate, frequencies: measured.frequencies)
        expectClose(measured.response.map(\.real), exact.response.map(\.real), relative: 1e-8, floor: 1e-10, "real")
        expectClose(measured.groupDelay, exact.groupDelay, relative: 1e-7, floor: 1e-10, "group delay")
        let atCutoff = try FrequencyResponse(filter: TransferFunction(numerator: [alpha], denominator: [1, -(1 - alpha)]),
                                             sampleRate: rate, frequencies: [cutoff]).magnitudeDecibels[0]
        #expect(abs(atCutoff + 3) < 0.1)
        #expect(abs(try #require(measured.frequency()) - cutoff) < 0.02 * cutoff)
    }

    /// An adaptive filter is flagged: not LTI, and with an impulse large enough to make it adapt
    /// the measured response changes with the amplitude.
    @Test func adaptiveFiltersAreApproximate() throws {
        let spec = try FilterSpec(parsing: "accelgraph:cutoff=5,adaptive")
        #expect(!spec.isLinearTimeInvariant)
        let large = try FrequencyResponse.measure(spec: spec, sampleRate: 100, amplitude: 1)
        #expect(try #require(large.linearityError) > 0.01)
        let oneEuro = try FrequencyResponse.measure(spec: FilterSpec(parsing: "oneeuro:mincutoff=1,beta=0.5"), sampleRate: 100, amplitude: 1)
        #expect(try #require(oneEuro.linearityError) > 0.01)
    }

    @Test func specThatDoesNotSuitTheRateThrows() throws {
        let spec = try FilterSpec(parsing: "butter:lowpass,order=2,cutoff=60")
        #expect(throws: SpecError.self) { try FrequencyResponse.measure(spec: spec, sampleRate: 100) }
    }
}
