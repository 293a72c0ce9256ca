/// Short-time power spectra (spectrogram) of a signal: the per-segment spectra Welch's method
/// averages, kept one per segment. Equals `scipy.signal.spectrogram(x, fs, window, nperseg,
/// noverlap, nfft, detrend, return_onesided=True, scaling, mode="psd")` transposed (rows here are
/// times). For scipy's defaults use `SpectralConfiguration.spectrogramDefaults(sampleRate:)`.
public struct Spectrogram: Sendable {
    /// The configuration this spectrogram was made for.
    public var configuration: SpectralConfiguration { transformer.configuration }
    let transformer: SegmentTransformer

    /// Validates `configuration` and prepares window and FFT plan (`planning`: FFTW's effort).
    public init(configuration: SpectralConfiguration, planning: FFTPlanning = .estimate) throws {
        transformer = try SegmentTransformer(configuration: configuration, planning: planning)
    }

    /// The spectrogram of a uniformly sampled signal (unit u → u²/Hz or u²).
    /// - Throws: `SpectralError.signalTooShort` or `.nonFiniteSample`.
    public func compute(_ signal: [Double]) throws -> SpectrogramResult {
        let t = transformer
        guard signal.count >= t.segmentLength else {
            throw SpectralError.signalTooShort(samples: signal.count, needed: t.segmentLength)
        }
        let segments = t.configuration.segmentCount(samples: signal.count)
        var power = [[Double]](repeating: [], count: segments)
        _ = signal.withUnsafeBufferPointer { signal in
            t.forEachSegment(signal) { segment, spectrum in
                power[segment] = (0..<t.binCount).map { k in
                    (spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]) * t.binScale[k]
                }
            }
        }
        for row in power where row.contains(where: { !$0.isFinite }) {
            let index = signal.withUnsafeBufferPointer(firstNonFiniteIndex) ?? 0
            throw SpectralError.nonFiniteSample(index: index, channel: nil)
        }
        let rate = t.configuration.sampleRate
        let times = (0..<segments).map { (Double($0 * t.step) + Double(t.segmentLength) / 2) / rate }
        return SpectrogramResult(frequencies: t.frequencies, times: times, power: power, scaling: t.configuration.scaling)
    }
}

/// The output of `Spectrogram.compute`.
public struct SpectrogramResult: Sendable, Hashable, Codable {
    /// Bin frequencies in Hz.
    public var frequencies: [Double]
    /// Segment centres in seconds from the first sample: (i·step + segmentLength/2) / fs.
    public var times: [Double]
    /// `power[timeIndex][frequencyIndex]`, in unit²/Hz (`density`) or unit² (`spectrum`).
    public var power: [[Double]]
    /// Which scaling `power` uses.
    public var scaling: SpectralScaling
}
