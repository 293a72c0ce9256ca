import Poise
import PoiseRecording

/// `poise gyro`'s turn rates per sample (time, s; the raw and the smoothed camera turn rate,
/// °/s, yaw and pitch) kept on disk for the lag and jitter, which need the still segments that
/// are known only after the samples: a temporary file of 40-byte records read and written
/// through one buffered block (`BlockRecordFile`), so the memory does not grow with the
/// recording.
///
/// `lag` and `jitter` feed the samples of the segments, in order, to the same accumulators as
/// `Poise.lag(output:input:segments:sampleRate:maximumShift:)` and
/// `Poise.jitter(output:input:times:segments:window:)` over arrays: the results are equal, bit
/// for bit.
public final class AimRateSpool {
    private let file: BlockRecordFile
    /// Samples appended.
    public private(set) var count = 0

    /// One sample: time, s; raw and smoothed turn rate (yaw, pitch), °/s.
    public struct Sample {
        public var time: Double
        public var raw: SIMD2<Double>
        public var smoothed: SIMD2<Double>
    }

    /// Makes the (empty) temporary file.
    ///
    /// - Throws: `RecordingError` naming the temporary folder when it cannot be made.
    public init() throws {
        file = try BlockRecordFile(size: 5 * MemoryLayout<Double>.stride, purpose: "the turn rates")
    }

    /// Appends the next sample.
    ///
    /// - Throws: `RecordingError` naming the temporary folder when it cannot be written.
    public func append(time: Double, raw: SIMD2<Double>, smoothed: SIMD2<Double>) throws {
        let f = try file.record(count, writing: true).assumingMemoryBound(to: Double.self)
        (f[0], f[1], f[2], f[3], f[4]) = (time, raw.x, raw.y, smoothed.x, smoothed.y)
        count += 1
    }

    /// Sample `i` (0 ≤ i < count).
    ///
    /// - Throws: `RecordingError` when the file cannot be written or read back.
    public func sample(_ i: Int) throws -> Sample {
        let f = try file.record(i, writing: false).assumingMemoryBound(to: Double.self)
        return Sample(time: f[0], raw: SIMD2(f[1], f[2]), smoothed: SIMD2(f[3], f[4]))
    }

    /// Calls `body` with the samples in order, in chunks of at most `size`: the index of the
    /// chunk's first sample, its times (s) and raw turn rates (°/s).
    ///
    /// - Throws: `RecordingError` when the file cannot be read back, or what `body` throws.
    public func forEachChunk(size: Int = 4096,
                             _ body: (Int, UnsafeBufferPointer<Double>, UnsafeBufferPointer<SIMD2<Double>>) throws -> Void) throws {
        var times = [Double](repeating: 0, count: size), raw = [SIMD2<Double>](repeating: .zero, count: size)
        var start = 0
        while start < count {
            let n = min(size, count - start)
            for k in 0..<n {
                let s = try sample(start + k)
                times[k] = s.time; raw[k] = s.raw
            }
            try times.withUnsafeBufferPointer { t in
                try raw.withUnsafeBufferPointer { r in
                    try body(start, UnsafeBufferPointer(rebasing: t[0..<n]), UnsafeBufferPointer(rebasing: r[0..<n]))
                }
            }
            start += n
        }
    }

    /// The lag of the smoothed rates behind the raw ones over the moving `segments` (see
    /// `Poise.lag`; segments of at most `maximumShift` samples are skipped).
    public func lag(segments: [Range<Int>], sampleRate: Double, maximumShift: Int) throws -> LagResult? {
        var accumulator = LagAccumulator<SIMD2<Double>>(maximumShift: maximumShift)
        for segment in segments where segment.count > accumulator.maximumShift {
            for i in segment {
                let s = try sample(i)
                accumulator.add(output: s.smoothed, input: s.raw)
            }
            accumulator.endSegment()
        }
        return accumulator.result(sampleRate: sampleRate)
    }

    /// The jitter of the smoothed rates over the still `segments` (see `Poise.jitter`, window 1 s).
    public func jitter(segments: [Range<Int>]) throws -> JitterResult {
        var accumulator = JitterAccumulator<SIMD2<Double>>(window: 1)
        for segment in segments where !segment.isEmpty {
            for i in segment {
                let s = try sample(i)
                accumulator.add(time: s.time, output: s.smoothed, input: s.raw)
            }
            accumulator.endSegment(keep: true)
        }
        return accumulator.result
    }
}
