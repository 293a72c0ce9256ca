/// `Spectrogram` one sample at a time, for signals streamed from a file: the same segments and
/// rows as `Spectrogram.compute` on the whole signal (bit-identical), without holding the signal.
///
/// Memory: one segment (plus one step) per channel, and the rows themselves (segments × bins per
/// channel), which the caller bounds before starting (`SpectralConfiguration.segmentCount`).
public struct SpectrogramAccumulator {
    /// The configuration the accumulator was made for.
    public var configuration: SpectralConfiguration { transformer.configuration }
    /// Samples added so far (per channel).
    public private(set) var count = 0
    let transformer: SegmentTransformer
    let channelCount: Int
    var pending: [[Double]]
    /// Per channel, per segment: the scaled one-sided power per bin.
    var power: [[[Double]]]
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
        power = Array(repeating: [], count: channelCount)
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
            power[c].append((0..<t.binCount).map { k in
                (spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]) * t.binScale[k]
            })
            pending[c].removeFirst(t.step)
        }
    }

    /// The spectrogram of each channel, in channel order, times from the first sample.
    /// - Throws: `SpectralError.signalTooShort` or `.nonFiniteSample` (the first non-finite
    ///   sample of the first channel with one, as `Spectrogram.compute` reports it).
    public func finish() throws -> [SpectrogramResult] {
        let t = transformer
        guard count >= t.segmentLength else { throw SpectralError.signalTooShort(samples: count, needed: t.segmentLength) }
        let segments = power[0].count
        let rate = t.configuration.sampleRate
        let times = (0..<segments).map { (Double($0 * t.step) + Double(t.segmentLength) / 2) / rate }
        return try power.enumerated().map { c, rows in
            if rows.contains(where: { $0.contains { !$0.isFinite } }) {
                throw SpectralError.nonFiniteSample(index: firstNonFinite[c] ?? 0, channel: nil)
            }
            return SpectrogramResult(frequencies: t.frequencies, times: times, power: rows, scaling: t.configuration.scaling)
        }
    }
}
