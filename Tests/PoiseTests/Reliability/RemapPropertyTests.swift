import Testing
@testable import Poise

/// Round trips of frame remapping over random mounting rotations and all axis alignments.
@Suite struct RemapPropertyTests {
    static func randomRemap(_ g: inout SplitMix) -> FrameRemap<Double> {
        switch g.next() % 3 {
        case 0: FrameRemap(rotation: g.rotation())
        case 1: FrameRemap(roll: g.uniform(-Double.pi, Double.pi), pitch: g.uniform(-Double.pi / 2, Double.pi / 2),
                           yaw: g.uniform(-Double.pi, Double.pi))
        default: try! FrameRemap(alignment: g.pick(AxisAlignment.proper))
        }
    }

    static func sample(_ g: inout SplitMix, magnetometer: Bool) -> MotionSample {
        MotionSample(time: g.uniform(0, 100), acceleration: g.vector(), rotationRate: g.vector(scale: 3),
                     magneticField: magnetometer ? g.vector(scale: 40) : nil, truth: g.rotation(), movement: g.uniform() < 0.5)
    }

    static func close(_ a: MotionSample, _ b: MotionSample, tolerance: Double) -> Bool {
        guard a.time == b.time, a.movement == b.movement else { return false }
        guard (a.acceleration - b.acceleration).maxMagnitude <= tolerance,
              (a.rotationRate - b.rotationRate).maxMagnitude <= tolerance * 3 else { return false }
        switch (a.magneticField, b.magneticField) {
        case (nil, nil): break
        case let (x?, y?): guard (x - y).maxMagnitude <= tolerance * 40 else { return false }
        default: return false
        }
        switch (a.truth, b.truth) {
        case (nil, nil): return true
        case let (x?, y?): return rotationDistance(x, y) <= tolerance
        default: return false
        }
    }

    @Test func remapThenInverseGivesTheSampleBack() {
        var g = SplitMix(seed: 201)
        for n in 0..<1000 {
            let remap = Self.randomRemap(&g)
            let s = Self.sample(&g, magnetometer: n % 2 == 0)
            #expect(Self.close(remap.inverse.sample(remap.sample(s)), s, tolerance: 1e-14 * 16))
            #expect(Self.close(remap.sample(remap.inverse.sample(s)), s, tolerance: 1e-14 * 16))
        }
    }

    @Test func composedRemapEqualsRemappingTwice() {
        var g = SplitMix(seed: 202)
        for _ in 0..<1000 {
            let a = Self.randomRemap(&g), b = Self.randomRemap(&g)
            let s = Self.sample(&g, magnetometer: true)
            #expect(Self.close(a.followed(by: b).sample(s), b.sample(a.sample(s)), tolerance: 1e-14 * 16))
            // Matrix and quaternion of the composition describe the same rotation.
            let ab = a.followed(by: b), v = g.vector()
            #expect((ab.vector(v) - ab.rotation.act(v)).maxMagnitude <= 1e-14 * 16 * norm(v))
            #expect(ab.rotation.w >= 0)
        }
    }

    @Test func remappedAttitudeSeesTheSameEarthVectors() {
        // v_earth = q.act(v_sensor) = q'.act(v_body), for any attitude and mounting.
        var g = SplitMix(seed: 203)
        for _ in 0..<1000 {
            let remap = Self.randomRemap(&g), q = g.rotation(), v = g.vector()
            #expect((remap.attitude(q).act(remap.vector(v)) - q.act(v)).maxMagnitude <= 1e-14 * 16 * norm(v))
            // The remap preserves lengths and angular velocity like any vector.
            #expect(abs(norm(remap.rotationRate(v)) - norm(v)) <= 1e-14 * 8 * norm(v))
        }
    }

    @Test func remapQuaternionRecoveredFromItsMatrixForRandomRotations() {
        var g = SplitMix(seed: 204)
        for _ in 0..<2000 {
            let q = g.rotation()
            let recovered = FrameRemap<Double>.quaternion(of: q.rotationMatrix)
            #expect(rotationDistance(recovered, q) <= 1e-14 * 16)
            #expect(recovered.w >= 0)
        }
        // Every proper alignment: Shepperd's pivot on the exact matrices (traces −1, 0, 1, 3).
        for alignment in AxisAlignment.proper {
            let remap = try! FrameRemap<Double>(alignment: alignment)
            let v = SIMD3<Double>(1, 2, 3)
            #expect((remap.rotation.act(v) - alignment.apply(v)).maxMagnitude <= 1e-15 * 8)
        }
    }

    @Test func degenerateMountingRotationsGiveTheIdentityNotNaN() {
        for q in [Quaternion<Double>(w: 0, x: 0, y: 0, z: 0), Quaternion(w: .nan, x: 1, y: 0, z: 0),
                  Quaternion(w: 1, x: .infinity, y: 0, z: 0)] {
            let remap = FrameRemap(rotation: q)
            #expect(remap == .identity)
        }
        let nonFinite = FrameRemap<Double>(roll: .nan, pitch: 0, yaw: .infinity)
        #expect(nonFinite.rotation.isFinite)
    }
}
