import CReference
import Foundation
import Poise

/// Per-sample cost of the orientation stages on 1M samples: `FrameRemap.sample` (acc, gyro, mag
/// and attitude of a `MotionSample`) against a plain-C loop doing the same arithmetic on
/// interleaved doubles, and the tilt controller (gravity low-pass → tilt attitude → home →
/// angles → stick), reported per sample.
func orientationSuite(_ r: Report) {
    let count = 1 << 20
    let remap = FrameRemap<Double>(roll: 0.3, pitch: -0.7, yaw: 1.9)
    var samples: [MotionSample] = []
    samples.reserveCapacity(count)
    for k in 0..<count {
        let t = Double(k) * 0.01
        let q = Quaternion<Double>(axis: SIMD3(0.2, 1, -0.4), angle: 0.8 * sin(0.7 * t))
        samples.append(MotionSample(time: t, acceleration: q.conjugate.act(SIMD3(0, 0, 1)),
                                    rotationRate: SIMD3(sin(t), cos(t), 0.1), magneticField: SIMD3(20, -3, -40), truth: q))
    }
    var output = samples
    let poise = measure("FrameRemap.samples(_:into:) 1M (acc, gyro, mag, attitude)", items: count) {
        remap.samples(samples, into: &output)
    }
    r.add(poise)
    blackHole(output[count / 2].acceleration.x)

    var flat = [Double](repeating: 0, count: 13 * count)
    for (i, s) in samples.enumerated() {
        let values = [s.acceleration.x, s.acceleration.y, s.acceleration.z, s.rotationRate.x, s.rotationRate.y, s.rotationRate.z,
                      s.magneticField!.x, s.magneticField!.y, s.magneticField!.z, s.truth!.w, s.truth!.x, s.truth!.y, s.truth!.z]
        for j in 0..<13 { flat[13 * i + j] = values[j] }
    }
    var flatOut = flat
    let m = remap.matrix.rows
    let matrix = [m.0.x, m.0.y, m.0.z, m.1.x, m.1.y, m.1.z, m.2.x, m.2.y, m.2.z]
    let rotation = [remap.rotation.w, remap.rotation.x, remap.rotation.y, remap.rotation.z]
    let c = measure("plain C remap 1M × 13 doubles", items: count) {
        flat.withUnsafeBufferPointer { input in
            flatOut.withUnsafeMutableBufferPointer { out in
                cref_remap13d(input.baseAddress!, out.baseAddress!, count, matrix, rotation)
            }
        }
    }
    r.add(c)
    blackHole(flatOut[13 * (count / 2)])
    // Same numbers (up to FMA contraction differences).
    let difference = abs(flatOut[13 * 7 + 1] - output[7].acceleration.y) + abs(flatOut[13 * 7 + 12] - output[7].truth!.z)
    r.notes.append("orientation: Poise vs C result difference on a sample: \(difference)")
    // The loop is memory-bound: a MotionSample (optionals, 32-byte SIMD3<Double> lanes) is larger
    // than the C record of 13 doubles, so the target allows for the extra traffic.
    r.notes.append("orientation: MotionSample stride \(MemoryLayout<MotionSample>.stride) bytes vs 104 bytes per C record")
    r.check("remap: Poise MotionSample / plain C", poise.medianNanoseconds / c.medianNanoseconds, atMost: 2.5)

    guard var controller = try? TiltController(settings: TiltSettings(home: HomeCalibrationSettings(dynamicRecalibration: true))) else {
        r.notes.append("could not make the tilt controller"); return
    }
    var sum = 0.0
    r.add(measure("TiltController.process 1M (gravity path, dynamic home)", items: count, runs: 5) {
        controller.reset()
        for s in samples { sum += controller.process(s).stick.x }
    })
    blackHole(sum)
}
