import Poise
import PoiseRecording
import PoiseRun

/// `fuse --offline` and `evaluate --offline`: the recording, after the calibration stages, is
/// kept in a `ProcessedSampleSpool`, then `DeviceMotionSmoother` runs over it and each record
/// gets the fields the online fusion stage writes (attitude, gravity, user acceleration,
/// bias-corrected rotation rate, fusion status).
struct OfflineFusion {
    let configuration: DeviceMotionConfiguration
    let options: DeviceMotionSmoother.Options

    /// Reads `first`, then the rest of `reader`, through `stages` into a spool. Returns nil when
    /// `shouldStop` ended the reading (after `samples` records).
    static func spool(_ reader: any SampleSource, first: [MotionSample] = [], stages: [any PipelineStage],
                      shouldStop: () -> Bool = { false }) throws -> (spool: ProcessedSampleSpool, stopped: Bool) {
        let spool = try ProcessedSampleSpool()
        var pipeline = Pipeline(stages)
        let run = try BatchDriver.run(reader, first: first, through: &pipeline, shouldStop: shouldStop) { record in
            try spool.append(record)
        }
        if !run.stopped { try spool.finish() }
        return (spool, run.stopped)
    }

    /// Smooths the spooled recording and calls `sink` with each finished record, in order.
    func run(_ spool: ProcessedSampleSpool, sink: (ProcessedSample) throws -> Void) rethrows {
        let smoother = DeviceMotionSmoother(configuration: configuration, options: options)
        let samples = spool.samples(magnetometer: configuration.reference.usesMagnetometer)
        try smoother.smooth(samples) { i, motion in
            var record = spool.record(i)
            record.attitude = motion.attitude
            record.gravity = motion.gravity
            record.userAcceleration = motion.userAcceleration
            record.rotationRate = motion.rotationRate
            record.fusion = FusionStatus(motion)
            try sink(record)
        }
    }
}
