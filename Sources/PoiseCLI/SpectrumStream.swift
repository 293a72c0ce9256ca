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

    /// Hands every selected sample, in file order, to `visitor`: one `Run` over the file (no
    /// pipeline stages) into a sink that selects by time and position. The visitor is a value
    /// the sink holds, so a pass's per-sample work runs on its own stored properties (no captured
    /// variables, no dynamic exclusivity checks per sample).
    func forEachSelected<V: SampleVisitor>(_ visitor: inout V) throws {
        let stop = StopFlag()
        var sink = Selection(visitor: visitor, low: start ?? -.infinity, high: end ?? .infinity,
                             indices: indices, stop: stop)
        var run = Run(source: try RecordingSources.open(path: path, options: options), pipeline: Pipeline(), clock: AsFastAsPossible())
        _ = try run.run(into: &sink, shouldStop: { stop.raised })
        visitor = sink.visitor
    }

    /// Calls `visit` with every selected sample, in file order (for the passes that run rarely).
    func forEachSelected(_ visit: (MotionSample) throws -> Void) throws {
        try withoutActuallyEscaping(visit) { visit in
            var visitor = ClosureVisitor(body: visit)
            try forEachSelected(&visitor)
        }
    }

    /// What a pass does with each selected sample.
    protocol SampleVisitor {
        mutating func visit(_ sample: MotionSample) throws
    }

    private struct ClosureVisitor: SampleVisitor {
        let body: (MotionSample) throws -> Void
        func visit(_ sample: MotionSample) throws { try body(sample) }
    }

    /// Set once the selected positions are past; the run stops at its next poll.
    private final class StopFlag {
        var raised = false
    }

    /// The sink of a pass: the samples within `low…high`, and of those the positions in `indices`.
    private struct Selection<V: SampleVisitor>: Sink {
        var visitor: V
        let low: Double, high: Double
        let indices: Range<Int>?
        let stop: StopFlag
        var position = 0
        var done = false

        mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
            let sample = record.input
            guard !done, sample.time >= low && sample.time <= high else { return }
            defer { position += 1 }
            if let indices {
                if position < indices.lowerBound { return }
                if position >= indices.upperBound { done = true; stop.raised = true; return }
            }
            try visitor.visit(sample)
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
        var pass = SurveyPass(needsMagnetometer: channels.first { $0.needsMagnetometer })
        try forEachSelected(&pass)
        return pass.survey
    }

    private struct SurveyPass: SampleVisitor {
        let needsMagnetometer: MotionChannel?
        var survey = Survey()

        mutating func visit(_ sample: MotionSample) throws {
            if let channel = needsMagnetometer, sample.magneticField == nil {
                throw SpectralError.invalidParameter(name: "column", value: channel.rawValue, rule: "the recording has no magnetometer data")
            }
            if survey.count == 0 {
                survey.firstTime = sample.time
            } else {
                let interval = sample.time - survey.lastTime
                if interval > 0, interval.isFinite {
                    if survey.intervals.count < SpectrumStream.keptIntervalCount { survey.intervals.append(interval) }
                    survey.histogram[Int(interval.bitPattern >> 48)] += 1
                    survey.intervalCount += 1
                    survey.shortestInterval = Swift.min(survey.shortestInterval, interval)
                    survey.longestInterval = Swift.max(survey.longestInterval, interval)
                }
            }
            survey.lastTime = sample.time
            survey.count += 1
        }
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
        var pass = WelchPass(channels: channels, medianInterval: medianInterval,
                             welch: try WelchAccumulator(configuration: configuration, channels: channels.count))
        try forEachSelected(&pass)
        let welch = pass.welch
        let firstNonFiniteTime = pass.firstNonFiniteTime
        let (gaps, nonIncreasing, deviation) = (pass.gaps, pass.nonIncreasing, pass.deviation)
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

    /// Pass 3's per-sample work: the channels' values into the Welch accumulator, and the timing
    /// figures against the median interval.
    private struct WelchPass: SampleVisitor {
        let channels: [MotionChannel]
        let medianInterval: Double?
        var welch: WelchAccumulator
        var values: [Double]
        var firstNonFiniteTime: [Double?]
        var previous: Double?
        var gaps = 0, nonIncreasing = 0, deviation = 0.0

        init(channels: [MotionChannel], medianInterval: Double?, welch: WelchAccumulator) {
            self.channels = channels; self.medianInterval = medianInterval; self.welch = welch
            values = Array(repeating: 0, count: channels.count)
            firstNonFiniteTime = Array(repeating: nil, count: channels.count)
        }

        mutating func visit(_ sample: MotionSample) throws {
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
    }
}
