import Poise
import PoiseRecording
import PoiseRun
import PoiseSpectral

/// The Welch analysis (and spectrogram) of `poise spectrum` streamed from the file, in memory that does not grow with the recording: the same numbers as loading the
/// recording and running `SpectrumReport` on it.
///
/// Passes over the file, each keeping no samples:
/// 1. count the selected samples (time within `--start`…`--end`), check the columns, and keep up
///    to `keptIntervalCount` of the positive intervals between them with a histogram of the top 16
///    bits of every one;
/// 2. only when there are more intervals than that, they are not all equal and there is no
///    `--rate`: select the median interval by
///    radix over the bit patterns (positive doubles sort like them), one pass per 16 bits, until
///    its bin holds at most `keptIntervalCount` intervals;
/// 3. feed every selected sample to a `WelchAccumulator` (one segment per channel in memory) and
///    count the gaps, repeated timestamps and largest period deviation against the median.
struct SpectrumStream {
    /// Intervals kept and sorted directly for the median.
    static let keptIntervalCount = 1 << 16

    let path: String
    let options: ReadOptions
    let start: Double?
    let end: Double?
    let channels: [MotionChannel]
    /// With `--still`: the positions, among the samples in the time range, of the longest still
    /// segment; only those are analysed.
    var indices: Range<Int>? = nil

    /// What the first pass found.
    struct Survey {
        var count = 0
        var firstTime = 0.0
        var lastTime = 0.0
        var intervals: [Double] = []
        var intervalCount = 0
        var shortestInterval = Double.infinity
        var longestInterval = 0.0
        var histogram = [Int](repeating: 0, count: 1 << 16)
    }

    /// Calls `visit` with every selected sample, in file order: one `Run` over the file (no
    /// pipeline stages) into a sink that selects by time and position.
    func forEachSelected(_ visit: (MotionSample) throws -> Void) throws {
        let low = start ?? -.infinity, high = end ?? .infinity
        let indices = self.indices
        var position = 0
        var done = false
        var run = Run(source: try RecordingSources.open(path: path, options: options), pipeline: Pipeline(), clock: AsFastAsPossible())
        try withoutActuallyEscaping(visit) { visit in
            var sink = ClosureSink { record in
                let sample = record.input
                guard !done, sample.time >= low && sample.time <= high else { return }
                defer { position += 1 }
                if let indices {
                    if position < indices.lowerBound { return }
                    if position >= indices.upperBound { done = true; return }
                }
                try visit(sample)
            }
            _ = try run.run(into: &sink, shouldStop: { done })
        }
    }

    /// The longest still segment (the first of the longest) among the samples in the time range,
    /// as positions among them: `RestDetector().longestStillSegment(in:)` in one streaming pass.
    func longestStillSegment(detector: RestDetector = RestDetector()) throws -> Range<Int>? {
        var tracker = StillSegmentTracker(detector: detector)
        var longest: Range<Int>?
        func consider(_ segments: [StillSegment]) {
            for segment in segments where segment.indices.count > (longest?.count ?? -1) { longest = segment.indices }
        }
        var whole = self
        whole.indices = nil
        try whole.forEachSelected { consider(tracker.add($0)) }
        consider(tracker.finish())
        return longest
    }

    /// Calls `visit` with every positive finite interval between consecutive selected samples.
    func forEachInterval(_ visit: (Double) -> Void) throws {
        var previous: Double?
        try forEachSelected { sample in
            if let previous {
                let interval = sample.time - previous
                if interval > 0, interval.isFinite { visit(interval) }
            }
            previous = sample.time
        }
    }

