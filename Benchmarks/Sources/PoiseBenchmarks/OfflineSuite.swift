import Foundation
import Poise

/// `offline`: the offline smoother (`DeviceMotionSmoother`, default settings, 9D and 6D) over a
/// whole recording of 2^20 samples (100 Hz, turning with pauses, a magnetometer), against the
/// target "the offline smoother processes 1M samples in under 2 s" (checked on the 9D median),
/// with the online estimator over the same samples for the ratio and, in 9D, the smoother
/// without its disturbed spans for their cost and the gyroscope self-calibration alone
/// (reported).
func offlineSuite(_ r: Report) {
    let count = 1 << 20
    var samples: [MotionSample] = []
    samples.reserveCapacity(count)
    var truth = Quaternion<Double>.identity
    for k in 0..<count {
        let t = Double(k) * 0.01
        let still = t.truncatingRemainder(dividingBy: 30) < 5
        let w = still ? SIMD3<Double>.zero : SIMD3(1.2 * sin(0.3 * t), 0.8 * cos(0.21 * t), 1.0 * sin(0.17 * t + 1))
        truth = (truth * Quaternion(rotationVector: w / 100)).normalized
        let inverse = truth.conjugate
        samples.append(MotionSample(time: t, acceleration: inverse.act(SIMD3(0, 0, 1)), rotationRate: w + SIMD3(0.01, -0.006, 0.004),
                                    magneticField: inverse.act(SIMD3(0, 20, -45))))
    }
    var sum = 0.0
    for reference in [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical] {
        let mode = reference.usesMagnetometer ? "9D" : "6D"
        let configuration = DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: reference)
        let smoother = DeviceMotionSmoother(configuration: configuration)
        let offline = measure("DeviceMotionSmoother.smooth 1M (\(mode), defaults)", items: count, runs: 3, warmup: 1) {
            smoother.smooth(samples) { _, motion in sum += motion.attitude.w }
        }
        r.add(offline)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        let online = measure("DeviceMotionEstimator.process 1M (\(mode), same settings)", items: count, runs: 3, warmup: 1) {
            estimator.reset()
            for s in samples { sum += estimator.process(s).attitude.w }
        }
        r.add(online)
        r.notes.append("offline \(mode): smoother / online estimator \(offline.medianNanoseconds / online.medianNanoseconds)")
        if reference.usesMagnetometer {
            // The defaults' disturbed spans (`magneticDisturbanceSpans`), their cost: the same
            // smoother without them.
            var options = DeviceMotionSmoother.Options()
            options.magneticDisturbanceSpans = .off
            let plain = DeviceMotionSmoother(configuration: configuration, options: options)
            let withoutSpans = measure("DeviceMotionSmoother.smooth 1M (9D, spans off)", items: count, runs: 3, warmup: 1) {
                plain.smooth(samples) { _, motion in sum += motion.attitude.w }
            }
            r.add(withoutSpans)
            r.notes.append("offline 9D: defaults / spans off \(offline.medianNanoseconds / withoutSpans.medianNanoseconds)")
            r.check("offline smoother 9D, seconds per 2^20 samples", offline.medianNanoseconds / 1e9, atMost: 2)
            // The gyroscope self-calibration, the first of the smoother's steps (both modes).
            let fit = measure("GyroscopeSelfCalibration.fit 1M", items: count, runs: 3, warmup: 1) {
                sum += smoother.gyroscopeCalibration(for: samples)?.finalResidual ?? 0
            }
            r.add(fit)
        }
    }
    blackHole(sum)
}
