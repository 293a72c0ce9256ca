import Foundation
import Testing
@testable import Poise

/// The exact port: with VQF's parameters and schedule (`DeviceMotionConfiguration.vqfDefaults`),
/// Poise's estimator equals the VQF reference implementation (pip `vqf`) to 1e-7 rad on every
/// BROAD trial in ../shared/data/broad, 6D and 9D. Golden: Fixtures/vqf_broad.csv, made by
/// Tests/Goldens/vqf_broad_golden.py (every 1000th sample and the last of each trial; an error, once
/// made, persists in the attitude, so these samples see any divergence).
@Suite struct DeviceMotionBROADPortTests {
    struct Golden { var index: Int; var six: Quaternion<Double>; var nine: Quaternion<Double> }

    static func golden() throws -> [String: [Golden]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/vqf_broad.csv")
        var trials: [String: [Golden]] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst(2) {
            let f = line.split(separator: ",")
            let v = f.dropFirst(2).compactMap { Double($0) }
            guard f.count == 10, v.count == 8, let index = Int(f[1]) else { continue }
            trials[String(f[0]), default: []].append(Golden(index: index, six: Quaternion<Double>(w: v[0], x: v[1], y: v[2], z: v[3]),
                                                            nine: Quaternion<Double>(w: v[4], x: v[5], y: v[6], z: v[7])))
        }
        return trials
    }

    /// Rotation angle of q, accurate for tiny angles (2 atan2(|v|, |w|)), rad.
    static func angle(_ q: Quaternion<Double>) -> Double {
        2 * atan2((q.x * q.x + q.y * q.y + q.z * q.z).squareRoot(), abs(q.w))
    }

    @Test(.enabled(if: DeviceMotionBROADTests.isPresent, "../shared/data/broad is absent"))
    func equalsVQFOnEveryTrialWithVQFParameters() throws {
        let golden = try Self.golden()
        #expect(golden.count == 15)
        for (trial, rows) in golden.sorted(by: { $0.key < $1.key }) {
            let samples = try DeviceMotionBROADTests.load(trial: trial)
            #expect(rows.last?.index == samples.count - 1, "\(trial): golden and file disagree on the row count")
            let rate = try #require(DeviceMotionConfiguration.estimatedSampleRate(of: samples))
            var six = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: rate, reference: .arbitraryZVertical))
            var nine = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: rate, reference: .magneticNorthZVertical))
            var next = 0, worst6 = 0.0, worst9 = 0.0
            for (i, sample) in samples.enumerated() {
                six.update(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate,
                           magneticField: sample.magneticField)
                nine.update(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate,
                            magneticField: sample.magneticField)
                guard next < rows.count, rows[next].index == i else { continue }
                worst6 = max(worst6, Self.angle(six.attitude * rows[next].six.conjugate))
                worst9 = max(worst9, Self.angle(nine.attitude * rows[next].nine.conjugate))
                next += 1
            }
            #expect(next == rows.count, "\(trial)")
            #expect(worst6 < 1e-7, "\(trial): 6D differs from VQF by \(worst6) rad")
            #expect(worst9 < 1e-7, "\(trial): 9D differs from VQF by \(worst9) rad")
        }
    }
}
