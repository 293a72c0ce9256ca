import Foundation
import Testing
@testable import Poise

/// The ellipsoid fit: exact on exact data, equal to an independent numpy implementation on a real
/// recording, and refusing data that do not determine it.
@Suite struct EllipsoidFitTests {
    /// Points on a known ellipsoid in recording order: raw = S · (F u) + h + noise, with u
    /// following a slow spiral from z = `zRange.upperBound` to `zRange.lowerBound` (20 turns), as
    /// a device turned through every direction.
    static func points(count: Int, softIron: Matrix3, hardIron: SIMD3<Double>, strength: Double = 50,
                       noise: Double = 0, seed: UInt64 = 7, zRange: ClosedRange<Double> = -1 ... 1) -> [SIMD3<Double>] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { i in
            let t = (Double(i) + 0.5) / Double(count)
            let z = zRange.upperBound - (zRange.upperBound - zRange.lowerBound) * t
            let phi = 2 * Double.pi * 20 * t
            let r = (1 - z * z).squareRoot()
            let u = SIMD3(r * cos(phi), r * sin(phi), z)
            return softIron * (strength * u) + hardIron + noise * SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
        }
    }

    static let softIron = Matrix3(SIMD3(1.12, 0.06, -0.03), SIMD3(0.06, 0.91, 0.04), SIMD3(-0.03, 0.04, 1.03))

    @Test func exactPointsGiveTheExactEllipsoid() throws {
        let h = SIMD3<Double>(31, -42, 17)
        let fit = try EllipsoidFit(Self.points(count: 500, softIron: Self.softIron, hardIron: h), model: .full)
        #expect(abs(fit.center - h).max() < 1e-9)
        // (x − h)ᵀ E (x − h) = 1 for x = S B, |B| = 50: E = S⁻ᵀ S⁻¹ / 2500.
        let inverse = Self.softIron.inverse
        let expected = inverse.transposed * inverse
        for (row, want) in zip([fit.shape.r0, fit.shape.r1, fit.shape.r2], [expected.r0, expected.r1, expected.r2]) {
            #expect(abs(row * 2500 - want).max() < 1e-9)
        }
    }

    @Test func diagonalAndOffsetModelsFitTheirOwnShapes() throws {
        let diagonal = Matrix3(SIMD3(1.2, 0, 0), SIMD3(0, 0.9, 0), SIMD3(0, 0, 1.05))
        let h = SIMD3<Double>(-5, 8, 60)
        let fit = try EllipsoidFit(Self.points(count: 300, softIron: diagonal, hardIron: h), model: .diagonal)
        #expect(abs(fit.center - h).max() < 1e-9)
        let sphere = try EllipsoidFit(Self.points(count: 300, softIron: .scaledIdentity(1), hardIron: h), model: .offset)
        #expect(abs(sphere.center - h).max() < 1e-9)
        #expect(abs(sphere.shape.r1.y * 2500 - 1) < 1e-9)
    }

    @Test func planarPointsAreRefused() {
        // A device turned about Z only: the field traces a circle, no ellipsoid is determined.
        let circle = (0..<400).map { i -> SIMD3<Double> in
            let a = Double(i) / 400 * 2 * .pi
            return SIMD3(40 * cos(a), 40 * sin(a), -25) + SIMD3(3, 4, 5)
        }
        #expect(throws: CalibrationError.self) { try EllipsoidFit(circle, model: .full) }
        #expect(throws: CalibrationError.self) { try EllipsoidFit(Array(circle.prefix(5)), model: .full) }
    }

    static var golden: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ellipsoid_fit_broad02.json")
    }

    /// BROAD trial 02 (real magnetometer), one fit of every row, against
    /// Tests/Goldens/ellipsoid_fit_golden.py (numpy lstsq on the design matrix, scipy sqrtm).
    @Test(.enabled(if: DeviceMotionBROADTests.isPresent, "../shared/data/broad is absent"))
    func equalsTheNumpyReferenceOnBROAD02() throws {
        let reference = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: Self.golden)) as? [String: Any])
        let fields = try DeviceMotionBROADTests.load(trial: "02_undisturbed_slow_rotation_B").compactMap(\.magneticField)
        #expect(fields.count == reference["samples"] as? Int)
        let fit = try EllipsoidFit(fields, model: .full)
        let center = try #require(reference["center"] as? [Double])
        for i in 0..<3 { #expect(abs(fit.center[i] - center[i]) < 1e-9 * 50) }
        let shape = try #require(reference["shape"] as? [[Double]])
        for (row, want) in zip([fit.shape.r0, fit.shape.r1, fit.shape.r2], shape) {
            for i in 0..<3 { #expect(abs(row[i] - want[i]) < 1e-9 * abs(shape[0][0])) }
        }
        // The calibrator's first fit is the same ellipsoid: with no outlier rejection its soft iron
        // and field strength equal the reference's.
        var options = MagnetometerCalibrator.Options()
        options.maximumIterations = 1
        let calibration = try MagnetometerCalibrator.calibrate(fields, options: options)
        let strength = try #require(reference["field_strength"] as? Double)
        #expect(abs(calibration.fieldStrength - strength) < 1e-9 * strength)
        let softIron = try #require(reference["soft_iron"] as? [[Double]])
        let m = calibration.correction.matrix
        for (row, want) in zip([m.r0, m.r1, m.r2], softIron) {
            for i in 0..<3 { #expect(abs(row[i] - want[i]) < 1e-8) }
        }
    }
}

private func abs(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x.magnitude, v.y.magnitude, v.z.magnitude) }
