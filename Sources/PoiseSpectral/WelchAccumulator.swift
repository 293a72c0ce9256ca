/// Welch's method one sample at a time, for signals too long to hold in memory: the same
/// segments, in the same order, summed the same way as `WelchEstimator`, so the PSD is
/// bit-identical to `WelchEstimator.estimate` on the whole signal.
///
/// Memory: one segment (plus one step) per channel and the FFT buffers; nothing grows with the
/// number of samples.
public struct WelchAccumulator {
    /// The configuration the accumulator was made for.
    public var configuration: SpectralConfiguration { transformer.configuration }
    /// Samples added so far (per channel).
    public private(set) var count = 0
    let transformer: SegmentTransformer
    let channelCount: Int
    /// Per channel: the samples not yet consumed by a segment (at most `segmentLength`).
    var pending: [[Double]]
    /// Per channel: the running sums of |X|² per bin.
    var sums: [[Double]]
    var segments = 0
    /// Per channel: index of the first non-finite sample, if any.
    var firstNonFinite: [Int?]
    let input: FFTWRealBuffer
    let output: FFTWComplexBuffer

    /// Validates `configuration` and prepares window and FFT plan for `channels` signals.
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    public init(configuration: SpectralConfiguration, channels: Int, planning: FFTPlanning = .estimate) throws {
        transformer = try SegmentTransformer(configuration: configuration, planning: planning)
        channelCount = Swift.max(1, channels)
        pending = Array(repeating: [], count: channelCount)
        for index in pending.indices { pending[index].reserveCapacity(transformer.segmentLength) }
        sums = Array(repeating: Array(repeating: 0, count: transformer.binCount), count: channelCount)
        firstNonFinite = Array(repeating: nil, count: channelCount)
        input = FFTWRealBuffer(count: transformer.fftLength)
        output = FFTWComplexBuffer(count: transformer.binCount)
    }

    /// Adds the next sample of every channel (`values[c]` for channel c, in any unit u).
    public mutating func add(_ values: [Double]) {
        precondition(values.count == channelCount, "one value per channel")
        for c in 0..<channelCount {
            if firstNonFinite[c] == nil, !values[c].isFinite { firstNonFinite[c] = count }
            pending[c].append(values[c])
        }
        count += 1
        guard pending[0].count == transformer.segmentLength else { return }
        let t = transformer
        let spectrum = UnsafeRawPointer(output.pointer).assumingMemoryBound(to: Double.self)
        for c in 0..<channelCount {
            pending[c].withUnsafeBufferPointer { t.transformSegment($0.baseAddress!, input: input, output: output) }
            sums[c].withUnsafeMutableBufferPointer { sums in
                for k in 0..<t.binCount {
                    let re = spectrum[2 * k], im = spectrum[2 * k + 1]
                    sums[k] += re * re + im * im
                }
            }
            pending[c].removeFirst(t.step)
        }
        segments += 1
    }

    /// The PSD of each channel (u²/Hz or u², as configured), in channel order.
    /// - Throws: `SpectralError.signalTooShort` (fewer samples than one segment) or
    ///   `.nonFiniteSample` naming the first non-finite sample and its channel.
    public func finish() throws -> [PowerSpectrum] {
        let t = transformer
        guard segments > 0 else { throw SpectralError.signalTooShort(samples: count, needed: t.segmentLength) }
        let average = 1 / Double(segments)
        return try (0..<channelCount).map { c in
            var values = [Double](repeating: 0, count: t.binCount)
            for k in 0..<t.binCount { values[k] = sums[c][k] * average * t.binScale[k] }
            if values.contains(where: { !$0.isFinite }) {
                throw SpectralError.nonFiniteSample(index: firstNonFinite[c] ?? 0, channel: c)
            }
            return PowerSpectrum(frequencies: t.frequencies, values: values, scaling: t.configuration.scaling,
                                 segmentCount: segments,
                                 unusedSamples: count - ((segments - 1) * t.step + t.segmentLength),
                                 equivalentNoiseBandwidth: t.equivalentNoiseBandwidth)
        }
    }
}
