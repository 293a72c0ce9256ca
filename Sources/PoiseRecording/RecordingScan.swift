import Poise

/// What a replay needs to know about a recording before delivering it, found by streaming passes
/// over the file that keep no samples: every row is read and checked (so a bad row is reported,
/// with file, line and column, before anything runs), samples are counted, and the first and last
/// timestamps and the median rate are kept.
///
/// The nominal rate is exactly `nominalSampleRate(of:)` of the whole recording (1 / the median
/// positive interval) in bounded memory: up to `keptIntervalCount` intervals are kept and sorted;
/// beyond that the median is selected by radix on the intervals' bit patterns (positive doubles
/// sort like their bit patterns): the checking pass counts the top 16 bits, and each further pass
/// over the file either counts the next 16 bits of the intervals in the chosen bin or, once that bin
/// holds at most `keptIntervalCount` intervals, collects and sorts them. Usually two extra passes
/// (at most three); 512 KiB of counts and at most 512 KiB of intervals.
public struct RecordingScan: Sendable {
    /// Intervals kept and sorted directly (recordings with more samples take extra passes).
    public static let keptIntervalCount = 1 << 16

    /// The path read.
    public var path: String
    /// The column layout.
    public var schema: RecordingSchema
    /// Samples delivered by the reader.
    public var sampleCount: Int
    /// Time of the first and last sample, s (`nil` without samples).
    public var firstTime: Double?
    public var lastTime: Double?
    /// The recording's median rate, Hz (1 / median positive interval, as `nominalSampleRate(of:)`);
    /// `nil` when its timestamps never increase.
    public var nominalRate: Double?
    /// Passes over the file that were needed (1 when the intervals fitted in memory).
    public var passes: Int
    /// The reader's stored issues (lenient mode; the first `ReadOptions.maximumStoredIssues`) and counts.
    public var issues: [RecordingIssue]
    public var summary: ReadSummary

