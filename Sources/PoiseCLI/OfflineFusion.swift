import Foundation
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
    /// `--preset vqf`: VQF's offline estimator (`OfflineVQF`, equal to the `vqf` package's
    /// `offlineVQF`) instead of the smoother; `options` are then unused.
    var exactVQF = false

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
    /// Returns the gyroscope calibration the smoother fitted (nil when that option is off, and
    /// with `exactVQF`).
    @discardableResult
    func run(_ spool: ProcessedSampleSpool, sink: (ProcessedSample) throws -> Void) rethrows -> GyroscopeSelfCalibration? {
        let samples = spool.samples(magnetometer: configuration.reference.usesMagnetometer)
        if exactVQF {
            try OfflineVQF(configuration: configuration).smooth(samples) { i, motion in try sink(Self.record(spool, i, motion)) }
            return nil
        }
        let smoother = DeviceMotionSmoother(configuration: configuration, options: options)
        let calibration = smoother.gyroscopeCalibration(for: samples)
        try smoother.smooth(samples, gyroscopeCalibration: calibration) { i, motion in try sink(Self.record(spool, i, motion)) }
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

    /// The JSON summary's "gyroscope_calibration": whether the fit was accepted, the matrix C
    /// applied to the bias-free rate (rows; identity when refused), the fitted one, the bias
    /// (rad/s), anchors and pairs; null when the fit is off.
    static func summary(_ calibration: GyroscopeSelfCalibration?) -> Any {
        guard let c = calibration else { return NSNull() }
        func rows(_ m: Matrix3) -> [[Double]] { [m.r0, m.r1, m.r2].map { [$0.x, $0.y, $0.z] } }
        return ["accepted": c.accepted, "matrix": rows(c.matrix), "fitted_matrix": rows(c.fittedMatrix),
                "bias_radps": [c.bias.x, c.bias.y, c.bias.z], "anchors": c.anchors, "pairs": c.pairs] as [String: Any]
    }
}
