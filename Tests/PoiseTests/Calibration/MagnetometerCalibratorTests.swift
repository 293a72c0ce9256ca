import Foundation
import Testing
@testable import Poise

/// Hard and soft iron recovered from known distortions, robustly; clear refusals otherwise.
@Suite struct MagnetometerCalibratorTests {
    let hardIron = SIMD3<Double>(31, -42, 17)

    /// The calibrated field of every direction has the fitted strength to within `tolerance`, and
    /// matrix · softIron is a multiple of the identity (a symmetric soft iron is undone exactly).
    func expectRecovers(_ result: MagnetometerCalibration, softIron: Matrix3, tolerance: Double) {
        #expect(abs(result.correction.offset - hardIron).max() < tolerance)
        let product = result.correction.matrix * softIron
        let k = result.fieldStrength / 50
        for (row, unit) in zip([product.r0, product.r1, product.r2], [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]) {
            // |A S B − F B/|B|| ≤ tolerance for |B| = 50, per axis direction.
            #expect(abs(row * 50 - k * 50 * unit).max() < tolerance)
        }
    }

    @Test func recoversHardAndSoftIronWithinOnePercentOfTheField() throws {
        let points = EllipsoidFitTests.points(count: 4000, softIron: EllipsoidFitTests.softIron, hardIron: hardIron, noise: 0.4)
        let result = try MagnetometerCalibrator.calibrate(points)
        expectRecovers(result, softIron: EllipsoidFitTests.softIron, tolerance: 0.01 * 50)
        #expect(result.after.standardDeviation < result.before.standardDeviation / 10)
        #expect(result.after.standardDeviation < 0.6)
        #expect(result.coverage.sphereFraction > 0.9)
        #expect(abs(Double(det(result.correction.matrix)) - 1) < 1e-12)
        #expect(result.warnings.isEmpty)
    }

    @Test func disturbedSamplesAreRejected() throws {
        var points = EllipsoidFitTests.points(count: 4000, softIron: EllipsoidFitTests.softIron, hardIron: hardIron, noise: 0.4)
        // 15 % of the samples near a magnet: 20–60 µT extra in a fixed direction.
        for i in 0..<600 { points[i] += SIMD3(20, 10, -15) * (1 + Double(i / 200)) }
        let naive = try EllipsoidFit(points, model: .full)
        #expect(abs(naive.center - hardIron).max() > 1, "the disturbance must matter without rejection")
        let result = try MagnetometerCalibrator.calibrate(points)
        expectRecovers(result, softIron: EllipsoidFitTests.softIron, tolerance: 0.01 * 50)
        #expect(result.rejected >= 550 && result.rejected <= 700)
        #expect(result.iterations > 1)
    }

    @Test func nonFiniteSamplesAreCountedNotUsed() throws {
        var points = EllipsoidFitTests.points(count: 1000, softIron: .scaledIdentity(1), hardIron: hardIron)
        points[10] = SIMD3(.nan, 0, 0); points[20] = SIMD3(0, .infinity, 0)
        let result = try MagnetometerCalibrator.calibrate(points)
        #expect(result.nonFinite == 2)
        #expect(abs(result.correction.offset - hardIron).max() < 1e-6)
        #expect(result.fieldStrength.isFinite)
    }

    @Test func saturatedSamplesAreLeftOutAndTooManyAreRefused() throws {
        let points = EllipsoidFitTests.points(count: 4000, softIron: EllipsoidFitTests.softIron, hardIron: hardIron, noise: 0.4)
        // A range that clips X at +70 µT: the samples beyond read exactly 70.
        let clipped = points.map { SIMD3(min($0.x, 70), $0.y, $0.z) }
        let count = clipped.filter { $0.x == 70 }.count
        #expect(count > 40)
        let result = try MagnetometerCalibrator.calibrate(clipped)
        #expect(result.saturated == count)
        #expect(result.warnings.contains { $0.contains("saturated") })
        expectRecovers(result, softIron: EllipsoidFitTests.softIron, tolerance: 0.01 * 50)
        // Clipped at ±10 µT on every axis: most samples sit at a limit.
        let crushed = points.map { $0.clamped(lowerBound: SIMD3(repeating: -10), upperBound: SIMD3(repeating: 10)) }
        #expect {
            try MagnetometerCalibrator.calibrate(crushed)
        } throws: { error in
            ((error as? CalibrationError)?.message ?? "").contains("the magnetometer saturates")
        }
        // The unclipped data have no saturated sample.
        #expect(try MagnetometerCalibrator.calibrate(points).saturated == 0)
    }

    @Test func aDeviceTurnedAboutOneAxisIsRefusedWithTheAngles() {
        // Flat on a table, turned 360° about the vertical (Z): the field traces a circle.
        let points = (0..<2000).map { i -> SIMD3<Double> in
            let a = Double(i) / 2000 * 2 * .pi
            return SIMD3(25 * cos(a), 25 * sin(a), -43) + hardIron
        }
        #expect {
            try MagnetometerCalibrator.calibrate(points)
        } throws: { error in
            let message = (error as? CalibrationError)?.message ?? ""
            return message.contains("turned through only") && message.contains("turn it in all directions")
        }
    }

    @Test func aStillDeviceIsRefused() {
        var random = SplitMix(seed: 3)
        let points = (0..<1000).map { _ in SIMD3<Double>(20, 5, -40) + 0.4 * SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) }
        #expect {
            try MagnetometerCalibrator.calibrate(points)
        } throws: { error in
            ((error as? CalibrationError)?.message ?? "").contains("hardly turned")
        }
    }

    @Test func tooFewSamplesAreRefused() {
        let points = EllipsoidFitTests.points(count: 20, softIron: .scaledIdentity(1), hardIron: hardIron)
        #expect {
            try MagnetometerCalibrator.calibrate(points)
        } throws: { error in
            ((error as? CalibrationError)?.message ?? "").contains("20 usable magnetometer samples; calibration needs at least 50")
        }
    }

    @Test func aHalfTurnIsEnoughForTheOffsetModelOnly() throws {
        // Directions in a band of the sphere: the sphere fit is determined, the full one is not.
        let points = EllipsoidFitTests.points(count: 3000, softIron: .scaledIdentity(1), hardIron: hardIron, zRange: 0.1 ... 0.45)
        var options = MagnetometerCalibrator.Options()
        options.model = .offset
        let result = try MagnetometerCalibrator.calibrate(points, options: options)
        #expect(abs(result.correction.offset - hardIron).max() < 1e-6)
        #expect(result.correction.matrix == .scaledIdentity(1) || abs(result.correction.matrix.r0.x - 1) < 1e-12)
        #expect(throws: CalibrationError.self) { try MagnetometerCalibrator.calibrate(points) }
    }

    @Test func medianBySelectionEqualsTheSortedMedian() {
        var random = SplitMix(seed: 5)
        for count in [1, 2, 3, 10, 101, 1000] {
            let values = (0..<count).map { _ in (random.uniform() * 20).rounded() }
            let sorted = values.sorted()
            let expected = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
            #expect(MagnetometerCalibrator.median(values) == expected)
        }
    }

    func det(_ m: Matrix3) -> Double {
        (m.r0 * SIMD3(m.r1.y * m.r2.z - m.r1.z * m.r2.y, m.r1.z * m.r2.x - m.r1.x * m.r2.z, m.r1.x * m.r2.y - m.r1.y * m.r2.x)).sum()
    }
}

private func abs(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x.magnitude, v.y.magnitude, v.z.magnitude) }
