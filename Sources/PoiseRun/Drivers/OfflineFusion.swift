import Poise
import PoiseRecording

/// Offline device-motion fusion (`fuse --offline`, `evaluate --offline`): the estimate at every
/// sample from the whole recording (`DeviceMotionSmoother`, or with `exactVQF` VQF's offline
/// estimator `OfflineVQF`).
///
/// Two passes, each feeding sinks as `Run` does:
/// 1. a `Run` of the source through the stages before fusion (calibration) into a
///    `ProcessedSampleSpool`, the recording kept on disk and read through one buffered block,
///    which the smoother reads by index in both directions;
/// 2. the smoother over the spool, which hands each record in order, with the fields the online
///    fusion stage writes (attitude, gravity, user acceleration, bias-corrected rotation rate,
///    fusion status), to the caller's sink: `begin`, `consume` per record, `finish`.
///
/// The smoother's own passes (forward, backward, combination) are not `Run`s: it reads the
/// spooled recording by index, backward as well as forward, and emits the records only once it
/// has seen the last one. What its passes hand on per sample, and the gyroscope fit's anchors,
/// go to temporary files too (`SmootherFileStorage`), so the memory of an offline run does not
/// grow with the recording.
public struct OfflineFusion {
    /// The estimator settings (rate, reference, earth frame; `DeviceMotionSmoother`'s defaults
    /// for the default preset).
    public let configuration: DeviceMotionConfiguration
    /// The smoother's own settings (unused with `exactVQF`).
    public let options: DeviceMotionSmoother.Options
    /// VQF's offline estimator (`OfflineVQF`, equal to the `vqf` package's `offlineVQF`) instead
    /// of the smoother.
    public var exactVQF: Bool

    public init(configuration: DeviceMotionConfiguration, options: DeviceMotionSmoother.Options, exactVQF: Bool = false) {
        self.configuration = configuration; self.options = options; self.exactVQF = exactVQF
    }

    /// How an offline run ended, its sink's summary and the gyroscope calibration the smoother
    /// fitted (nil when that option is off, with `exactVQF`, and after a stopped run).
    public struct Outcome<Summary> {
        public var end: RunEnd
        public var summary: Summary
        public var calibration: GyroscopeSelfCalibration?
    }

    /// Reads `first`, then the rest of `source`, through `stages` into a spool, smooths it and
    /// hands every record to `sink`.
    ///
    /// - Parameters:
    ///   - shouldStop: polled after every chunk of rows while reading, and once after the
    ///     smoothing; `true` stops the run (the sink's `finish` gets a stopped `RunEnd`).
    /// - Throws: the source's `RecordingError`, the spool's or the smoother storage's (a full
    ///   temporary folder, named), or what the sink throws.
    public func run<S: Sink>(_ source: any SampleSource, first: [MotionSample] = [], stages: [any PipelineStage],
                             into sink: inout S, shouldStop: () -> Bool = { false }) throws -> Outcome<S.Summary> {
        var spool = try ProcessedSampleSpool()
        var reading = Run(source: source, first: first, pipeline: Pipeline(stages), clock: AsFastAsPossible())
        let spooled = try reading.run(into: &spool, shouldStop: shouldStop).end
        try sink.begin(RunSchema(source: source.schema, outputs: Pipeline(stages + [DeviceMotionStage(configuration: configuration)]).outputs))
        var calibration: GyroscopeSelfCalibration?
        if !spooled.stopped {
            calibration = try smooth(spool) { i, record in
                try sink.consume(record, SampleDelivery(index: i, scheduled: 0, delivered: 0, cost: 0))
            }
        }
        let end = RunEnd(samples: spool.count, stopped: spooled.stopped || shouldStop())
        let summary = try sink.finish(end)
        return Outcome(end: end, summary: summary, calibration: end.stopped ? nil : calibration)
    }

    /// Smooths the spooled recording and calls `body` with each finished record, in order.
    /// Returns the gyroscope calibration the smoother fitted (nil when that option is off, and
    /// with `exactVQF`).
    ///
    /// - Throws: what `body` throws, or the storage's error (a temporary file that could not be
    ///   written or read), before the first record that depends on it.
    func smooth(_ spool: ProcessedSampleSpool, _ body: (Int, ProcessedSample) throws -> Void) throws -> GyroscopeSelfCalibration? {
        let samples = spool.samples(magnetometer: configuration.reference.usesMagnetometer)
        let storage = SmootherFileStorage()
        func emit(_ i: Int, _ motion: DeviceMotion) throws {
            let record = Self.record(spool, i, motion)
            if let failure = spool.failure ?? storage.failure { throw failure }
            try body(i, record)
        }
        var calibration: GyroscopeSelfCalibration?
        if exactVQF {
            try OfflineVQF(configuration: configuration).smooth(samples, storage: storage, emit: emit)
        } else {
            let smoother = DeviceMotionSmoother(configuration: configuration, options: options)
            calibration = smoother.gyroscopeCalibration(for: samples, storage: storage)
            try smoother.smooth(samples, gyroscopeCalibration: calibration, storage: storage, emit: emit)
        }
        if let failure = spool.failure ?? storage.failure { throw failure }
        return calibration
    }

    /// Spooled record `i` with the fusion fields of `motion`.
    static func record(_ spool: ProcessedSampleSpool, _ i: Int, _ motion: DeviceMotion) -> ProcessedSample {
        var record = spool.record(i)
        record.attitude = motion.attitude
        record.gravity = motion.gravity
        record.userAcceleration = motion.userAcceleration
        record.rotationRate = motion.rotationRate
        record.fusion = FusionStatus(motion)
        return record
    }
}
