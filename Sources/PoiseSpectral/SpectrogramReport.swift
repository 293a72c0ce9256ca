import Poise

/// What `poise spectrum --spectrogram` reports: per channel, the short-time PSD of every segment,
/// its dominant peak and its band powers, so one sees *when* a frequency is present (a vibration
/// motor switching on, a walking phase). Built by the library; the CLI only formats it.
public struct SpectrogramReport: Sendable, Codable {
    /// One channel's results; rows follow `SpectrogramReport.times`.
    public struct Channel: Sendable, Codable {
        /// Channel name (`acc_x`, …).
        public var name: String
        /// Signal unit; `power` is in unit²/Hz, `bandPowers` in unit².
        public var unit: String
        /// `power[time][frequency]`, unit²/Hz.
        public var power: [[Double]]
        /// Dominant peak per segment (above 0 Hz and ≥ the minimum peak frequency), interpolated;
        /// `nil` when no bin lies in that range.
        public var peaks: [SpectralPeak?]
        /// `bandPowers[time][band]`, unit².
        public var bandPowers: [[Double]]
    }

    /// Sample rate used, Hz.
    public var sampleRate: Double
    /// Welch/STFT settings used.
    public var configuration: SpectralConfiguration
    /// Segment centres in seconds on the recording's clock.
    public var times: [Double]
    /// Bin frequencies, Hz.
    public var frequencies: [Double]
    /// Bands of `Channel.bandPowers`.
    public var bands: [FrequencyBand]
    /// Results per channel, in the order requested.
    public var channels: [Channel]

    /// Computes the spectrogram of each channel of `samples` (time order, uniformly sampled).
    /// - Throws: `SpectralError` for a bad configuration, a too-short selection, missing
    ///   magnetometer data or an empty band.
    public init(samples: [MotionSample], channels: [MotionChannel], configuration: SpectralConfiguration,
                minimumPeakFrequency: Double = 0, bands: [FrequencyBand] = FrequencyBand.defaults) throws {
        guard samples.count >= configuration.segmentLength else {
            throw SpectralError.signalTooShort(samples: samples.count, needed: configuration.segmentLength)
        }
        let spectrogram = try Spectrogram(configuration: configuration)
        let results = try channels.map { try spectrogram.compute($0.signal(from: samples)) }
        try self.init(results: results, channels: channels, startTime: samples.first?.time ?? 0,
                      configuration: configuration, minimumPeakFrequency: minimumPeakFrequency, bands: bands)
    }

    /// The report from spectrograms already computed (for example by `SpectrogramAccumulator`
    /// while streaming a recording), one per channel in the same order; `startTime` is the first
    /// sample's time in seconds on the recording's clock.
    public init(results: [SpectrogramResult], channels: [MotionChannel], startTime: Double,
                configuration: SpectralConfiguration, minimumPeakFrequency: Double = 0,
                bands: [FrequencyBand] = FrequencyBand.defaults) throws {
        let bandwidth = try SegmentTransformer(configuration: configuration, planning: .estimate).equivalentNoiseBandwidth
        var output: [Channel] = []
        var frequencies: [Double] = [], times: [Double] = []
        for (channel, result) in zip(channels, results) {
            frequencies = result.frequencies
            times = result.times.map { startTime + $0 }
            var peaks: [SpectralPeak?] = [], powers: [[Double]] = []
            for row in result.power {
                let spectrum = PowerSpectrum(frequencies: result.frequencies, values: row, scaling: result.scaling,
                                             segmentCount: 1, unusedSamples: 0, equivalentNoiseBandwidth: bandwidth)
                let range = Swift.max(minimumPeakFrequency, spectrum.frequencyResolution * 0.5)...(result.frequencies.last ?? 0)
                peaks.append(spectrum.dominantPeak(in: range))
                powers.append(try bands.map { try spectrum.bandPower(from: $0.low, to: $0.high) })
            }
            output.append(Channel(name: channel.rawValue, unit: channel.unit, power: result.power, peaks: peaks, bandPowers: powers))
        }
        let results = output
        sampleRate = configuration.sampleRate
        self.configuration = configuration
        self.times = times
        self.frequencies = frequencies
        self.bands = bands
        self.channels = results
    }
}
