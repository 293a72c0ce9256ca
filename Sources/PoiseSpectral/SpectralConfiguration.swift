/// How a signal is cut into segments and each segment turned into a one-sided power spectrum;
/// shared by Welch's method and the spectrogram. Values are in user units and validated by the
/// estimators (`WelchEstimator`, `Spectrogram`) that derive their state from them.
///
/// Defaults equal `scipy.signal.welch`'s: Hann window, 256-sample segments, half-overlap,
/// constant detrend, density scaling.
public struct SpectralConfiguration: Sendable, Hashable, Codable {
    /// Sampling rate in Hz (> 0). The signal is assumed uniformly sampled.
    public var sampleRate: Double
    /// Samples per segment (scipy `nperseg`), ≥ 1. Default 256.
    public var segmentLength: Int
    /// Samples shared by consecutive segments (scipy `noverlap`), in 0..<segmentLength;
    /// `nil` means `segmentLength / 2`.
    public var overlap: Int?
    /// FFT length (scipy `nfft`), ≥ segmentLength; the segment is zero-padded to it only when you
    /// ask for it here. `nil` means `segmentLength` (no padding).
    public var fftLength: Int?
    /// Taper applied to each segment. Default `.hann`.
    public var window: Window
    /// Trend removed from each segment before windowing. Default `.constant`.
    public var detrend: Detrend
    /// Output scaling. Default `.density` (unit²/Hz).
    public var scaling: SpectralScaling

    /// Creates a configuration; see the properties for units and defaults.
    public init(sampleRate: Double, segmentLength: Int = 256, overlap: Int? = nil, fftLength: Int? = nil,
                window: Window = .hann, detrend: Detrend = .constant, scaling: SpectralScaling = .density) {
        self.sampleRate = sampleRate
        self.segmentLength = segmentLength
        self.overlap = overlap
        self.fftLength = fftLength
        self.window = window
        self.detrend = detrend
        self.scaling = scaling
    }

    /// `scipy.signal.spectrogram`'s defaults: Tukey(0.25) window, 256-sample segments,
    /// overlap of segmentLength / 8, constant detrend, density scaling.
    public static func spectrogramDefaults(sampleRate: Double, segmentLength: Int = 256) -> SpectralConfiguration {
        SpectralConfiguration(sampleRate: sampleRate, segmentLength: segmentLength, overlap: segmentLength / 8,
                              window: .tukey(alpha: 0.25))
    }

    /// The overlap actually used, in samples.
    public var resolvedOverlap: Int { overlap ?? segmentLength / 2 }
    /// The FFT length actually used.
    public var resolvedFFTLength: Int { fftLength ?? segmentLength }
    /// Samples between the starts of consecutive segments.
    public var step: Int { segmentLength - resolvedOverlap }
    /// Spacing of the frequency bins in Hz: sampleRate / FFT length.
    public var frequencyResolution: Double { sampleRate / Double(resolvedFFTLength) }

    /// Throws the first rule the configuration breaks.
    public func validate() throws {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw SpectralError.invalidParameter(name: "sample rate", value: "\(sampleRate) Hz", rule: "must be finite and > 0")
        }
        guard segmentLength >= 1, segmentLength <= 1 << 28 else {
            throw SpectralError.invalidParameter(name: "segment length", value: "\(segmentLength)", rule: "must be in 1…\(1 << 28)")
        }
        guard resolvedOverlap >= 0, resolvedOverlap < segmentLength else {
            throw SpectralError.invalidParameter(name: "overlap", value: "\(resolvedOverlap)", rule: "must be in 0..<segment length (\(segmentLength))")
        }
        guard resolvedFFTLength >= segmentLength, resolvedFFTLength <= 1 << 28 else {
            throw SpectralError.invalidParameter(name: "FFT length", value: "\(resolvedFFTLength)", rule: "must be ≥ segment length (\(segmentLength)) and ≤ \(1 << 28)")
        }
        if case .tukey(let alpha) = window, !(alpha >= 0 && alpha <= 1) {
            throw SpectralError.invalidParameter(name: "Tukey alpha", value: "\(alpha)", rule: "must be in [0, 1]")
        }
    }

    /// Number of whole segments in a signal of `samples` samples (no partial segment is used).
    public func segmentCount(samples: Int) -> Int {
        samples < segmentLength ? 0 : (samples - segmentLength) / step + 1
    }
}
