/// A one-sided power spectrum: value per frequency bin, with what is needed to integrate it.
public struct PowerSpectrum: Sendable, Hashable, Codable {
    /// Bin centre frequencies in Hz, from 0 to at most the Nyquist frequency, equally spaced.
    public var frequencies: [Double]
    /// Power per bin: unit²/Hz for `density` scaling, unit² for `spectrum` scaling, where unit is
    /// the unit of the input signal.
    public var values: [Double]
    /// Which scaling `values` use.
    public var scaling: SpectralScaling
    /// Number of segments averaged.
    public var segmentCount: Int
    /// Trailing samples after the last whole segment, not used (as in scipy); 0 when the segments
    /// end exactly at the end of the signal.
    public var unusedSamples: Int
    /// Equivalent noise bandwidth of the window in Hz, fs·Σw²/(Σw)²; converts between the
    /// scalings: density = spectrum / equivalentNoiseBandwidth.
    public var equivalentNoiseBandwidth: Double

    /// Creates a spectrum from its parts (see the properties for units).
    public init(frequencies: [Double], values: [Double], scaling: SpectralScaling, segmentCount: Int,
                unusedSamples: Int, equivalentNoiseBandwidth: Double) {
        self.unusedSamples = unusedSamples
        self.frequencies = frequencies
        self.values = values
        self.scaling = scaling
        self.segmentCount = segmentCount
        self.equivalentNoiseBandwidth = equivalentNoiseBandwidth
    }

    /// Bin spacing in Hz.
    public var frequencyResolution: Double {
        frequencies.count > 1 ? frequencies[1] - frequencies[0] : 0
    }

    /// Values as a density (unit²/Hz), whatever the scaling.
    public var density: [Double] {
        scaling == .density ? values : values.map { $0 / equivalentNoiseBandwidth }
    }
}
