import Foundation
import Testing
@testable import PoiseSpectral

@Suite struct WelchTests {
    let golden = Golden.shared

    /// Every window × detrend × scaling combination, odd lengths, explicit overlap and nfft
    /// padding match scipy.signal.welch to 1e-9 relative.
    @Test func matchesScipyWelch() throws {
        #expect(golden.welch.count == 33)
        for g in golden.welch {
            let configuration = SpectralConfiguration(
                sampleRate: golden.sampleRate, segmentLength: g.segmentLength, overlap: g.overlap, fftLength: g.fftLength,
                window: try #require(Window(name: g.window)), detrend: try #require(Detrend(rawValue: g.detrend)),
                scaling: try #require(SpectralScaling(rawValue: g.scaling)))
            let psd = try WelchEstimator(configuration: configuration).estimate(golden.signal)
            let label = "\(g.window)/\(g.detrend)/\(g.scaling)/L\(g.segmentLength)"
            expectClose(psd.frequencies, g.frequencies, relative: 1e-12, label + " frequencies")
            expectClose(psd.values, g.values, label)
        }
    }

    @Test func spectrogramMatchesScipy() throws {
        let g = golden.spectrogram
        let spectrogram = try Spectrogram(configuration: .spectrogramDefaults(sampleRate: golden.sampleRate, segmentLength: g.segmentLength))
        let result = try spectrogram.compute(golden.signal)
        expectClose(result.frequencies, g.frequencies, "frequencies")
        expectClose(result.times, g.times, "times")
        #expect(result.power.count == g.power.count)
        for (row, expected) in zip(result.power, g.power) { expectClose(row, expected, "spectrogram row") }
    }

    /// The spectrogram's rows, averaged, are Welch's estimate with the same configuration.
    @Test func spectrogramAverageIsWelch() throws {
        let configuration = SpectralConfiguration(sampleRate: 100, segmentLength: 50, overlap: 20, window: .blackman, detrend: .linear)
        let rows = try Spectrogram(configuration: configuration).compute(golden.signal).power
        let average = rows[0].indices.map { k in rows.reduce(0) { $0 + $1[k] } / Double(rows.count) }
        expectClose(average, try WelchEstimator(configuration: configuration).estimate(golden.signal).values, relative: 1e-12)
    }

    /// Summed over all bins, density × Δf is the mean square of the signal (Parseval), for one
    /// rectangular segment without detrending.
    @Test func densityIntegratesToMeanSquare() throws {
        let x = golden.signal
        let estimator = try WelchEstimator(configuration: SpectralConfiguration(
            sampleRate: 100, segmentLength: x.count, window: .rectangular, detrend: .none))
        let psd = try estimator.estimate(x)
        let meanSquare = x.reduce(0) { $0 + $1 * $1 } / Double(x.count)
        let total = try psd.bandPower(from: 0, to: .infinity)
        #expect(abs(total - meanSquare) <= 1e-12 * meanSquare)
    }

    /// A sine of amplitude A between bins: the interpolated peak is within 0.05 bin of its
    /// frequency (uninterpolated bins are up to 0.5 bin off), and the band around it holds A²/2.
    @Test func sinePeakAndBandPower() throws {
        let rate = 200.0, frequency = 37.3, amplitude = 2.0
        let x = (0..<20_000).map { amplitude * sin(2 * .pi * frequency * Double($0) / rate) }
        for window in [Window.hann, .hamming, .blackman, .flatTop] {
            let psd = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: 512, window: window)).estimate(x)
            let peak = try #require(psd.dominantPeak())
            #expect(abs(peak.frequency - frequency) < 0.05 * psd.frequencyResolution, "\(window): \(peak.frequency)")
            #expect(psd.frequencies[peak.bin] == (frequency / psd.frequencyResolution).rounded() * psd.frequencyResolution)
            let power = try psd.bandPower(from: frequency - 3, to: frequency + 3)
            #expect(abs(power - amplitude * amplitude / 2) < 1e-3 * amplitude * amplitude / 2, "\(window): \(power)")
            #expect(psd.peaks(count: 1).first == peak)
        }
        // With spectrum scaling the flat-top window reads the amplitude at the peak: A²/2.
        let spectrum = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: 512, window: .flatTop, scaling: .spectrum)).estimate(x)
        let peak = try #require(spectrum.dominantPeak())
        #expect(abs(spectrum.values[peak.bin] - amplitude * amplitude / 2) < 0.01 * amplitude * amplitude / 2)
    }

    /// White noise of standard deviation σ sampled at fs has one-sided density 2σ²/fs, so its
    /// noise density is σ·√(2/fs) unit/√Hz.
    @Test func noiseDensityOfWhiteNoise() throws {
        var random = SplitMix(state: 7)
        let sigma = 0.003, rate = 285.7
        let x = (0..<200_000).map { _ in 9.81 + sigma * random.normal() }
        let psd = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: 1024)).estimate(x)
        let density = try psd.noiseDensity()
        let expected = sigma * (2 / rate).squareRoot()
        #expect(abs(density - expected) < 0.01 * expected, "\(density) vs \(expected)")
    }

    @Test func rejectsBadInput() throws {
        let estimator = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 64))
        #expect(throws: SpectralError.signalTooShort(samples: 10, needed: 64)) { try estimator.estimate([Double](repeating: 0, count: 10)) }
        var x = golden.signal
        x[123] = .nan
        #expect(throws: SpectralError.nonFiniteSample(index: 123, channel: 1)) { try estimator.estimate(channels: [golden.signal, x]) }
        x[123] = 0; x[575] = .infinity
        #expect(throws: SpectralError.nonFiniteSample(index: 575, channel: nil)) { try estimator.estimate(x) }
        #expect(throws: SpectralError.self) { try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 0)) }
        #expect(throws: SpectralError.self) { try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 64, overlap: 64)) }
        #expect(throws: SpectralError.self) { try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 64, fftLength: 32)) }
        #expect(throws: SpectralError.self) { try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 0)) }
        // 600 samples hold 17 segments of 64 with step 32 (0…575); the rest is reported, not hidden.
        x[575] = 0; x[599] = .nan
        let psd = try estimator.estimate(x)
        #expect(psd.segmentCount == 17 && psd.unusedSamples == 24)
        #expect(throws: SpectralError.self) { try psd.bandPower(from: 10, to: 10) }
        #expect(throws: SpectralError.self) { try psd.bandPower(from: 10.1, to: 10.2) }  // between bins
    }

    @Test func windowNamesRoundTrip() {
        for window in [Window.rectangular, .hann, .hamming, .blackman, .flatTop, .tukey(alpha: 0.25)] {
            #expect(Window(name: window.name) == window)
        }
        #expect(Window(name: "kaiser") == nil)
        #expect(Window(name: "tukey:2") == nil)
    }
}
