import Foundation
import Testing
@testable import Poise

/// Compares DeviceMotionEstimator with the VQF reference implementation (pip `vqf` 2.1.2) on the
/// same synthetic input. Golden file: Fixtures/vqf_peer.csv, made by Tests/Goldens/vqf_peer_fixture.py.
@Suite struct DeviceMotionPeerTests {
    /// The closed-form input of Tests/Goldens/vqf_peer_fixture.py `synthetic(i)` (same formulas).
    static func synthetic(_ i: Int) -> MotionSample {
        let t = Double(i) / 100
        let bias = SIMD3<Double>(0.010, -0.005, 0.008)
        var gyr: SIMD3<Double>, acc: SIMD3<Double>
        if t < 8 {
            gyr = bias + 0.001 * SIMD3(sin(13 * t), cos(11 * t), sin(7 * t))
            acc = SIMD3(0.02, -0.01, 1.0) + 0.001 * SIMD3(sin(17 * t), cos(19 * t), sin(23 * t))
        } else {
            gyr = bias + SIMD3(0.05 * sin(0.7 * t), 0.05 * cos(1.1 * t), 0.6 + 0.3 * sin(0.3 * t))
            acc = SIMD3(0.02 + 0.1 * sin(0.5 * t), -0.01 + 0.1 * cos(0.4 * t), 1.0 + 0.05 * sin(2.0 * t))
        }
        let theta = t < 8 ? 0.0 : 0.6 * (t - 8.0) + cos(2.4) - cos(0.3 * t)
        var mag = SIMD3(20 * sin(theta), 20 * cos(theta), -40.0)
        if t >= 30 && t < 34 { mag *= 1.6 }
        return MotionSample(time: t, acceleration: acc, rotationRate: gyr, magneticField: mag)
    }

    static func fixture() throws -> [[Double]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/vqf_peer.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst(2).map { $0.split(separator: ",").compactMap { Double($0) } }
    }

    @Test func matchesVQFReferenceOnSyntheticInput() throws {
        let rows = try Self.fixture()
        #expect(rows.count == 600)
        var six = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: 100, reference: .arbitraryZVertical))
        var nine = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: 100, reference: .magneticNorthZVertical))
        var next = 0
        var worst6 = 0.0, worst9 = 0.0, worstBias = 0.0, flagMismatches = 0, worstIndex = 0
        for i in 0..<6000 {
            let s = Self.synthetic(i)
            _ = six.process(s)
            let m = nine.process(s)
            guard next < rows.count, Int(rows[next][0]) == i else { continue }
            let r = rows[next]; next += 1
            let q6 = Quaternion(w: r[1], x: r[2], y: r[3], z: r[4])
            let q9 = Quaternion(w: r[5], x: r[6], y: r[7], z: r[8])
            worst6 = max(worst6, (six.attitude * q6.conjugate).angle)
            let d9 = (m.attitude * q9.conjugate).angle
            if d9 > worst9 { worst9 = d9; worstIndex = i }
            worstBias = max(worstBias, maxAbs(m.bias - SIMD3(r[9], r[10], r[11])))
            if m.flags.contains(.atRest) != (r[12] == 1) { flagMismatches += 1 }
            if m.flags.contains(.magneticDisturbance) != (r[13] == 1) { flagMismatches += 1 }
        }
        #expect(next == rows.count)
        // Same algorithm, same arithmetic up to rounding order: agreement to ~1e-9 rad.
        #expect(worst6 < 1e-7, "6D differs from VQF by \(worst6) rad")
        #expect(worst9 < 1e-7, "9D differs from VQF by \(worst9) rad at sample \(worstIndex)")
        #expect(worstBias < 1e-9, "bias differs from VQF by \(worstBias) rad/s")
        #expect(flagMismatches == 0)
    }
}

