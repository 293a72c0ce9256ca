import Poise

/// A frequency band in Hz, `low ≤ f < high`.
public struct FrequencyBand: Sendable, Hashable, Codable {
    /// Lower edge in Hz (included).
    public var low: Double
    /// Upper edge in Hz (excluded); `.infinity` reaches the Nyquist frequency.
    public var high: Double

    /// The band `low ≤ f < high`, in Hz.
    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// Parses `LOW-HIGH` or `LOW-` (to the Nyquist frequency), in Hz; `nil` if malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), low >= 0 else { return nil }
        let high = parts[1].isEmpty ? Double.infinity : Double(parts[1])
        guard let high, high > low else { return nil }
        self.init(low: low, high: high)
    }

    /// The defaults of the `spectrum` command: 0–1 Hz (posture, slow motion), 1–5 Hz (hand and
    /// body motion), 5–20 Hz (tremor, footsteps, shake), 20 Hz–Nyquist (vibration).
    public static let defaults = [FrequencyBand(low: 0, high: 1), FrequencyBand(low: 1, high: 5),
                                  FrequencyBand(low: 5, high: 20), FrequencyBand(low: 20, high: .infinity)]

    /// The default bands that start below the Nyquist frequency of `sampleRate` (Hz).
    public static func defaults(sampleRate: Double) -> [FrequencyBand] {
        defaults.filter { $0.low < sampleRate / 2 }
    }

    /// `LOW–HIGH Hz`, or `LOW Hz–Nyquist`.
    public var label: String {
        func number(_ x: Double) -> String { x == x.rounded() && x.magnitude < 1e15 ? String(Int(x)) : String(x) }
        return high.isInfinite ? "\(number(low)) Hz–Nyquist" : "\(number(low))–\(number(high)) Hz"
    }
}

/// What the `spectrum` command reports for a recording: Welch PSD per channel, its peaks, band
/// powers and noise density. Built by the library; the CLI only formats it.
public struct SpectrumReport: Sendable, Codable {
    /// One channel's results.
    public struct Channel: Sendable, Codable {
        /// Channel name (`acc_x`, …; see `MotionChannel`).
        public var name: String
        /// Unit of the signal (`g`, `rad/s`, `µT`); the PSD is in unit²/Hz.
        public var unit: String
        /// Power spectral density at `SpectrumReport.frequencies`, unit²/Hz.
        public var psd: [Double]
        /// Largest local maxima, largest first, interpolated between bins.
        public var peaks: [SpectralPeak]
        /// Power (unit²) in each of `SpectrumReport.bands`, in the same order.
        public var bandPowers: [Double]
        /// √(mean PSD) over the bins above 0 Hz, in unit/√Hz: the noise density when the
        /// selection is a still segment.
        public var noiseDensity: Double
        /// Root mean square of the detrended signal (√ of the power over all bins), in unit.
        public var rms: Double
    }

    /// Number of samples analysed.
    public var samples: Int
    /// Time of the first and last analysed sample, seconds on the recording's clock.
    public var startTime: Double, endTime: Double
    /// Sample rate used, in Hz.
    public var sampleRate: Double
    /// Timing of the selection, when estimated from timestamps (`nil` when the rate was given).
    public var sampling: SamplingEstimate?
    /// Welch settings used.
    public var configuration: SpectralConfiguration
    /// Number of segments averaged, and trailing samples left out.
    public var segmentCount: Int, unusedSamples: Int
    /// Bin frequencies in Hz.
    public var frequencies: [Double]
    /// Bands of `Channel.bandPowers`.
    public var bands: [FrequencyBand]
    /// Results per channel, in the order requested.
    public var channels: [Channel]

