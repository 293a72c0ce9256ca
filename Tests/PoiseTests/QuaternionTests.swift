import Testing
@testable import Poise

@Suite struct QuaternionTests {
    @Test func rotationAboutZByNinetyDegreesTurnsXIntoY() {
        let q = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        let v = q.act(SIMD3(1, 0, 0))
        #expect(abs(v.x) < 1e-15 && abs(v.y - 1) < 1e-15 && abs(v.z) < 1e-15)
    }

    @Test func productAppliesRightOperandFirst() {
        let a = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        let b = Quaternion<Double>(axis: SIMD3(1, 0, 0), angle: .pi / 2)
        let v = SIMD3<Double>(0, 1, 0)
        let composed = (a * b).act(v)
        let sequential = a.act(b.act(v))
        #expect(maxAbs(composed - sequential) < 1e-15)
        // b turns +Y into +Z; a leaves +Z alone.
        #expect(maxAbs(composed - SIMD3(0, 0, 1)) < 1e-15)
    }

    @Test func rotationMatrixMatchesAct() {
        let q = Quaternion<Double>(axis: SIMD3(1, 2, 3), angle: 0.7)
        let v = SIMD3<Double>(0.3, -1.2, 2.5)
        #expect(maxAbs(q.rotationMatrix.apply(v) - q.act(v)) < 1e-14)
        #expect(maxAbs((q.rotationMatrix * q.rotationMatrix.transposed).apply(v) - v) < 1e-14)
    }

    @Test func slerpHalfwayIsHalfTheAngle() {
        let q = Quaternion<Double>(axis: SIMD3(0, 1, 0), angle: 1.0)
        let h = Quaternion<Double>.identity.slerp(to: q, t: 0.5)
        #expect(abs(h.angle - 0.5) < 1e-12)
    }
}

func maxAbs(_ v: SIMD3<Double>) -> Double { v.maxMagnitude }
