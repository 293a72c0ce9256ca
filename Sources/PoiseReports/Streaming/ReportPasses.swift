import Poise
import PoiseRecording
import PoiseRun
import PoiseSpectral

/// What the report keeps from its pass over the raw recording: the still segments, envelopes of
/// the raw acceleration and rotation rate, Welch PSDs of the acceleration, the spectrogram of
/// |a| and the fused attitude with its error against the truth.
///
/// A sink of a `Run` whose pipeline is ``pipeline`` (the device-motion fusion when the recording
/// has a gyroscope, else none); its summary is the pass, finished.
struct RawPass: Sink {
    let count: Int
    let rate: Double
    let t0: Double
    var tracker: StillSegmentTracker
    /// Still segments, absolute times.
    var still: [StillSegment] = []
    var acceleration: [SeriesEnvelope]
    var gyroscope: [SeriesEnvelope]
    /// Welch segment length (``ReportFigures/welchSegment(count:)``).
    let welchSegment: Int
    var welch: WelchAccumulator?
    let spectrogramSegment: Int
    /// Consecutive spectrogram segments averaged into one column (1 unless the recording has
    /// more than ``maximumSpectrogramColumns`` segments).
    let spectrogramGroup: Int
    var spectrogramAccumulator: SpectrogramAccumulator?
    /// The run's pipeline: the fusion of the attitude section, or no stage without a gyroscope.
    var pipeline = Pipeline()
    var score: OrientationErrorSink?
    var attitude: AttitudeTrace?
    var values = [0.0, 0.0, 0.0]
    var magnitude = [0.0]

    /// Most spectrogram columns kept (about 4 per pixel of the heat map).
    static let maximumSpectrogramColumns = 4096

    /// - Parameters: `hasGyroscope`, `hasMagnetometer`, `hasTruth`: what the recording holds (the
    ///   attitude section needs a gyroscope; 9D with a magnetometer; its error needs the truth).
    init(count: Int, rate: Double, t0: Double, duration: Double, hasGyroscope: Bool, hasMagnetometer: Bool, hasTruth: Bool,
         detector: RestDetector) throws {
        self.count = count
        self.rate = rate
        self.t0 = t0
        tracker = StillSegmentTracker(detector: detector)
        let envelope = SeriesEnvelope(range: 0...max(duration, 0), buckets: ReportFigures.buckets)
        acceleration = Array(repeating: envelope, count: 3)
        gyroscope = hasGyroscope ? Array(repeating: envelope, count: 3) : []
        welchSegment = ReportFigures.welchSegment(count: count)
        if welchSegment >= 16, count >= welchSegment {
            welch = try? WelchAccumulator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: welchSegment), channels: 3)
        }
        var short = 128
        while short > count / 4 && short > 16 { short /= 2 }
        spectrogramSegment = short
        let configuration = SpectralConfiguration(sampleRate: rate, segmentLength: short, overlap: short * 3 / 4)
        let step = short - short * 3 / 4
        let segments = count >= short ? (count - short) / max(1, step) + 1 : 0
        spectrogramGroup = max(1, (segments + Self.maximumSpectrogramColumns - 1) / Self.maximumSpectrogramColumns)
        spectrogramAccumulator = try? SpectrogramAccumulator(configuration: configuration, channels: 1, group: spectrogramGroup)
        if hasGyroscope {
            var configuration = DeviceMotionConfiguration(sampleRate: rate)
            configuration.reference = hasMagnetometer ? .magneticNorthZVertical : .arbitraryZVertical
            let nine = configuration.reference.usesMagnetometer
            pipeline = Pipeline([DeviceMotionStage(configuration: configuration)])
            // 6D's heading alignment revisits every scored row's error: kept in a temporary file.
            score = nine ? OrientationErrorSink(alignHeading: false)
                : OrientationErrorSink(alignHeading: true, errorLog: ValueLogFile<SIMD2<Double>>(purpose: "the heading errors of the 6D alignment"))
            attitude = AttitudeTrace(duration: duration, buckets: ReportFigures.buckets, nine: nine, hasTruth: hasTruth)
        }
    }

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        let sample = record.input
        still += tracker.add(sample)
        let x = sample.time - t0
        let a = sample.acceleration
        for axis in 0..<3 { acceleration[axis].add(x: x, y: a[axis]) }
        if !gyroscope.isEmpty {
            for axis in 0..<3 { gyroscope[axis].add(x: x, y: sample.rotationRate[axis]) }
        }
        values[0] = a.x; values[1] = a.y; values[2] = a.z
        welch?.add(values)
        magnitude[0] = (a * a).sum().squareRoot()
        spectrogramAccumulator?.add(magnitude)
        if attitude != nil {
            score!.receive(record)
            attitude!.add(x: x, estimate: record.attitude ?? .identity, truth: record.input.truth)
        }
    }

    mutating func finish(_ end: RunEnd) -> RawPass {
        still += tracker.finish()
        attitude?.finish()
        return self
    }

    /// The spectrogram of |a|; `nil` when the recording is too short or holds non-finite values.
    func spectrogram() -> SpectrogramResult? {
        try? spectrogramAccumulator?.finish().first
    }
}

