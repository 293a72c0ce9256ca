/// Power spectral density by Welch's method (P. D. Welch, "The use of fast Fourier transform for
/// the estimation of power spectra", IEEE Trans. Audio Electroacoust. 15(2), 1967).
///
/// The signal is cut into whole segments of `segmentLength` samples, `step` apart; each is
/// detrended, windowed and transformed; the scaled one-sided |X|² are averaged (mean) over the
/// segments. Equals `scipy.signal.welch(x, fs, window, nperseg, noverlap, nfft, detrend,
/// return_onesided=True, scaling, average="mean")` to about 1e-12 relative (tested to 1e-9).
///
/// Trailing samples that do not fill a whole segment are not used (as in scipy); their number is
/// reported in `PowerSpectrum.unusedSamples`.
///
/// Differences from scipy, on purpose: a signal shorter than one segment is an error (scipy
/// silently shortens the segment), and a non-finite sample is an error naming its index (scipy
/// returns NaN).
///
/// Configuration is checked and plans are made once in `init`; `estimate` can then be called from
/// any number of threads at once.
public struct WelchEstimator: Sendable {
    /// The configuration this estimator was made for.
    public var configuration: SpectralConfiguration { transformer.configuration }
    let transformer: SegmentTransformer

    /// Validates `configuration` and prepares window and FFT plan (`planning`: FFTW's effort).
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    public init(configuration: SpectralConfiguration, planning: FFTPlanning = .estimate) throws {
        transformer = try SegmentTransformer(configuration: configuration, planning: planning)
    }

    /// The PSD (or power spectrum) of one uniformly sampled signal.
    ///
    /// - Parameter signal: samples in any unit u; the result is in u²/Hz (`density`) or u²
    ///   (`spectrum`).
    /// - Throws: `SpectralError.signalTooShort` or `.nonFiniteSample`.
    /// - Complexity: O(N log L) for N samples and segments of L.
    public func estimate(_ signal: [Double]) throws -> PowerSpectrum {
        try signal.withUnsafeBufferPointer { try estimate($0, channel: nil) }
    }

    /// The PSD of each channel (for example the x, y, z axes), in the order given.
    public func estimate(channels: [[Double]]) throws -> [PowerSpectrum] {
        try channels.enumerated().map { index, channel in
            try channel.withUnsafeBufferPointer { try estimate($0, channel: index) }
        }
    }

    /// The PSD of the samples in `signal`; the pointer is used only during the call.
    public func estimate(_ signal: UnsafeBufferPointer<Double>) throws -> PowerSpectrum {
        try estimate(signal, channel: nil)
    }

    private func estimate(_ signal: UnsafeBufferPointer<Double>, channel: Int?) throws -> PowerSpectrum {
        let t = transformer
        guard signal.count >= t.segmentLength else {
            throw SpectralError.signalTooShort(samples: signal.count, needed: t.segmentLength)
        }
        var sums = [Double](repeating: 0, count: t.binCount)
        let bins = t.binCount
        let segments = sums.withUnsafeMutableBufferPointer { sums in
            let sums = sums.baseAddress!
            return t.forEachSegment(signal) { _, spectrum in addPower(spectrum, into: sums, bins: bins) }
        }
        let average = 1 / Double(segments)
        var values = [Double](repeating: 0, count: bins)
        for k in 0..<bins { values[k] = sums[k] * average * t.binScale[k] }
        if values.contains(where: { !$0.isFinite }) {
            // NaN/∞ can only come from the input; name the first bad sample.
            throw SpectralError.nonFiniteSample(index: firstNonFiniteIndex(signal) ?? 0, channel: channel)
        }
        return PowerSpectrum(frequencies: t.frequencies, values: values, scaling: t.configuration.scaling,
                             segmentCount: segments,
                             unusedSamples: signal.count - ((segments - 1) * t.step + t.segmentLength),
                             equivalentNoiseBandwidth: t.equivalentNoiseBandwidth)
    }
}
