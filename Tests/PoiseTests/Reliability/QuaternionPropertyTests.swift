import Testing
@testable import Poise

/// Algebraic properties of quaternions and rotation matrices on random (seeded) inputs.
@Suite struct QuaternionPropertyTests {
    static let count = 2000

    @Test func rotationPreservesLengthAndAngles() {
        var g = SplitMix(seed: 101)
        for _ in 0..<Self.count {
            let q = g.rotation(), u = g.vector(scale: g.uniform(0.01, 100)), v = g.vector()
            let (qu, qv) = (q.act(u), q.act(v))
            #expect(abs(norm(qu) - norm(u)) <= 1e-14 * norm(u) * 8)
            #expect(abs(dot(qu, qv) - dot(u, v)) <= 1e-13 * norm(u) * norm(v) * 8)
            // Handedness: rotations commute with the cross product.
            #expect((q.act(cross(u, v)) - cross(qu, qv)).maxMagnitude <= 1e-13 * norm(u) * norm(v) * 8)
        }
    }

    @Test func normIsMultiplicativeAndInverseUndoes() {
        var g = SplitMix(seed: 102)
        for _ in 0..<Self.count {
            let a = g.quaternion(), b = g.quaternion()
            #expect(abs((a * b).length - a.length * b.length) <= 1e-14 * a.length * b.length * 8)
            #expect(distance(a * a.inverse, .identity) <= 1e-14 * 8)
            #expect(distance(a.inverse * a, .identity) <= 1e-14 * 8)
            let q = g.rotation(), v = g.vector()
            #expect((q.conjugate.act(q.act(v)) - v).maxMagnitude <= 1e-14 * 8 * norm(v))
            #expect(distance(q.inverse, q.conjugate) <= 1e-15 * 4)
        }
    }

    @Test func productIsAssociativeAndActIsComposition() {
        var g = SplitMix(seed: 103)
        for _ in 0..<Self.count {
            let a = g.quaternion(), b = g.quaternion(), c = g.quaternion()
            let scale = a.length * b.length * c.length
            #expect(distance((a * b) * c, a * (b * c)) <= 1e-14 * 16 * scale)
            let p = g.rotation(), q = g.rotation(), v = g.vector()
            #expect(((p * q).act(v) - p.act(q.act(v))).maxMagnitude <= 1e-14 * 16 * norm(v))
        }
    }

    @Test func actEqualsTheRotationMatrixWhichIsOrthonormal() {
        var g = SplitMix(seed: 104)
        for _ in 0..<Self.count {
            let q = g.rotation(), v = g.vector()
            let r = q.rotationMatrix
            #expect((r.apply(v) - q.act(v)).maxMagnitude <= 1e-14 * 8 * norm(v))
            let rrt = r * r.transposed
            for i in 0..<3 { for j in 0..<3 { #expect(abs(rrt[i, j] - (i == j ? 1 : 0)) <= 1e-14 * 8) } }
            // Determinant +1 (a rotation, not a reflection).
            #expect(abs(dot(r.rows.0, cross(r.rows.1, r.rows.2)) - 1) <= 1e-14 * 8)
            // The matrix of a product is the product of the matrices.
            let p = g.rotation()
            let pq = (p * q).rotationMatrix, prq = p.rotationMatrix * r
            for i in 0..<3 { for j in 0..<3 { #expect(abs(pq[i, j] - prq[i, j]) <= 1e-14 * 16) } }
        }
    }

    @Test func axisAngleRoundTripsThroughAngleAndRotationVector() {
        var g = SplitMix(seed: 105)
        for _ in 0..<Self.count {
            let axis = g.vector(), angle = g.uniform(0, Double.pi)
            let q = Quaternion(axis: axis, angle: angle)
            #expect(abs(q.length - 1) <= 1e-15 * 4)
            #expect(abs(q.angle - angle) <= 1e-13)
            // The axis is fixed by the rotation.
            #expect((q.act(axis) - axis).maxMagnitude <= 1e-14 * 8 * norm(axis))
            let unit = axis / norm(axis)
            #expect(rotationDistance(Quaternion(rotationVector: unit * angle), q) <= 1e-15 * 8)
            // Negative angle about the axis = the inverse.
            #expect(distance(Quaternion(axis: axis, angle: -angle), q.conjugate) <= 1e-15 * 8)
        }
    }

    @Test func normalizedIsUnitOrIdentityForDegenerateInput() {
        var g = SplitMix(seed: 106)
        for _ in 0..<Self.count {
            let q = g.quaternion()
            #expect(abs(q.normalized.length - 1) <= 1e-15 * 4)
            #expect(q.canonical.w >= 0 && rotationDistance(q.canonical, q) == 0)
        }
        let degenerate: [Quaternion<Double>] = [
            Quaternion(w: 0, x: 0, y: 0, z: 0), Quaternion(w: .nan, x: 0, y: 0, z: 1),
            Quaternion(w: .infinity, x: 0, y: 0, z: 0), Quaternion(w: 1, x: -.infinity, y: .nan, z: 0),
            Quaternion(w: 1e300, x: 1e300, y: 0, z: 0),  // norm overflows
        ]
        for q in degenerate { #expect(q.normalized == .identity, "\(q)") }
        // Tiny but non-zero quaternions still normalise to a unit rotation.
        let tiny = Quaternion<Double>(w: 1e-200, x: 1e-200, y: 0, z: 0).normalized
        #expect(abs(tiny.length - 1) <= 1e-15 * 4 && tiny.isFinite)
    }

    @Test func slerpStaysUnitHitsItsEndsAndMovesAtConstantSpeed() {
        var g = SplitMix(seed: 107)
        for _ in 0..<500 {
            let a = g.rotation()
            // Include nearly equal and nearly opposite pairs.
            let b = g.pick([g.rotation(), a * Quaternion(rotationVector: g.vector(scale: 1e-9)),
                            Quaternion(w: -a.w, x: -a.x, y: -a.y, z: -a.z) * Quaternion(rotationVector: g.vector(scale: 1e-6))])
            let total = (a.conjugate * b).angle
            #expect(rotationDistance(a.slerp(to: b, t: 0), a) <= 1e-12)
            #expect(rotationDistance(a.slerp(to: b, t: 1), b) <= 1e-12)
            let t = g.uniform()
            let s = a.slerp(to: b, t: t)
            #expect(abs(s.length - 1) <= 1e-12)
            #expect(abs((a.conjugate * s).angle - t * total) <= 1e-7)
        }
    }
}
