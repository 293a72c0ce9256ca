/// `Spectrogram` one sample at a time, for signals streamed from a file: the same segments and
/// rows as `Spectrogram.compute` on the whole signal (bit-identical), without holding the signal.
///
/// Memory: one segment (plus one step) per channel, and the rows themselves (segments × bins per
/// channel), which the caller bounds before starting (`SpectralConfiguration.segmentCount`), or
/// bounds by averaging each `group` consecutive segments into one row.
public struct SpectrogramAccumulator {
    /// The configuration the accumulator was made for.
    public var configuration: SpectralConfiguration { feed.transformer.configuration }
    /// Samples added so far (per channel).
    public var count: Int { feed.count }
    var feed: SegmentFeed
    /// Per channel, per segment (or group of segments): the scaled one-sided power per bin.
    var power: [[[Double]]]
    /// Consecutive segments averaged into one row.
    public let group: Int
    /// Per channel: the sum of the current group's rows, and how many it holds.
    var groupSums: [[Double]]
    var grouped = 0

    /// Validates `configuration` and prepares window and FFT plan for `channels` signals.
    /// - Throws: `SpectralError.invalidParameter` naming the first bad parameter.
    ///
    /// - Parameters:
    ///   - configuration: Welch segment settings (length, overlap, window, sample rate).
    ///   - channels: how many signals are fed per sample.
    ///   - planning: how hard FFTW searches for a fast plan.
    ///   - group: consecutive segments averaged into one row (1: every segment is a row,
    ///     bit-identical to `Spectrogram.compute`); a row's time is the mean of its segments' times.
    public init(configuration: SpectralConfiguration, channels: Int, planning: FFTPlanning = .estimate, group: Int = 1) throws {
        feed = try SegmentFeed(configuration: configuration, channels: channels, planning: planning)
        power = Array(repeating: [], count: feed.channelCount)
        self.group = max(1, group)
        groupSums = Array(repeating: Array(repeating: 0, count: feed.transformer.binCount), count: feed.channelCount)
    }

    /// Adds the next sample of every channel (`values[c]` for channel c, in any unit u).
    public mutating func add(_ values: [Double]) {
        var power = self.power
        self.power = []   // keeps the rows uniquely referenced while the closure appends
        var sums = groupSums
        groupSums = []
        let t = feed.transformer
        let group = self.group
        var completed = false
        feed.add(values) { c, spectrum in
            completed = true
            let row = (0..<t.binCount).map { k in
                (spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]) * t.binScale[k]
            }
            if group == 1 { power[c].append(row) } else { for k in row.indices { sums[c][k] += row[k] } }
        }
        if completed && group > 1 {
            grouped += 1
            if grouped == group { Self.flush(&sums, into: &power, count: grouped); grouped = 0 }
        }
        self.power = power
        groupSums = sums
    }

    /// Appends the mean of the group's rows to each channel and clears the sums.
    static func flush(_ sums: inout [[Double]], into power: inout [[[Double]]], count: Int) {
        for c in sums.indices {
            power[c].append(sums[c].map { $0 / Double(count) })
            for k in sums[c].indices { sums[c][k] = 0 }
        }
    }

    /// The spectrogram of each channel, in channel order, times from the first sample.
    /// - Throws: `SpectralError.signalTooShort` or `.nonFiniteSample` (the first non-finite
    ///   sample of the first channel with one, as `Spectrogram.compute` reports it).
    public func finish() throws -> [SpectrogramResult] {
        let t = feed.transformer
        guard count >= t.segmentLength else { throw SpectralError.signalTooShort(samples: count, needed: t.segmentLength) }
        var power = self.power
        var sums = groupSums
        if grouped > 0 { Self.flush(&sums, into: &power, count: grouped) }
        let segments = power[0].count
        let rate = t.configuration.sampleRate
        // A row's time: the mean of its segments' centres.
        let segmentCount = group == 1 ? segments : (segments - 1) * group + max(grouped, grouped == 0 ? group : 0)
        let times = (0..<segments).map { row -> Double in
            let first = row * group, last = min(segmentCount, first + group) - 1
            let centre = (Double(first + last) / 2 * Double(t.step) + Double(t.segmentLength) / 2) / rate
            return group == 1 ? (Double(row * t.step) + Double(t.segmentLength) / 2) / rate : centre
        }
        return try power.enumerated().map { c, rows in
            if rows.contains(where: { $0.contains { !$0.isFinite } }) {
                throw SpectralError.nonFiniteSample(index: feed.firstNonFinite[c] ?? 0, channel: nil)
            }
            return SpectrogramResult(frequencies: t.frequencies, times: times, power: rows, scaling: t.configuration.scaling)
        }
    }
}
