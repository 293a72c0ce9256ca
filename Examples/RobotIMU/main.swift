// A robot's IMU pipeline: smooth the accelerometer for a tilt-safety check and fuse attitude
// for odometry, from a recording (default data/rotations-with-breaks.csv, which has ground truth).
//
//   swift run ExampleRobotIMU [FILE]
import Foundation
import Poise
import PoiseRecording

let path = CommandLine.arguments.dropFirst().first ?? "data/rotations-with-breaks.csv"
do {
    let recording = try Recording.load(path: path)
    let samples = recording.samples
    let rate = nominalSampleRate(of: samples) ?? 100
    // 1. Accelerometer smoothing for a tilt-safety check: a 2nd-order Butterworth at 5 Hz,
    //    built from the same spec grammar as `poise replay --pipeline`.
    var pipeline = try StageCatalog.standard.pipeline("butter:lowpass,order=2,cutoff=5",
                                                      context: StageContext(sampleRate: rate))
    // 2. Attitude: 6D fusion (accelerometer + gyroscope; heading arbitrary), as a robot without a
    //    trustworthy magnetometer would run it.
    var fusion = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: rate, reference: .arbitraryZVertical))
    var errors = OrientationErrorAccumulator()
    var tippedSamples = 0
    for (index, sample) in samples.enumerated() {
        let record = pipeline.process(sample)
        // Tilt safety: more than 30° between the smoothed gravity direction and the body's z axis.
        let a = record.acceleration
        let norm = (a * a).sum().squareRoot()
        if norm > 0, acos(max(-1, min(1, a.z / norm))) > 30 * .pi / 180 { tippedSamples += 1 }
        fusion.update(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate)
        if let truth = sample.truth { errors.add(estimate: fusion.attitudeEastNorthUp, truth: truth) }
        if index % Int(rate * 5) == 0 {
            let angles = DeviceMotion.coreMotionAngles(fusion.attitudeEastNorthUp)
            print(String(format: "t %6.2f s  roll %+7.1f°  pitch %+7.1f°  yaw %+7.1f°", sample.time,
                         angles.roll * 180 / .pi, angles.pitch * 180 / .pi, angles.yaw * 180 / .pi))
        }
    }
    print(String(format: "tilted beyond 30°: %.1f %% of the time", 100 * Double(tippedSamples) / Double(max(1, samples.count))))
    if errors.count > 0 {
        let e = errors.result(alignHeading: true)
        print(String(format: "attitude RMSE vs ground truth: total %.2f°, inclination %.2f° (%d samples)", e.total, e.inclination, e.count))
    }
} catch {
    FileHandle.standardError.write(Data("ExampleRobotIMU: \(error)\n".utf8))
    exit(1)
}
