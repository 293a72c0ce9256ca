/// `Spectrogram` one sample at a time, for signals streamed from a file: the same segments and
/// rows as `Spectrogram.compute` on the whole signal (bit-identical), without holding the signal.
///
/// Memory: one segment (plus one step) per channel, and the rows themselves (segments × bins per
/// channel), which the caller bounds before starting (`SpectralConfiguration.segmentCount`).
public struct SpectrogramAccumulator {
    /// The configuration the accumulator was made for.
    public var configuration: SpectralConfiguration { feed.transformer.configuration }
    /// Samples added so far (per channel).
    public var count: Int { feed.count }
    var feed: SegmentFeed
    /// Per channel, per segment: the scaled one-sided power per bin.
    var power: [[[Double]]]

    /// Validates `configuration` and prepares window and FFT plan for `channels` signals.
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    public init(configuration: SpectralConfiguration, channels: Int, planning: FFTPlanning = .estimate) throws {
        feed = try SegmentFeed(configuration: configuration, channels: channels, planning: planning)
        power = Array(repeating: [], count: feed.channelCount)
    }

    /// Adds the next sample of every channel (`values[c]` for channel c, in any unit u).
    public mutating func add(_ values: [Double]) {
        var power = self.power
        self.power = []   // keeps the rows uniquely referenced while the closure appends
        let t = feed.transformer
        feed.add(values) { c, spectrum in
            power[c].append((0..<t.binCount).map { k in
                (spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]) * t.binScale[k]
            })
        }
        self.power = power
    }

    /// The spectrogram of each channel, in channel order, times from the first sample.
    /// - Throws: `SpectralError.signalTooShort` or `.nonFiniteSample` (the first non-finite
    ///   sample of the first channel with one, as `Spectrogram.compute` reports it).
    public func finish() throws -> [SpectrogramResult] {
        let t = feed.transformer
        guard count >= t.segmentLength else { throw SpectralError.signalTooShort(samples: count, needed: t.segmentLength) }
        let segments = power[0].count
        let rate = t.configuration.sampleRate
        let times = (0..<segments).map { (Double($0 * t.step) + Double(t.segmentLength) / 2) / rate }
        return try power.enumerated().map { c, rows in
            if rows.contains(where: { $0.contains { !$0.isFinite } }) {
                throw SpectralError.nonFiniteSample(index: feed.firstNonFinite[c] ?? 0, channel: nil)
            }
            return SpectrogramResult(frequencies: t.frequencies, times: times, power: rows, scaling: t.configuration.scaling)
        }
    }
}