    /// Pass 1. Throws the error `MotionChannel.signal(from:)` gives for a magnetometer column
    /// of a recording without magnetometer data.
    func survey() throws -> Survey {
        var survey = Survey()
        let needsMagnetometer = channels.first { $0.needsMagnetometer }
        try forEachSelected { sample in
            if let channel = needsMagnetometer, sample.magneticField == nil {
                throw SpectralError.invalidParameter(name: "column", value: channel.rawValue, rule: "the recording has no magnetometer data")
            }
            if survey.count == 0 {
                survey.firstTime = sample.time
            } else {
                let interval = sample.time - survey.lastTime
                if interval > 0, interval.isFinite {
                    if survey.intervals.count < Self.keptIntervalCount { survey.intervals.append(interval) }
                    survey.histogram[Int(interval.bitPattern >> 48)] += 1
                    survey.intervalCount += 1
                    survey.shortestInterval = Swift.min(survey.shortestInterval, interval)
                    survey.longestInterval = Swift.max(survey.longestInterval, interval)
                }
            }
            survey.lastTime = sample.time
            survey.count += 1
        }
        return survey
    }

    /// The positive interval of rank `count / 2` (the median `SamplingEstimate` uses), or `nil`
    /// when there is none (or the file changed between the passes).
    func medianInterval(_ survey: Survey) throws -> Double? {
        guard survey.intervalCount > 0 else { return nil }
        if survey.intervalCount <= Self.keptIntervalCount { return survey.intervals.sorted()[survey.intervalCount / 2] }
        if survey.shortestInterval == survey.longestInterval { return survey.shortestInterval }  // a perfect clock
        var passes = 0
        return try IntervalMedian.select(count: survey.intervalCount, keep: Self.keptIntervalCount,
                                           topHistogram: survey.histogram, passes: &passes) { try forEachInterval($0) }
    }

    /// Pass 3 of `--spectrogram`: the short-time spectra of every channel (the caller bounds
    /// their number first).
    func spectrogram(configuration: SpectralConfiguration) throws -> [SpectrogramResult] {
        var accumulator = try SpectrogramAccumulator(configuration: configuration, channels: channels.count)
        var values = [Double](repeating: 0, count: channels.count)
        try forEachSelected { sample in
            for (index, channel) in channels.enumerated() { values[index] = channel.value(of: sample) ?? .nan }
            accumulator.add(values)
        }
        return try accumulator.finish()
    }

    /// Pass 3: the PSD of every channel, and the timing figures against `medianInterval` (when
    /// the rate came from the timestamps).
    func estimate(configuration: SpectralConfiguration, medianInterval: Double?) throws
        -> (spectra: [PowerSpectrum], sampling: SamplingEstimate?) {
        var welch = try WelchAccumulator(configuration: configuration, channels: channels.count)
        var values = [Double](repeating: 0, count: channels.count)
        var firstNonFiniteTime = [Double?](repeating: nil, count: channels.count)
        var previous: Double?
        var gaps = 0, nonIncreasing = 0, deviation = 0.0
        try forEachSelected { sample in
            for (index, channel) in channels.enumerated() {
                let value = channel.value(of: sample) ?? .nan
                if firstNonFiniteTime[index] == nil, !value.isFinite { firstNonFiniteTime[index] = sample.time }
                values[index] = value
            }
            welch.add(values)
            if let median = medianInterval, let previous {
                let period = sample.time - previous
                if period > 1.5 * median { gaps += 1 }
                if period <= 0 { nonIncreasing += 1 }
                deviation = Swift.max(deviation, abs(period - median) / median)
            }
            previous = sample.time
        }
        let spectra: [PowerSpectrum]
        do {
            spectra = try welch.finish()
        } catch SpectralError.nonFiniteSample(let index, let channel) {
            let c = channel ?? 0
            throw SpectralError.invalidParameter(name: "column", value: channels[c].rawValue,
                                                 rule: "non-finite value at sample \(index) (time \(firstNonFiniteTime[c] ?? .nan) s)")
        }
        let sampling = medianInterval.map {
            SamplingEstimate(sampleRate: 1 / $0, gaps: gaps, nonIncreasing: nonIncreasing, largestPeriodDeviation: deviation)
        }
        return (spectra, sampling)
    }
}