    /// Analyses `samples` (in time order) with Welch's method.
    ///
    /// - Parameters:
    ///   - samples: the recording's samples (units of `MotionSample`).
    ///   - channels: what to analyse (throws if a magnetometer channel is asked for without data).
    ///   - configuration: Welch settings; its `sampleRate` is used as is.
    ///   - sampling: the timing estimate to report, if the rate came from the timestamps.
    ///   - peakCount: peaks per channel.
    ///   - minimumPeakFrequency: Hz; peaks below are ignored.
    ///   - bands: for band powers.
    public init(samples: [MotionSample], channels: [MotionChannel], configuration: SpectralConfiguration,
                sampling: SamplingEstimate?, peakCount: Int = 3, minimumPeakFrequency: Double = 0,
                bands: [FrequencyBand] = FrequencyBand.defaults) throws {
        // Before planning: a segment longer than the recording is an error, not a huge allocation.
        guard samples.count >= configuration.segmentLength else {
            throw SpectralError.signalTooShort(samples: samples.count, needed: configuration.segmentLength)
        }
        let estimator = try WelchEstimator(configuration: configuration)
        var spectra: [PowerSpectrum] = []
        for channel in channels {
            let signal = try channel.signal(from: samples)
            do {
                spectra.append(try estimator.estimate(signal))
            } catch SpectralError.nonFiniteSample(let index, _) {
                throw SpectralError.invalidParameter(name: "column", value: channel.rawValue,
                                                     rule: "non-finite value at sample \(index) (time \(samples[index].time) s)")
            }
        }
        try self.init(spectra: spectra, channels: channels, samples: samples.count,
                      startTime: samples.first?.time ?? 0, endTime: samples.last?.time ?? 0,
                      configuration: configuration, sampling: sampling, peakCount: peakCount,
                      minimumPeakFrequency: minimumPeakFrequency, bands: bands)
    }

    /// The report from PSDs already estimated (for example by `WelchAccumulator` while streaming
    /// a recording), one per channel in the same order.
    ///
    /// - Parameters:
    ///   - spectra: one PSD per channel, in the order of `channels`.
    ///   - channels: the channels the PSDs are of.
    ///   - samples: number of samples analysed.
    ///   - startTime: time of the first sample analysed, seconds on the recording's clock.
    ///   - endTime: time of the last sample analysed, seconds on the recording's clock.
    ///   - configuration: the Welch settings the PSDs were estimated with.
    ///   - sampling: the timing estimate to report, if the rate came from the timestamps.
    ///   - peakCount: peaks per channel.
    ///   - minimumPeakFrequency: Hz; peaks below are ignored.
    ///   - bands: for band powers.
    public init(spectra: [PowerSpectrum], channels: [MotionChannel], samples: Int, startTime: Double, endTime: Double,
                configuration: SpectralConfiguration, sampling: SamplingEstimate?, peakCount: Int = 3,
                minimumPeakFrequency: Double = 0, bands: [FrequencyBand] = FrequencyBand.defaults) throws {
        var results: [Channel] = []
        for (channel, psd) in zip(channels, spectra) {
            let range = Swift.max(minimumPeakFrequency, psd.frequencyResolution * 0.5)...(psd.frequencies.last ?? 0)
            results.append(Channel(
                name: channel.rawValue, unit: channel.unit, psd: psd.values,
                peaks: psd.peaks(count: peakCount, in: range),
                bandPowers: try bands.map { try psd.bandPower(from: $0.low, to: $0.high) },
                noiseDensity: try psd.noiseDensity(),
                rms: try psd.bandPower(from: 0, to: .infinity).squareRoot()))
        }
        guard let first = spectra.first, !results.isEmpty else {
            throw SpectralError.invalidParameter(name: "columns", value: "(none)", rule: "name at least one column")
        }
        self.samples = samples
        self.startTime = startTime
        self.endTime = endTime
        sampleRate = configuration.sampleRate
        self.sampling = sampling
        self.configuration = configuration
        segmentCount = first.segmentCount
        unusedSamples = first.unusedSamples
        frequencies = first.frequencies
        self.bands = bands
        self.channels = results
    }
}

extension RestDetector {
    /// The longest still segment (most samples) in `samples`, as an index range, or `nil` when
    /// there is none. For measuring sensor noise density where the device lies still.
    public func longestStillSegment(in samples: [MotionSample]) -> Range<Int>? {
        stillSegments(in: samples).max { $0.count < $1.count }
    }
}
