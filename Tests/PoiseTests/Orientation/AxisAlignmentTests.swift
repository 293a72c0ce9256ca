import Testing
@testable import Poise

/// Determinant of a 3×3 matrix by cofactor expansion (independent of `AxisAlignment.determinant`).
func orientationDeterminant(_ m: RotationMatrix<Double>) -> Double {
    let (a, b, c) = m.rows
    return dot(a, cross(b, c))
}

/// Deterministic test vectors, not aligned with any axis.
let orientationProbeVectors: [SIMD3<Double>] = [
    SIMD3(0.3, -1.7, 2.9), SIMD3(-4.25, 0.5, 0.125), SIMD3(1, 2, 3), SIMD3(-0.001, 7.5, -3.3),
]

@Suite struct AxisAlignmentTests {
    @Test func fortyEightDistinctSignedPermutationsHalfOfThemProper() {
        #expect(AxisAlignment.all.count == 48)
        #expect(Set(AxisAlignment.all).count == 48)
        #expect(AxisAlignment.proper.count == 24)
        for a in AxisAlignment.all {
            let det = orientationDeterminant(a.matrix())
            #expect(det == Double(a.determinant), "\(a)")
            #expect(a.isProper == (det == 1), "\(a)")
        }
    }

    @Test func applyEqualsMatrixProductAndNotationRoundTrips() throws {
        for a in AxisAlignment.all {
            for v in orientationProbeVectors { #expect(a.apply(v) == a.matrix().apply(v), "\(a)") }
            #expect(try AxisAlignment(a.description, allowingReflection: true) == a)
            if a.isProper { #expect(try AxisAlignment(a.description) == a) }
        }
        // The example from the notation's documentation.
        let a = try AxisAlignment("+Y-X+Z")
        #expect(a.apply(SIMD3<Double>(1, 2, 3)) == SIMD3(2, -1, 3))
        #expect(try AxisAlignment("+y-x+z") == a)
    }

    @Test func everyAlignmentRoundTripsThroughItsInverse() {
        for a in AxisAlignment.all {
            #expect(a.inverse.inverse == a)
            #expect(a.inverse.isProper == a.isProper)
            #expect(a.followed(by: a.inverse) == .identity)
            #expect(a.inverse.followed(by: a) == .identity)
            for v in orientationProbeVectors {
                #expect(a.inverse.apply(a.apply(v)) == v, "\(a)")
                #expect(a.apply(a.inverse.apply(v)) == v, "\(a)")
            }
        }
    }

    @Test func compositionIsApplicationInOrderAndProperOnesFormAGroup() {
        let proper = Set(AxisAlignment.proper)
        for a in AxisAlignment.all {
            for b in AxisAlignment.all {
                let ab = a.followed(by: b)
                #expect(ab.apply(orientationProbeVectors[0]) == b.apply(a.apply(orientationProbeVectors[0])))
                #expect(ab.determinant == a.determinant * b.determinant)
                if a.isProper && b.isProper { #expect(proper.contains(ab)) }
            }
        }
        // Associativity on a sample of triples.
        let list = AxisAlignment.all
        for i in stride(from: 0, to: 48, by: 5) {
            let (a, b, c) = (list[i], list[(i * 7 + 3) % 48], list[(i * 11 + 5) % 48])
            #expect(a.followed(by: b).followed(by: c) == a.followed(by: b.followed(by: c)))
        }
    }

    @Test func frameRemapOfEachProperAlignmentMatchesItsMatrixAndComposes() throws {
        for a in AxisAlignment.proper {
            let remap = try FrameRemap<Double>(alignment: a)
            #expect(abs(remap.rotation.length - 1) < 1e-15)
            for v in orientationProbeVectors {
                #expect(maxAbs(remap.rotation.act(v) - a.apply(v)) < 1e-14, "\(a)")
                #expect(remap.vector(v) == a.apply(v))
            }
            for b in AxisAlignment.proper.prefix(6) {
                let composed = remap.followed(by: try FrameRemap(alignment: b))
                let direct = try FrameRemap<Double>(alignment: a.followed(by: b))
                #expect(composed.matrix == direct.matrix)
                #expect(abs(abs((composed.rotation.conjugate * direct.rotation).w) - 1) < 1e-15)
            }
        }
    }

    @Test func reflectionsAreRejectedWithAClearMessageUnlessAllowed() throws {
        let error = #expect(throws: AxisAlignmentError.self) { try AxisAlignment("+Y+X+Z") }
        #expect(error?.description.contains("reflection") == true)
        #expect(error?.description.contains("+Y+X-Z") == true)
        #expect(try AxisAlignment("+Y+X+Z", allowingReflection: true).determinant == -1)
        let reflection = try AxisAlignment("-X+Y+Z", allowingReflection: true)
        #expect(throws: AxisAlignmentError.self) { try FrameRemap<Double>(alignment: reflection) }
    }

    @Test func malformedSpecificationsNameTheCharacter() {
        func failure(_ text: String) -> AxisAlignmentError? {
            do { _ = try AxisAlignment(text); return nil } catch let e as AxisAlignmentError { return e } catch { return nil }
        }
        #expect(failure("+Y-Y+Z")?.position == 4)
        #expect(failure("+Y-Y+Z")?.message.contains("twice") == true)
        #expect(failure("+Y*X+Z")?.position == 3)
        #expect(failure("+Y-Q+Z")?.position == 4)
        #expect(failure("+Y-X")?.position == 0)
        #expect(failure("")?.message.contains("6 characters") == true)
        #expect(failure("+Y-X+Z ") != nil)
    }

    @Test func eulerMountingMatchesSuccessiveAxisRotations() {
        let (roll, pitch, yaw) = (0.3, -0.8, 2.1)
        let remap = FrameRemap<Double>(roll: roll, pitch: pitch, yaw: yaw)
        for v in orientationProbeVectors {
            // R = Rz(yaw) Ry(pitch) Rx(roll): roll is applied to the vector first.
            let expected = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: yaw).act(
                Quaternion<Double>(axis: SIMD3(0, 1, 0), angle: pitch).act(
                    Quaternion<Double>(axis: SIMD3(1, 0, 0), angle: roll).act(v)))
            #expect(maxAbs(remap.vector(v) - expected) < 1e-13)
            #expect(maxAbs(remap.inverse.vector(remap.vector(v)) - v) < 1e-13)
        }
        // 90° yaw is the alignment -Y+X+Z (new x = −sensor y).
        let quarter = FrameRemap<Double>(roll: 0, pitch: 0, yaw: .pi / 2)
        #expect(maxAbs(quarter.vector(SIMD3(1, 2, 3)) - SIMD3(-2, 1, 3)) < 1e-15)
    }
}
