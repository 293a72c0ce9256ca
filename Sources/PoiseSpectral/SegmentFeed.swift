/// The segmenting that `WelchAccumulator` and `SpectrogramAccumulator` share: samples of every
/// channel arrive one at a time; each time a segment is complete, every channel's segment is
/// windowed, detrended and transformed (`SegmentTransformer`), and the segment moves on by one step.
///
/// Memory: one segment (plus one step) per channel and the FFT buffers.
struct SegmentFeed {
    let transformer: SegmentTransformer
    let channelCount: Int
    /// Samples added so far (per channel).
    private(set) var count = 0
    /// Per channel: the samples not yet consumed by a segment (at most `segmentLength`).
    private var pending: [[Double]]
    /// Per channel: index of the first non-finite sample, if any.
    private(set) var firstNonFinite: [Int?]
    private let input: FFTWRealBuffer
    private let output: FFTWComplexBuffer

    /// Validates `configuration` and prepares window and FFT plan for `channels` signals.
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    init(configuration: SpectralConfiguration, channels: Int, planning: FFTPlanning) throws {
        transformer = try SegmentTransformer(configuration: configuration, planning: planning)
        channelCount = Swift.max(1, channels)
        pending = Array(repeating: [], count: channelCount)
        for index in pending.indices { pending[index].reserveCapacity(transformer.segmentLength) }
        firstNonFinite = Array(repeating: nil, count: channelCount)
        input = FFTWRealBuffer(count: transformer.fftLength)
        output = FFTWComplexBuffer(count: transformer.binCount)
    }

    /// Adds the next sample of every channel (`values[c]` for channel c). When that completes a
    /// segment, calls `segment(c, spectrum)` for each channel in order, `spectrum` being the
    /// segment's one-sided FFT as interleaved (re, im) pairs for `binCount` bins (unscaled).
    mutating func add(_ values: [Double], segment: (Int, UnsafePointer<Double>) -> Void) {
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
            segment(c, spectrum)
            pending[c].removeFirst(t.step)
        }
    }
}
