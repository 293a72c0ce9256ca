/// Welch's method one sample at a time, for signals too long to hold in memory: the same
/// segments, in the same order, summed the same way as `WelchEstimator`, so the PSD is
/// bit-identical to `WelchEstimator.estimate` on the whole signal.
///
/// Memory: one segment (plus one step) per channel and the FFT buffers; nothing grows with the
/// number of samples.
public struct WelchAccumulator {
    /// The configuration the accumulator was made for.
    public var configuration: SpectralConfiguration { feed.transformer.configuration }
    /// Samples added so far (per channel).
    public var count: Int { feed.count }
    var feed: SegmentFeed
    /// Per channel: the running sums of |X|² per bin.
    var sums: [[Double]]
    var segments = 0

    /// Validates `configuration` and prepares window and FFT plan for `channels` signals.
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    public init(configuration: SpectralConfiguration, channels: Int, planning: FFTPlanning = .estimate) throws {
        feed = try SegmentFeed(configuration: configuration, channels: channels, planning: planning)
        sums = Array(repeating: Array(repeating: 0, count: feed.transformer.binCount), count: feed.channelCount)
    }

    /// Adds the next sample of every channel (`values[c]` for channel c, in any unit u).
    public mutating func add(_ values: [Double]) {
        var sums = self.sums
        self.sums = []   // keeps the arrays uniquely referenced while the closure adds to them
        var completed = false
        let bins = feed.transformer.binCount
        feed.add(values) { c, spectrum in
            completed = true
            sums[c].withUnsafeMutableBufferPointer { addPower(spectrum, into: $0.baseAddress!, bins: bins) }
        }
        self.sums = sums
        if completed { segments += 1 }
    }

    /// The PSD of each channel (u²/Hz or u², as configured), in channel order.
    /// - Throws: `SpectralError.signalTooShort` (fewer samples than one segment) or
    ///   `.nonFiniteSample` naming the first non-finite sample and its channel.
    public func finish() throws -> [PowerSpectrum] {
        let t = feed.transformer
        guard segments > 0 else { throw SpectralError.signalTooShort(samples: count, needed: t.segmentLength) }
        let average = 1 / Double(segments)
        return try (0..<feed.channelCount).map { c in
            var values = [Double](repeating: 0, count: t.binCount)
            for k in 0..<t.binCount { values[k] = sums[c][k] * average * t.binScale[k] }
            if values.contains(where: { !$0.isFinite }) {
                throw SpectralError.nonFiniteSample(index: feed.firstNonFinite[c] ?? 0, channel: c)
            }
            return PowerSpectrum(frequencies: t.frequencies, values: values, scaling: t.configuration.scaling,
                                 segmentCount: segments,
                                 unusedSamples: count - ((segments - 1) * t.step + t.segmentLength),
                                 equivalentNoiseBandwidth: t.equivalentNoiseBandwidth)
        }
    }
}