/// What the report keeps from its pass with the pipeline it shows: the pipeline's metrics,
/// envelopes of the filtered acceleration, the full-rate excerpts of the zoomed panels and the
/// Welch PSDs of the filtered acceleration.
///
/// A sink of a `Run` with that pipeline: it reads every stage's output for the metrics
/// (`observe`) and the finished record for the figures; its summary is the pass.
struct FigurePass: Sink {
    var metrics: StageMetricsAccumulator
    let signal: StageSignal
    let t0: Double
    var last = SIMD3<Double>.zero
    var envelopes: [SeriesEnvelope]
    var windows: [ReportWindow]
    var welch: WelchAccumulator?
    var index = 0
    var values = [0.0, 0.0, 0.0]

    init(pipeline: Pipeline, rate: Double, t0: Double, duration: Double, hasGyroscope: Bool, detector: RestDetector,
         welchSegment: Int?, windows: [ReportWindow]) throws {
        metrics = StageMetricsAccumulator(pipeline: pipeline, sampleRate: rate, hasGyroscope: hasGyroscope, detector: detector)
        // Filtered signal: the last filtering stage's signal (acceleration when there is none).
        signal = pipeline.stages.last { $0.measuredSignal != nil }?.measuredSignal ?? .acceleration
        self.t0 = t0
        envelopes = Array(repeating: SeriesEnvelope(range: 0...max(duration, 0), buckets: ReportFigures.buckets), count: 3)
        self.windows = windows
        if let welchSegment {
            welch = try WelchAccumulator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: welchSegment), channels: 3)
        }
    }

    static var observesStages: Bool { true }

    mutating func observe(stage index: Int, _ record: ProcessedSample) {
        metrics.observe(stage: index, record)
    }

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        metrics.add(record)
        let sample = record.input
        if let value = signal.value(in: record) { last = value }
        let x = sample.time - t0
        for axis in 0..<3 { envelopes[axis].add(x: x, y: last[axis]) }
        values[0] = last.x; values[1] = last.y; values[2] = last.z
        welch?.add(values)
        for k in windows.indices where windows[k].range.contains(index) {
            windows[k].times.append(x)
            windows[k].raw.append(sample.acceleration)
            windows[k].filtered.append(last)
        }
        index += 1
    }

    mutating func finish(_ end: RunEnd) -> FigurePass { self }
}

/// One setting's filter and Welch accumulator in the report's noise-band check; each chunk is
/// processed by one worker thread (one access to the state per chunk).
final class SpectrumRun: @unchecked Sendable {
    var state: State

    struct State {
        var filter: AnyFilter<SIMD3<Double>>
        var welch: WelchAccumulator
        var values = [0.0, 0.0, 0.0]
        var outputs: [SIMD3<Double>] = []

        /// Filters a chunk (`inputs` its accelerations, `periods` the real periods before them;
        /// the recording's first sample filtered with the nominal period, as
        /// `filterAcceleration`), one call to the filter per block of ``block`` samples, and adds
        /// the outputs to the PSDs.
        mutating func process(inputs: [SIMD3<Double>], periods: [Double], first: Bool) {
            if outputs.isEmpty { outputs = [SIMD3<Double>](repeating: .zero, count: Self.block) }
            var start = 0
            while start < inputs.count {
                let end = min(start + Self.block, inputs.count)
                filter.process(inputs, dt: periods, range: start..<end, into: &outputs, startsRecording: first && start == 0)
                for k in 0..<(end - start) {
                    let y = outputs[k]
                    values[0] = y.x; values[1] = y.y; values[2] = y.z
                    welch.add(values)
                }
                start = end
            }
        }

        /// Samples filtered per call to the filter.
        static let block = 1024
    }

    init(filter: AnyFilter<SIMD3<Double>>, welch: WelchAccumulator) {
        state = State(filter: filter, welch: welch)
    }

    var welch: WelchAccumulator { state.welch }

    func process(inputs: [SIMD3<Double>], periods: [Double], first: Bool) { state.process(inputs: inputs, periods: periods, first: first) }
}
