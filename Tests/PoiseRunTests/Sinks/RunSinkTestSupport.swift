import Foundation
import Poise
import PoiseRecording
@testable import PoiseRun

/// A recording of `samples` written as Poise CSV (with the truth and movement columns when the
/// samples have them) and opened as a source; the caller removes `path`.
func openedRecording(_ samples: [MotionSample], truth: Bool = false, movement: Bool = false) throws -> (path: String, source: any SampleSource) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-sink-\(UUID().uuidString).csv").path
    let writer = try RecordingWriter(path: path, options: WriteOptions(includeMagneticField: false, includeTruth: truth, includeMovement: movement))
    try writer.write(contentsOf: samples)
    try writer.close()
    return (path, try RecordingSources.open(path: path))
}

/// `simulatedMotion()` with a ground truth (the tilt angle about x) and a movement flag on every
/// other second.
func simulatedMotionWithTruth() -> [MotionSample] {
    simulatedMotion().map { sample in
        var s = sample
        let angle = atan2(s.acceleration.y, s.acceleration.z)
        s.truth = Quaternion(w: cos(angle / 2), x: -sin(angle / 2), y: 0, z: 0)
        s.movement = Int(s.time) % 2 == 0
        return s
    }
}

/// Every record of `samples` through `pipeline`, by the per-sample loop (the reference a run
/// must equal).
func processed(_ samples: [MotionSample], _ pipeline: Pipeline) -> [ProcessedSample] {
    var pipeline = pipeline
    return samples.map { sample in
        var record = ProcessedSample(sample)
        pipeline.process(&record)
        return record
    }
}
