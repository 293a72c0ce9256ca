import Foundation
import Testing
@testable import PoiseSpectral

@Suite struct FrequencyResponseTests {
    let golden = Golden.shared.response
    let rate = Golden.shared.sampleRate

    /// A direct-form I filter y = (Σ bₖx[n−k] − Σ aₖy[n−k]) / a₀, written here as the
    /// reference per-sample implementation of a transfer function.
    static func directForm(b: [Double], a: [Double]) -> (Double) -> Double {
        var x = [Double](repeating: 0, count: b.count), y = [Double](repeating: 0, count: a.count)
        return { input in
            x.removeLast(); x.insert(input, at: 0)
            var output = zip(b, x).reduce(0) { $0 + $1.0 * $1.1 }
            for k in 1..<a.count { output -= a[k] * y[k - 1] }
            output /= a[0]
            y.removeLast(); y.insert(output, at: 0)
            return output
        }
    }

    @Test func transferFunctionMatchesScipyFreqz() throws {
        let g = golden.butterworth2
        let filter = try TransferFunction(numerator: try #require(g.b), denominator: try #require(g.a))
        let response = try FrequencyResponse(filter: filter, sampleRate: rate, frequencies: golden.frequencies)
        expectClose(response.response.map(\.real), g.real, relative: 1e-10, "real")
        expectClose(response.response.map(\.imaginary), g.imaginary, relative: 1e-10, "imaginary")
        expectClose(response.groupDelay.map { $0 * rate }, g.groupDelay, relative: 1e-9, "group delay (samples)")
    }

    @Test func sectionsMatchScipySosfreqz() throws {
        let g = golden.butterworth4sos
        let filter = try SecondOrderSections(try #require(g.sos))
        let response = try FrequencyResponse(filter: filter, sampleRate: rate, frequencies: golden.frequencies)
        expectClose(response.response.map(\.real), g.real, relative: 1e-10, "real")
        expectClose(response.response.map(\.imaginary), g.imaginary, relative: 1e-10, "imaginary")
        expectClose(response.groupDelay.map { $0 * rate }, g.groupDelay, relative: 1e-9, "group delay (samples)")
    }

    /// Butterworth low-passes designed by scipy for 5 Hz and 10 Hz are 3.01 dB down exactly at
    /// their cutoff (bilinear transform with prewarping).
    @Test func butterworthIsThreeDecibelsDownAtCutoff() throws {
        let fine = FrequencyResponse.frequencyGrid(sampleRate: rate, count: 5001)  // 0.01 Hz apart
        let second = try FrequencyResponse(filter: TransferFunction(numerator: golden.butterworth2.b!, denominator: golden.butterworth2.a!),
                                           sampleRate: rate, frequencies: fine)
        let cutoff2 = try #require(second.frequency(atDrop: 10 * log10(2)))
        #expect(abs(cutoff2 - 5) < 1e-3, "\(cutoff2)")
        let fourth = try FrequencyResponse(filter: SecondOrderSections(golden.butterworth4sos.sos!), sampleRate: rate, frequencies: fine)
        let cutoff4 = try #require(fourth.frequency(atDrop: 10 * log10(2)))
        #expect(abs(cutoff4 - 10) < 1e-3, "\(cutoff4)")
        #expect(abs(second.magnitudeDecibels[0]) < 1e-9)   // unity DC gain
    }

    /// Measuring the impulse response of the per-sample Butterworth gives the exact response at
    /// the FFT bins, reports it as linear, and finds the same −3 dB point and delay.
    @Test func measuredImpulseResponseEqualsExact() throws {
        let g = golden.butterworth2
        let measured = try FrequencyResponse.measure(sampleRate: rate, length: 4096, amplitude: 0.5, baseline: 1) {
            Self.directForm(b: g.b!, a: g.a!)
        }
        let exact = try FrequencyResponse(filter: TransferFunction(numerator: g.b!, denominator: g.a!),
                                          sampleRate: rate, frequencies: measured.frequencies)
        expectClose(measured.response.map(\.real), exact.response.map(\.real), relative: 1e-8, floor: 1e-10, "real")
        expectClose(measured.response.map(\.imaginary), exact.response.map(\.imaginary), relative: 1e-8, floor: 1e-10, "imaginary")
        // Group delay is compared where the gain is above −80 dB (below it rounding of h dominates).
        let pass = measured.magnitudeDecibels.indices.filter { measured.magnitudeDecibels[$0] > -80 }
        expectClose(pass.map { measured.groupDelay[$0] }, pass.map { exact.groupDelay[$0] }, relative: 1e-6, floor: 1e-9, "group delay")
        #expect(try #require(measured.linearityError) < 1e-12)
        #expect(try #require(measured.tailEnergyFraction) < 1e-20)
        #expect(abs(try #require(measured.frequency()) - 5) < 0.002)
        #expect(abs(measured.lowFrequencyDelay - exact.lowFrequencyDelay) < 1e-9)
    }

    /// A one-pole smoother y += α(x − y) with α = 1 − e^{−2π·fc/fs} (the usual design): its
    /// measured −3 dB point is within 2 % of fc, its low-frequency delay is (1 − α)/α samples.
    @Test func onePoleLowPass() throws {
        let cutoff = 2.0, alpha = 1 - exp(-2 * Double.pi * cutoff / rate)
        let measured = try FrequencyResponse.measure(sampleRate: rate, length: 8192) {
            var y = 0.0
            return { x in y += alpha * (x - y); return y }
        }
        #expect(abs(try #require(measured.frequency()) - cutoff) < 0.02 * cutoff)
        #expect(abs(measured.lowFrequencyDelay * rate - (1 - alpha) / alpha) < 1e-6)
        // Phase is continuous and heads to −90° territory (never jumps by 2π).
        let phase = measured.phase
        #expect(zip(phase, phase.dropFirst()).allSatisfy { abs($1 - $0) < .pi })
    }

    /// A filter that clips its output is not linear; the measurement says so.
    @Test func nonlinearFilterIsFlagged() throws {
        let measured = try FrequencyResponse.measure(sampleRate: rate, length: 256, amplitude: 1) {
            var y = 0.0
            return { x in y += 0.5 * (x - y); return min(y, 0.4) }
        }
        #expect(try #require(measured.linearityError) > 0.1)
    }

    @Test func rejectsBadCoefficients() {
        #expect(throws: SpectralError.self) { try TransferFunction(numerator: [1], denominator: [0, 1]) }
        #expect(throws: SpectralError.self) { try TransferFunction(numerator: [], denominator: [1]) }
        #expect(throws: SpectralError.self) { try SecondOrderSections([[1, 2, 3]]) }
        #expect(throws: SpectralError.self) { try FrequencyResponse.measure(sampleRate: 100, length: 1) { { $0 } } }
        #expect(throws: SpectralError.nonFiniteSample(index: 0, channel: nil)) {
            try FrequencyResponse.measure(sampleRate: 100) { { _ in .nan } }
        }
    }
}
