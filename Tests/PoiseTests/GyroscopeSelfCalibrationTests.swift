import Foundation
import Testing
@testable import Poise

/// `GyroscopeSelfCalibration`: a known gyroscope matrix recovered from a simulated recording,
/// refusals, and the fit on BROAD trials against the numpy reference
/// (Fixtures/gyro_self_calibration_broad.csv, made by Tests/Goldens/gyro_self_calibration.py --golden).
@Suite struct GyroscopeSelfCalibrationTests {
    /// The simulated gyroscope: g = A·ω + b.
    static let a = Matrix3(SIMD3(1.004, 0.0010, -0.0008), SIMD3(0.0010, 0.997, 0.0005), SIMD3(-0.0008, 0.0005, 1.002))
    static let b = SIMD3(0.004, -0.003, 0.002)

    /// 100 Hz: 3 s still, then 24 turns of 60–120° about varied axes (rate ∝ sin² over 2 s,
    /// so each turn starts and ends without angular acceleration), each followed by 0.6 s
    /// still. Specific force = up in the device frame (1 g, no linear acceleration) + 0.001 g
    /// noise; gyroscope A·ω + b + 0.001 rad/s noise. Returns the samples and the true
    /// attitudes (device → world).
    static func recording(seed: UInt64 = 11) -> (samples: [MotionSample], truth: [Quaternion<Double>]) {
        var random = SplitMix(seed: seed)
        let dt = 0.01
        var rates: [SIMD3<Double>] = Array(repeating: .zero, count: 300)
        let axes: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1),
                                     SIMD3(1, 0, 1), SIMD3(1, -1, 1), SIMD3(-1, 1, 1)]
        for turn in 0..<24 {
            var axis = axes[turn % axes.count] * (turn % 3 == 0 ? -1 : 1)
            axis /= (axis * axis).sum().squareRoot()
            let angle = (60 + 60 * random.uniform()) * .pi / 180
            let steps = 200   // 2 s; mean of sin² is 1/2, so the peak rate is angle / 1 s
            for k in 1...steps {
                let x = Double.sin(Double.pi * Double(k) / Double(steps))
                rates.append(axis * (angle * x * x))
            }
            rates.append(contentsOf: Array(repeating: SIMD3<Double>.zero, count: 60))
        }
        var r = Matrix3.scaledIdentity(1), q = Quaternion<Double>(w: 1, x: 0, y: 0, z: 0)
        var samples: [MotionSample] = [], truth: [Quaternion<Double>] = []
        for (k, w) in rates.enumerated() {
            let v = w * dt, angle = (v * v).sum().squareRoot()
            if k > 0 && angle > 0 {
                r = r * GyroscopeSelfCalibration.exponential(v)
                let axis = v / angle * Double.sin(angle / 2)
                q = q * Quaternion(w: Double.cos(angle / 2), x: axis.x, y: axis.y, z: axis.z)
            }
            let up = SIMD3(r.r2.x, r.r2.y, r.r2.z)   // Rᵀ·(0, 0, 1)
            let noise = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
            let gyroNoise = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
            samples.append(MotionSample(time: Double(k) * dt, acceleration: up + 0.001 * noise,
                                        rotationRate: a * w + b + 0.001 * gyroNoise))
            truth.append(q)
        }
        return (samples, truth)
    }

    @Test func recoversAKnownScaleAndMisalignment() {
        let (samples, _) = Self.recording()
        let fit = GyroscopeSelfCalibration.fit(samples)
        #expect(fit.accepted)
        #expect(fit.anchors > 100 && fit.pairs > 300)
        // C·A = I to 0.05 % in scale and 0.5 mrad in the axes (measured: worst entry 2.6e-4;
        // A − I itself reaches 4e-3).
        let product = fit.matrix * Self.a
        let error = [product.r0 - SIMD3(1, 0, 0), product.r1 - SIMD3(0, 1, 0), product.r2 - SIMD3(0, 0, 1)]
            .map { max($0.x.magnitude, $0.y.magnitude, $0.z.magnitude) }.max()!
        #expect(error < 5e-4, "C·A − I worst entry \(error)")
        #expect((fit.bias - Self.b).max() < 5e-4 && (Self.b - fit.bias).max() < 5e-4)
        // A true rate of 1 rad/s about x comes back within 1e-3 rad/s (4e-3 without the fit).
        let rate = fit.corrected(Self.a * SIMD3(1, 0, 0) + Self.b) - fit.bias
        #expect(((rate - SIMD3(1, 0, 0)) * (rate - SIMD3(1, 0, 0))).sum().squareRoot() < 1e-3)
    }

    @Test func theSmootherWithTheFitDriftsLessIn6D() {
        let (samples, truth) = Self.recording(seed: 12)
        let scored = zip(samples, truth).map { s, q -> MotionSample in
            var s = s
            s.truth = q
            s.movement = true
            return s
        }
        let configuration = DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        let with = DeviceMotionSmoother(configuration: configuration).evaluate(scored)
        let without = DeviceMotionSmoother(configuration: configuration, options: .init(gyroscopeSelfCalibration: false)).evaluate(scored)
        #expect(with.heading < 0.5 * without.heading, "heading \(with.heading)° with the fit vs \(without.heading)° without")
    }

    @Test func refusesARecordingWithoutRest() {
        // Always turning: no rest window, so no bias and no still magnitude.
        let samples = (0..<2000).map { k in
            MotionSample(time: Double(k) * 0.01, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0.3, 0, 0))
        }
        let fit = GyroscopeSelfCalibration.fit(samples)
        #expect(!fit.accepted && fit.matrix == .scaledIdentity(1) && fit.pairs == 0)
        #expect(fit.corrected(SIMD3(1, 2, 3)) == SIMD3(1, 2, 3))
        #expect(GyroscopeSelfCalibration.fit([MotionSample]()) == .identity)
    }

    @Test func nonFiniteReadingsDoNotSpread() {
        var (samples, _) = Self.recording(seed: 13)
        for k in stride(from: 500, to: samples.count, by: 997) {
            samples[k].rotationRate = SIMD3(.nan, 0, 0)
            samples[k + 1].acceleration = SIMD3(.infinity, 0, 0)
        }
        let fit = GyroscopeSelfCalibration.fit(samples)
        let entries = [fit.fittedMatrix.r0, fit.fittedMatrix.r1, fit.fittedMatrix.r2].flatMap { [$0.x, $0.y, $0.z] }
        #expect(entries.allSatisfy(\.isFinite) && fit.bias.x.isFinite && fit.finalResidual.isFinite)
        #expect(fit.accepted)
    }

    /// The numpy reference's fits of BROAD trials: counts exactly, C to 1e-9, b to 1e-12.
    @Test(.enabled(if: DeviceMotionBROADTests.isPresent, "../shared/data/broad is absent"))
    func matchesTheReferenceOnBROADTrials() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gyro_self_calibration_broad.csv")
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("trial") }.map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == 3)
        for f in rows {
            let fit = GyroscopeSelfCalibration.fit(try DeviceMotionBROADTests.load(trial: f[0]))
            #expect(fit.accepted == (f[1] == "1"), "\(f[0])")
            #expect(fit.anchors == Int(f[2]) && fit.pairs == Int(f[3]) && fit.solvedDirections == Int(f[4]), "\(f[0])")
            let m = fit.fittedMatrix
            let ours = [m.r0.x, m.r0.y, m.r0.z, m.r1.x, m.r1.y, m.r1.z, m.r2.x, m.r2.y, m.r2.z]
            for (p, value) in ours.enumerated() {
                #expect((value - Double(f[5 + p])!).magnitude < 1e-9, "\(f[0]) C[\(p)] \(value) vs \(f[5 + p])")
            }
            for (p, value) in [fit.bias.x, fit.bias.y, fit.bias.z].enumerated() {
                #expect((value - Double(f[14 + p])!).magnitude < 1e-12, "\(f[0]) b[\(p)]")
            }
        }
    }
}