    /// Reads `path` with `RecordingReader` (more than once for a long recording, see the type).
    ///
    /// - Throws: `RecordingError` (file, line, column) for anything the reader rejects.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        try self.init(path: path, options: options, keep: Self.keptIntervalCount)
    }

    /// `keep`: intervals kept and sorted directly (tests use a small number to exercise the passes).
    init(path: String, options: ReadOptions, keep: Int) throws {
        try self.init(path: path, reading: try RecordingSources.open(path: path, options: options), keep: keep) {
            try RecordingSources.open(path: path, options: options)
        }
    }

    /// Scans `source`, a recording just opened, and reads the recording again from its start with
    /// `reopen` for the median's further passes (a long recording; see the type): for a caller
    /// that reads the samples some other way after the first pass (`SampleSpool`).
    ///
    /// - Throws: what the sources throw.
    public init(path: String, reading source: any SampleSource, reopening reopen: () throws -> any SampleSource) throws {
        try self.init(path: path, reading: source, keep: Self.keptIntervalCount, reopening: reopen)
    }

    init(path: String, reading reader: any SampleSource, keep: Int, reopening reopen: () throws -> any SampleSource) throws {
        self.path = path
        schema = reader.schema
        var intervals: [Double] = []
        var histogram = [Int](repeating: 0, count: 1 << 16)
        var intervalCount = 0
        var count = 0
        var first: Double?
        var previous = 0.0
        while let sample = try reader.next() {
            if count == 0 {
                first = sample.time
            } else {
                let interval = sample.time - previous
                if interval > 0, interval.isFinite {
                    if intervalCount < keep { intervals.append(interval) }
                    histogram[Int(interval.bitPattern >> 48)] += 1
                    intervalCount += 1
                }
            }
            previous = sample.time
            count += 1
        }
        sampleCount = count
        firstTime = first
        lastTime = count > 0 ? previous : nil
        issues = reader.issues
        summary = reader.summary
        passes = 1
        if intervalCount == 0 {
            nominalRate = nil
        } else if intervalCount <= keep {
            intervals.sort()
            nominalRate = 1 / intervals[intervalCount / 2]
        } else {
            var passes = 1
            let median = try Self.selectMedian(count: intervalCount, keep: keep, topHistogram: histogram, passes: &passes) {
                try Self.forEachInterval(of: reopen(), $0)
            }
            self.passes = passes
            // Only a file that changed between the passes has no consistent median: fall back to the
            // median of the first intervals.
            nominalRate = 1 / (median ?? { intervals.sort(); return intervals[intervals.count / 2] }())
        }
    }

    /// The interval of rank `count / 2` in sorted order, by radix selection over further passes.
    /// `topHistogram` counts the positive intervals by the top 16 bits of their bit pattern; each
    /// further pass calls `intervals` to visit every positive interval again, in any order (`nil`
    /// when two passes disagree: the source changed). Stops at `keep` or fewer intervals left in
    /// play, which it keeps and sorts.
    package static func selectMedian(count: Int, keep: Int, topHistogram: [Int], passes: inout Int,
                                     intervals forEachInterval: ((Double) -> Void) throws -> Void) throws -> Double? {
        var rank = count / 2          // 0-based rank among the intervals still in play
        var histogram = topHistogram
        var prefix: UInt64 = 0         // the fixed top bits of the median's bit pattern
        var length = 0                 // how many
        while true {
            // Choose the bin holding the rank.
            var bin = 0
            while bin < histogram.count, rank >= histogram[bin] { rank -= histogram[bin]; bin += 1 }
            guard bin < histogram.count else { return nil }
            prefix = prefix << 16 | UInt64(bin)
            length += 16
            let inBin = histogram[bin]
            if length == 64 { return Double(bitPattern: prefix) }
            let shift = UInt64(64 - length)
            passes += 1
            if inBin <= keep {
                var kept: [Double] = []
                kept.reserveCapacity(inBin)
                try forEachInterval { interval in
                    if interval.bitPattern >> shift == prefix { kept.append(interval) }
                }
                guard kept.count == inBin else { return nil }
                kept.sort()
                return kept[rank]
            }
            for index in histogram.indices { histogram[index] = 0 }
            try forEachInterval { interval in
                let bits = interval.bitPattern
                if bits >> shift == prefix { histogram[Int((bits >> (shift - 16)) & 0xFFFF)] += 1 }
            }
            guard histogram.reduce(0, +) == inBin else { return nil }
        }
    }

    /// Calls `visit` with every positive finite interval between consecutive samples of `reader`,
    /// in order.
    static func forEachInterval(of reader: any SampleSource, _ visit: (Double) -> Void) throws {
        guard var previous = try reader.next()?.time else { return }
        while let sample = try reader.next() {
            let interval = sample.time - previous
            if interval > 0, interval.isFinite { visit(interval) }
            previous = sample.time
        }
    }
}

/// A recording read as a `Sequence` of samples, streamed from disk in constant memory (one
/// `RecordingReader` per iteration). A sequence cannot throw, so a read error ends the iteration
/// and is kept in `error`: check it after the loop.
public final class RecordingStream: Sequence {
    /// The path and options read with.
    public let path: String
    public let options: ReadOptions
    /// The first error met while iterating (the iteration ended there), or `nil`.
    public private(set) var error: (any Error)?

    /// - Throws: `RecordingError` when the file cannot be opened or its header is unusable (checked
    ///   once here; each iteration reopens the file).
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        _ = try RecordingSources.open(path: path, options: options)
    }

    public struct Iterator: IteratorProtocol {
        let stream: RecordingStream
        var reader: (any SampleSource)?

        public mutating func next() -> MotionSample? {
            guard let reader else { return nil }
            do {
                if let sample = try reader.next() { return sample }
            } catch {
                if stream.error == nil { stream.error = error }
            }
            self.reader = nil
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        do {
            return Iterator(stream: self, reader: try RecordingSources.open(path: path, options: options))
        } catch {
            if self.error == nil { self.error = error }
            return Iterator(stream: self, reader: nil)
        }
    }
}
