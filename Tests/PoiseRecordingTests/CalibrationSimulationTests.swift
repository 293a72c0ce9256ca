import Poise
import Testing
@testable import PoiseRecording

/// The calibrations recover the simulator's known sensor errors.
@Suite struct CalibrationSimulationTests {
    static let softIron = Matrix3(SIMD3(1.1, 0.05, 0.02), SIMD3(0.05, 0.95, -0.03), SIMD3(0.02, -0.03, 1.02))
    static let hardIron = SIMD3<Double>(25, -40, 12)

    /// A magnetometer with white noise only (0.4 µT per sample at 100 Hz), so the distortion is the
    /// only error and the truth is exact.
    static var noiseOnly: SensorModel {
        var model = SensorModel.phone
        model.magnetometer = SensorErrorModel(noiseDensity: 0.04, biasStandardDeviation: 0, biasInstability: 0,
                                              scaleErrorStandardDeviation: 0, misalignmentStandardDeviation: 0, range: 4900)
        return model
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func magnetometerCalibrationRecoversHardAndSoftIronWithinOnePercent(seed: UInt64) throws {
        let configuration = SimulationConfiguration(scenario: .tumble, seed: seed, sensors: Self.noiseOnly,
                                                    magnetometerDistortion: MagnetometerDistortion(hardIron: Self.hardIron, softIron: Self.softIron))
        let fields = Simulator.samples(configuration).compactMap(\.magneticField)
        let result = try MagnetometerCalibrator.calibrate(fields)
        let field = configuration.earth.magneticFieldStrength
        let tolerance = 0.01 * field
        let offsetError = result.correction.offset - Self.hardIron
        #expect((offsetError * offsetError).sum().squareRoot() < tolerance)
        // For every true field B (|B| = 50 µT) the calibrated reading is k·B, k = F / 50:
        // matrix · softIron = k·I to within 1 % of the field.
        let product = result.correction.matrix * Self.softIron
        let k = result.fieldStrength / field
        for (row, unit) in zip([product.r0, product.r1, product.r2], [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]) {
            let error = field * (row - k * unit)
            #expect((error * error).sum().squareRoot() < tolerance)
        }
        #expect(result.after.percent < 1.5 && result.before.percent > 10)
    }

    @Test func gyroscopeBiasAndAccelerometerFromAMultiPositionRecording() throws {
        let simulator = Simulator(SimulationConfiguration(scenario: .multiPosition, seed: 4))
        let samples = Array(simulator)
        // Gyroscope: the constant bias, within 0.05 °/s (the Gauss–Markov drift of the phone
        // model, 0.02 °/s, moves it by a few hundredths of a degree per second).
        let gyro = try GyroscopeBiasEstimator.estimate(samples)
        let bias = simulator.fixedErrors(of: .gyroscope).bias
        let degree = Double.pi / 180
        #expect(abs(gyro.bias - bias).max() < 0.05 * degree)
        #expect(gyro.segments.count == 13)
        #expect(gyro.drift != nil)
        // Accelerometer: the offset within 2 mg (drift 0.5 mg), and matrix · (M · diag(1 + s))
        // orthogonal to within 2·10⁻³ (|a| is blind to a rotation of the sensor frame).
        let accel = try AccelerometerCalibrator.calibrate(samples)
        let truth = simulator.fixedErrors(of: .accelerometer)
        #expect(accel.orientations >= 9)
        #expect(accel.model == .full)
        #expect(abs(accel.correction.offset - truth.bias).max() < 0.002)
        let q = accel.correction.matrix * truth.matrix
        let gram = q.transposed * q
        #expect(abs(gram.r0 - SIMD3(1, 0, 0)).max() < 2e-3 && abs(gram.r1 - SIMD3(0, 1, 0)).max() < 2e-3
                && abs(gram.r2 - SIMD3(0, 0, 1)).max() < 2e-3)
        #expect(accel.residual < 0.5e-3 && accel.residualBefore > 5e-3)
    }

    @Test func tooFewOrientationsAreCounted() {
        let samples = Simulator.samples(SimulationConfiguration(scenario: .tiltSteps, seed: 1))
        #expect {
            try AccelerometerCalibrator.calibrate(samples)
        } throws: { error in
            let message = (error as? CalibrationError)?.message ?? ""
            return message.hasPrefix("found 2 distinct still orientations") && message.contains("needs at least 6")
        }
    }

    @Test func aRecordingWithoutRestHasNoGyroscopeBias() {
        let samples = Simulator.samples(SimulationConfiguration(scenario: .tumble, duration: 20, seed: 1)).filter { $0.time > 1.5 }
        #expect {
            try GyroscopeBiasEstimator.estimate(samples)
        } throws: { error in
            ((error as? CalibrationError)?.message ?? "").contains("no still segment")
        }
    }

    @Test func theDistortionIsAppliedBeforeTheSensorModel() {
        let distortion = MagnetometerDistortion(hardIron: Self.hardIron, softIron: Self.softIron)
        let plain = Simulator.samples(SimulationConfiguration(scenario: .still, duration: 1, sensors: .ideal))
        let distorted = Simulator.samples(SimulationConfiguration(scenario: .still, duration: 1, sensors: .ideal, magnetometerDistortion: distortion))
        for (a, b) in zip(plain, distorted) {
            #expect(abs(b.magneticField! - distortion.apply(a.magneticField!)).max() < 1e-12)
            #expect(a.acceleration == b.acceleration)
        }
    }
}

private func abs(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x.magnitude, v.y.magnitude, v.z.magnitude) }

/// A non-finite reading is never averaged: the rest detector does not take it for still, and a
/// segment that holds one anyway (a detector without the gyroscope test) is left out and counted.
@Suite struct CalibrationNonFiniteTests {
    @Test func nonFiniteReadingsAreNeverAveraged() throws {
        let simulator = Simulator(SimulationConfiguration(scenario: .multiPosition, seed: 4))
        var samples = Array(simulator)
        let clean = try GyroscopeBiasEstimator.estimate(samples)
        let first = try #require(clean.segments.first)
        let bad = (first.indices.lowerBound + first.indices.upperBound) / 2
        samples[bad].rotationRate.x = .nan
        let gyro = try GyroscopeBiasEstimator.estimate(samples)
        #expect(gyro.bias.x.isFinite)
        #expect(!gyro.segments.contains { $0.indices.contains(bad) })
        var accelerometerOnly = GyroscopeBiasEstimator.calibrationDetector
        accelerometerOnly.useGyroscope = false
        let counted = try GyroscopeBiasEstimator.estimate(samples, detector: accelerometerOnly)
        #expect(counted.nonFiniteSegments == 1)
        #expect(counted.bias.x.isFinite)
        samples[bad].acceleration.y = .infinity
        let accel = try AccelerometerCalibrator.calibrate(samples)
        #expect(accel.correction.isFinite)
    }
}
