import Testing
@testable import Poise

/// A small deterministic rotation simulation and an estimator that uses only rotation matrices
/// (TRIAD from accelerometer + magnetometer at the start, then exact gyro integration), so the
/// check does not rely on the quaternion code under test.
enum RotationSimulation {
    static let up = SIMD3<Double>(0, 0, 1)            // ENU: specific force at rest
    static let field = SIMD3<Double>(0, 21, -42)       // µT, north and down
    static let dt = 0.01

    static func rate(_ k: Int) -> SIMD3<Double> {
        let t = Double(k) * dt
        return SIMD3(Double.sin(1.3 * t), 0.6 * Double.cos(2.1 * t), 0.35 - 0.2 * t)
    }

    /// Samples of a true motion starting at `start`, `count` steps.
    static func samples(start: Quaternion<Double>, count: Int) -> [MotionSample] {
        var q = start
        var out: [MotionSample] = []
        for k in 0..<count {
            let w = rate(k)
            let inverse = q.conjugate
            out.append(MotionSample(time: Double(k) * dt, acceleration: inverse.act(up), rotationRate: w,
                                    magneticField: inverse.act(field), truth: q))
            q = (q * Quaternion(rotationVector: w * dt)).normalized
        }
        return out
    }

    static func matrix(columns a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> RotationMatrix<Double> {
        RotationMatrix(rows: (SIMD3(a.x, b.x, c.x), SIMD3(a.y, b.y, c.y), SIMD3(a.z, b.z, c.z)))
    }

    static func triad(_ a: SIMD3<Double>, _ m: SIMD3<Double>) -> RotationMatrix<Double> {
        func frame(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> RotationMatrix<Double> {
            let t1 = u / u.lengthSquared.squareRoot()
            let c = cross(u, v)
            let t2 = c / c.lengthSquared.squareRoot()
            return matrix(columns: t1, t2, cross(t1, t2))
        }
        return frame(up, field) * frame(a, m).transposed  // body → earth
    }

    /// Rodrigues: the matrix of rotation vector v.
    static func exponential(_ v: SIMD3<Double>) -> RotationMatrix<Double> {
        let angle = v.lengthSquared.squareRoot()
        guard angle > 0 else { return .identity }
        let k = v / angle
        let (s, c) = (Double.sin(angle), Double.cos(angle))
        let K = RotationMatrix(rows: (SIMD3(0, -k.z, k.y), SIMD3(k.z, 0, -k.x), SIMD3(-k.y, k.x, 0)))
        func add(_ a: RotationMatrix<Double>, _ b: RotationMatrix<Double>, _ f: Double) -> RotationMatrix<Double> {
            RotationMatrix(rows: (a.rows.0 + f * b.rows.0, a.rows.1 + f * b.rows.1, a.rows.2 + f * b.rows.2))
        }
        return add(add(.identity, K, s), K * K, 1 - c)
    }

    /// The estimated attitude (body → earth) after the last sample.
    static func estimate(_ samples: [MotionSample]) -> RotationMatrix<Double> {
        var r = triad(samples[0].acceleration, samples[0].magneticField!)
        for s in samples.dropLast() { r = r * exponential(s.rotationRate * dt) }
        return r
    }
}

func matrixDistance(_ a: RotationMatrix<Double>, _ b: RotationMatrix<Double>) -> Double {
    Swift.max((a.rows.0 - b.rows.0).maxMagnitude, (a.rows.1 - b.rows.1).maxMagnitude, (a.rows.2 - b.rows.2).maxMagnitude)
}

@Suite struct RemapConsistencyTests {
    static let start = Quaternion<Double>(axis: SIMD3(0.3, -0.2, 1), angle: 0.8)
    static let samples = RotationSimulation.samples(start: start, count: 300)

    func check(_ remap: FrameRemap<Double>, _ label: String) {
        let remapped = Self.samples.map { remap.sample($0) }
        // Attitude estimated from the remapped inputs …
        let fromRemappedInputs = RotationSimulation.estimate(remapped)
        // … equals the remapped attitude estimated from the original inputs …
        let original = RotationSimulation.estimate(Self.samples)
        let remappedEstimate = original * remap.matrix.transposed
        #expect(matrixDistance(fromRemappedInputs, remappedEstimate) < 1e-12, "\(label)")
        // … and the remapped truth quaternion q ⊗ r*.
        let truth = remapped.last!.truth!.rotationMatrix
        #expect(matrixDistance(fromRemappedInputs, truth) < 1e-9, "\(label)")
        // Gravity and field seen through the remapped truth are the remapped measurements.
        for s in remapped.prefix(50) {
            #expect(maxAbs(s.truth!.conjugate.act(RotationSimulation.up) - s.acceleration) < 1e-12, "\(label)")
        }
    }

    @Test func remappedAttitudeEqualsAttitudeOfRemappedInputsForAll24Alignments() throws {
        for a in AxisAlignment.proper { check(try FrameRemap(alignment: a), a.description) }
    }

    @Test func remappedAttitudeEqualsAttitudeOfRemappedInputsForAMountingRotation() {
        check(FrameRemap(roll: 0.4, pitch: -1.1, yaw: 2.6), "euler")
        check(FrameRemap(rotation: Quaternion(axis: SIMD3(1, 1, -2), angle: 0.77)), "quaternion")
        for o in InterfaceOrientation.allCases { check(FrameRemap(orientation: o), o.rawValue) }
    }

    @Test func batchRemapEqualsThePerSampleLoop() {
        let remap = FrameRemap<Double>(roll: 0.2, pitch: 0.5, yaw: -1.4)
        var output: [MotionSample] = [MotionSample(time: 99)]
        remap.samples(Self.samples, into: &output)
        #expect(output == Self.samples.map { remap.sample($0) })
        remap.samples(Array(Self.samples.prefix(10)), into: &output)
        #expect(output == Self.samples.prefix(10).map { remap.sample($0) })
    }

    @Test func reflectionsPermuteAllVectorsAndDropTheAttitude() throws {
        let a = try AxisAlignment("+Y+X+Z", allowingReflection: true)
        let s = Self.samples[10]
        let r = a.vectors(of: s)
        #expect(r.acceleration == SIMD3(s.acceleration.y, s.acceleration.x, s.acceleration.z))
        #expect(r.rotationRate == SIMD3(s.rotationRate.y, s.rotationRate.x, s.rotationRate.z))
        #expect(r.magneticField == SIMD3(s.magneticField!.y, s.magneticField!.x, s.magneticField!.z))
        #expect(r.truth == nil)
        #expect(a.vectors(of: r).acceleration == s.acceleration)
    }
}
