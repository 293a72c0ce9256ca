import Foundation
import Testing
@testable import Poise

/// The offline smoother (`DeviceMotionSmoother`) on simulated recordings with a known attitude.
@Suite struct DeviceMotionSmootherTests {
    /// 120 s at 100 Hz of a device turning with varying rates (up to ≈ 100 °/s), pausing 5 s
    /// every 30 s, with a gyroscope bias, noise, linear acceleration and a magnetometer
    /// (`simulatedTurning`); the first two samples have the same
    /// rotation rate (so that a recording reversed twice is the recording itself).
    static func simulated(seed: UInt64 = 77) -> [MotionSample] {
        var samples = simulatedTurning(seed: seed)
        samples[0].rotationRate = samples[1].rotationRate
        return samples
    }

    /// The recording as the smoother's backward pass reads it: reversed, t → −t, each sample's
    /// rotation rate the negated rate of the sample after it (the last keeps its own).
    static func reversed(_ samples: [MotionSample]) -> [MotionSample] {
        let n = samples.count
        return (0..<n).map { k in
            let i = n - 1 - k
            var s = samples[i]
            s.time = -s.time
            s.rotationRate = -(i + 1 < n ? samples[i + 1].rotationRate : samples[i].rotationRate)
            return s
        }
    }

    /// The recording ends in motion: the backward pass starts there with the forward pass's
    /// attitude and bias (`carryAttitude`, `carryBias`); without them its first seconds (an
    /// inclination snapped to an accelerating specific force, the heading converging, the bias
    /// unknown until the next rest) made the 9D average worse than the forward pass alone.
    /// `simulated()` with a non-finite rotation rate at sample 700 (smoothers must not spread it).
    static func simulatedWithBadRate() -> [MotionSample] {
        var samples = simulated()
        samples[700].rotationRate.y = .nan
        return samples
    }

    /// For 9D and 6D: the smoother's output with the default options and with `options`.
    static func defaultsAndOption(_ options: DeviceMotionSmoother.Options, _ samples: [MotionSample])
        -> [(AttitudeReference, [DeviceMotion], [DeviceMotion])] {
        [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical].map { reference in
            let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: reference)
            return (reference, DeviceMotionSmoother(configuration: configuration).smooth(samples),
                    DeviceMotionSmoother(configuration: configuration, options: options).smooth(samples))
        }
    }

    @Test func beatsTheCausalEstimatorOnSimulatedMotion() {
        let samples = Self.simulated()
        for reference in [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical] {
            let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: reference)
            var online = DeviceMotionEstimator(configuration: configuration)
            let causal = online.evaluate(samples)
            let smoothed = DeviceMotionSmoother(configuration: configuration).evaluate(samples)
            #expect(smoothed.count == causal.count && smoothed.count == samples.count)
            // Measured: 9D 0.88° vs 0.996°, 6D 0.738° vs 0.812° (inclination 0.732° vs 0.805°).
            #expect(smoothed.total < 0.95 * causal.total, "\(reference): offline \(smoothed.total)° vs online \(causal.total)°")
            #expect(smoothed.inclination < causal.inclination, "\(reference): offline \(smoothed.inclination)° vs online \(causal.inclination)°")
        }
    }

    @Test func smoothingTheReversedRecordingGivesTheSameAttitudes() {
        // With nothing carried between the passes, equal weights and the passes' own inclination
        // (the zero-phase one integrates from the first sample), the backward pass of the
        // reversed recording is the forward pass of the recording and vice versa: the combined
        // attitudes are the same, sample for sample, in reverse order (at the samples' times:
        // the output prediction, which carries each one ahead in time, is off).
        let samples = Self.simulated(seed: 5)
        var configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .magneticNorthZVertical)
        configuration.outputPrediction = 0
        let smoother = DeviceMotionSmoother(configuration: configuration,
                                            options: .init(carryBias: false, carryAttitude: false, inclinationLowPassTime: 0))
        let forward = smoother.smooth(samples)
        let backward = smoother.smooth(Self.reversed(samples))
        #expect(forward.count == samples.count && backward.count == samples.count)
        var worst = 0.0
        for (i, motion) in forward.enumerated() {
            worst = max(worst, (motion.attitude * backward[samples.count - 1 - i].attitude.conjugate).angle)
        }
        #expect(worst < 1e-12, "\(worst) rad apart")
        // The bias of the reversed recording is the negated bias.
        let b = forward[6000].bias, r = backward[samples.count - 1 - 6000].bias
        #expect(norm(b + r) < 1e-12 * max(1, norm(b)))
    }

    @Test func outputsFollowTheEstimatorsConventions() {
        let samples = Array(Self.simulated().prefix(3000))
        var configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .trueNorthZVertical)
        configuration.declination = 10
        configuration.earthFrame = .northEastDown
        let out = DeviceMotionSmoother(configuration: configuration).smooth(samples)
        var magnetic = configuration
        magnetic.reference = .magneticNorthZVertical
        magnetic.earthFrame = .eastNorthUp
        let enu = DeviceMotionSmoother(configuration: magnetic).smooth(samples)
        for i in stride(from: 0, to: samples.count, by: 97) {
            let o = out[i], e = enu[i]
            #expect(o.time == samples[i].time && o.earthFrame == .northEastDown)
            // Gravity: up in device coordinates, from the attitude; user acceleration the rest.
            #expect(norm(o.gravity - e.attitude.conjugate.act(SIMD3(0, 0, 1))) < 1e-12)
            #expect(norm(o.userAcceleration - (samples[i].acceleration - o.gravity)) < 1e-15)
            #expect(norm(o.rotationRate + o.bias - samples[i].rotationRate) < 1e-15)
            // True north = magnetic north turned by the declination; NED from ENU.
            let expected = EarthFrame.northEastDown.fromEastNorthUp * DeviceMotionSmoother.aboutVertical(-10 * .pi / 180) * e.attitude
            #expect((o.attitude * expected.conjugate).angle < 1e-12)
            // A device facing magnetic north faces 10° east of true north.
            let heading = (e.heading! + 10).truncatingRemainder(dividingBy: 360)
            #expect(abs(o.heading! - heading) < 1e-9 || abs(abs(o.heading! - heading) - 360) < 1e-9)
        }
        // Arbitrary-corrected: the magnetic-north attitude turned so the first heading turn is 0.
        magnetic.reference = .arbitraryCorrectedZVertical
        let corrected = DeviceMotionSmoother(configuration: magnetic).smooth(samples)
        #expect(abs(DeviceMotionSmoother.yaw(corrected[0].attitude)) < 1e-12)
    }

    @Test func badInputIsFlaggedAndNeverSpreads() {
        var samples = Array(Self.simulated().prefix(2000))
        samples[500].rotationRate.x = .nan
        samples[700].acceleration = SIMD3(.infinity, 0, 0)
        samples[900].magneticField = SIMD3(.nan, 1, 1)
        samples[1100].time = .nan
        for reference in [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical] {
            let out = DeviceMotionSmoother(configuration: .init(sampleRate: 100, reference: reference)).smooth(samples)
            #expect(out.count == samples.count)
            #expect(out.allSatisfy { $0.attitude.isFinite && $0.gravity.x.isFinite && $0.bias.x.isFinite && $0.userAcceleration.x.isFinite })
            #expect(out[500].flags.contains(.invalidInput) && out[700].flags.contains(.invalidInput))
            #expect(out[1100].flags.contains(.invalidInput))
            if reference.usesMagnetometer { #expect(out[900].flags.contains(.invalidInput)) }
        }
        let smoother = DeviceMotionSmoother()
        #expect(smoother.smooth([MotionSample]()).isEmpty)
        let one = smoother.smooth([MotionSample(time: 0, acceleration: SIMD3(0, 0, 1), magneticField: SIMD3(0, 20, -40))])
        #expect(one.count == 1 && one[0].attitude.isFinite && abs(one[0].gravity.z - 1) < 1e-12)
    }

    /// `smoothedBias`: the passes again with the mean of the first passes' bias fixed; the
    /// output bias is that mean (the default output's bias), the output rate the measured rate
    /// less it, and bad input still never spreads.
    @Test func smoothedBiasRunsThePassesWithTheMeanBiasFixed() {
        let samples = Self.simulatedWithBadRate()
        for (reference, plain, fixed) in Self.defaultsAndOption(.init(smoothedBias: true), samples) {
            #expect(fixed.count == samples.count)
            var moved = 0.0
            for i in stride(from: 0, to: samples.count, by: 13) where i != 700 {
                #expect(norm(fixed[i].bias - plain[i].bias) < 1e-12, "\(reference) sample \(i)")
                #expect(norm(fixed[i].rotationRate + fixed[i].bias - samples[i].rotationRate) < 1e-12)
                moved = max(moved, (fixed[i].attitude * plain[i].attitude.conjugate).angle)
            }
            #expect(moved > 1e-6, "\(reference): the fixed-bias passes changed nothing")
            #expect(fixed.allSatisfy { $0.attitude.isFinite && $0.bias.x.isFinite && $0.gravity.x.isFinite })
            #expect(fixed[700].flags.contains(.invalidInput))
        }
    }

    /// `convergenceWeightTime`: a pass's weight grows from 0 at its first sample, so the first
    /// sample is the backward pass's attitude alone and the last the forward pass's; the
    /// weighting is symmetric in time (the reversed recording gives the same attitudes).
    @Test func convergenceWeightingTakesEachEndFromThePassThatRanThere() {
        let samples = Self.simulated(seed: 5)
        // The passes' attitudes at the samples' times: no output prediction.
        var configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .magneticNorthZVertical)
        configuration.outputPrediction = 0
        let options = DeviceMotionSmoother.Options(carryBias: false, carryAttitude: false, convergenceWeightTime: 20, inclinationLowPassTime: 0)
        let smoother = DeviceMotionSmoother(configuration: configuration, options: options)
        let out = smoother.smooth(samples)
        #expect(out.count == samples.count)
        var forward = DeviceMotionEstimator(configuration: smoother.passConfiguration)
        for s in samples { forward.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField) }
        var backward = DeviceMotionEstimator(configuration: smoother.passConfiguration)
        for s in Self.reversed(samples) {
            backward.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
        }
        #expect((out[samples.count - 1].attitude * forward.attitudeEastNorthUp.conjugate).angle < 1e-12)
        #expect((out[0].attitude * backward.attitudeEastNorthUp.conjugate).angle < 1e-12)
        // Between the ends it differs from the equal weights, symmetrically in time.
        let equal = DeviceMotionSmoother(configuration: configuration,
                                         options: .init(carryBias: false, carryAttitude: false, inclinationLowPassTime: 0)).smooth(samples)
        let reversed = smoother.smooth(Self.reversed(samples))
        var moved = 0.0, asymmetry = 0.0
        for i in stride(from: 0, to: samples.count, by: 7) {
            moved = max(moved, (out[i].attitude * equal[i].attitude.conjugate).angle)
            asymmetry = max(asymmetry, (out[i].attitude * reversed[samples.count - 1 - i].attitude.conjugate).angle)
        }
        #expect(moved > 1e-4, "the weighting changed nothing")
        #expect(asymmetry < 1e-12, "\(asymmetry) rad apart")
        // A recording of one sample (no time to weight by) gets the equal weights.
        let one = smoother.smooth([MotionSample(time: 0, acceleration: SIMD3(0, 0, 1), magneticField: SIMD3(0, 20, -40))])
        #expect(one.count == 1 && one[0].attitude.isFinite)
    }

    /// `inclinationLowPassTime` (default 4 s): the inclination from one integration of the rates less the
    /// combined bias and the accelerometer low-passed forward and backward in that frame. On
    /// the simulated recording (linear acceleration, bias, noise) it is closer to the truth
    /// than the combined passes' inclination, and bad input still never spreads.
    @Test func zeroPhaseInclinationIsCloserAndNeverSpreadsBadInput() {
        var samples = Self.simulated()
        for reference in [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical] {
            let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: reference)
            let plain = DeviceMotionSmoother(configuration: configuration, options: .init(inclinationLowPassTime: 0)).evaluate(samples)
            let zeroPhase = DeviceMotionSmoother(configuration: configuration).evaluate(samples)
            #expect(zeroPhase.inclination < plain.inclination, "\(reference): \(zeroPhase.inclination)° vs \(plain.inclination)°")
        }
        samples[500].rotationRate.x = .nan
        samples[700].acceleration = SIMD3(.infinity, 0, 0)
        samples[1100].time = .nan
        let out = DeviceMotionSmoother(configuration: .init(sampleRate: 100)).smooth(samples)
        #expect(out.count == samples.count)
        #expect(out.allSatisfy { $0.attitude.isFinite && $0.gravity.x.isFinite && $0.bias.x.isFinite })
        #expect(out[500].flags.contains(.invalidInput) && out[700].flags.contains(.invalidInput))
        let one = DeviceMotionSmoother().smooth([MotionSample(time: 0, acceleration: SIMD3(0, 0, 1), magneticField: SIMD3(0, 20, -40))])
        #expect(one.count == 1 && one[0].attitude.isFinite && abs(one[0].gravity.z - 1) < 1e-12)
    }

    /// `headingLowPassTime`'s correction: each sample's field, turned into its attitude's frame,
    /// gives the angle by which that frame's north is off; the angles are low-passed with zero
    /// phase, leaving out fields whose norm or dip is off the recording's medians.
    @Test func zeroPhaseHeadingFollowsTheFieldSymmetricallyAndLeavesOutDisturbedSamples() {
        // 60 s at 100 Hz, level, the field 2° east of the frame's north for 30 s, then 2° west.
        let n = 6000, degree = Double.pi / 180
        func field(_ angle: Double, norm: Double = 1) -> SIMD3<Double> {
            SIMD3(20 * Double.sin(angle), 20 * Double.cos(angle), -40) * norm
        }
        var samples = (0..<n).map { i in
            MotionSample(time: Double(i) / 100, acceleration: SIMD3(0, 0, 1), magneticField: field((i < n / 2 ? 2 : -2) * degree))
        }
        let level = Quaternion<Double>(w: 1, x: 0, y: 0, z: 0)
        func turns(_ samples: [MotionSample]) -> [Double] {
            DeviceMotionSmoother.zeroPhaseHeading(samples, offsets: { _ in .zero }, attitude: { _ in level },
                                                  timeConstant: 2, period: 0.01).map { 2 * Double.atan2(y: $0.z, x: $0.w) / degree }
        }
        let clean = turns(samples)
        #expect(abs(clean[200] - 2) < 1e-3 && abs(clean[n - 200] + 2) < 1e-3, "\(clean[200])°, \(clean[n - 200])°")
        // Zero phase: antisymmetric about the step, no lag.
        for k in [0, 50, 300, 1000] { #expect(abs(clean[n / 2 - 1 - k] + clean[n / 2 + k]) < 1e-4, "\(k)") }
        #expect(abs(clean[n / 2 - 1]) < 1, "\(clean[n / 2 - 1])°")
        // Fields 30 % stronger, or dipping 20° more, pointing 90° off, and readings that are not
        // finite, are left out: as if there were no reading.
        var withoutThem = samples
        for i in stride(from: 100, to: n, by: 37) {
            samples[i].magneticField = field(90 * degree, norm: 1.3)
            withoutThem[i].magneticField = nil
        }
        for i in stride(from: 120, to: n, by: 41) {
            samples[i].magneticField = SIMD3(0, 5, -44.4)
            withoutThem[i].magneticField = nil
        }
        samples[2100].magneticField = SIMD3(.nan, 1, 1)
        withoutThem[2100].magneticField = nil
        let disturbed = turns(samples), expected = turns(withoutThem)
        var apart = 0.0, moved = 0.0
        for i in 0..<n {
            apart = max(apart, abs(disturbed[i] - expected[i]))
            moved = max(moved, abs(disturbed[i] - clean[i]))
        }
        #expect(apart < 1e-12 && moved > 1e-6, "\(apart)° apart, \(moved)° from the clean field")
        // The offsets are taken off the reading before it is turned.
        let offset = SIMD3<Double>(5, -3, 2)
        let shifted = samples.map { s -> MotionSample in var s = s; s.magneticField = s.magneticField.map { $0 + offset }; return s }
        let removed = DeviceMotionSmoother.zeroPhaseHeading(shifted, offsets: { _ in offset }, attitude: { _ in level },
                                                            timeConstant: 2, period: 0.01).map { 2 * Double.atan2(y: $0.z, x: $0.w) / degree }
        #expect(abs(removed[200] - disturbed[200]) < 1e-9)
        // No reading at all: no turn.
        let none = samples.map { s -> MotionSample in var s = s; s.magneticField = nil; return s }
        #expect(turns(none).allSatisfy { $0 == 0 })
    }

    /// The smoother with `headingLowPassTime`: changes the 9D heading only, and bad input
    /// never spreads.
    @Test func zeroPhaseHeadingOptionTurnsTheHeadingOnly() {
        var samples = Self.simulated()
        let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .magneticNorthZVertical)
        let plain = DeviceMotionSmoother(configuration: configuration).smooth(samples)
        let corrected = DeviceMotionSmoother(configuration: configuration, options: .init(headingLowPassTime: 30)).smooth(samples)
        var moved = 0.0, tilted = 0.0
        for i in stride(from: 0, to: samples.count, by: 11) {
            moved = max(moved, (corrected[i].attitude * plain[i].attitude.conjugate).angle)
            tilted = max(tilted, norm(corrected[i].gravity - plain[i].gravity))
        }
        #expect(moved > 1e-5 && tilted < 1e-12, "\(moved) rad, gravity \(tilted) apart")
        let sixD = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        #expect(DeviceMotionSmoother(configuration: sixD, options: .init(headingLowPassTime: 30)).smooth(samples)
                == DeviceMotionSmoother(configuration: sixD).smooth(samples))
        samples[500].rotationRate.x = .nan
        samples[900].magneticField = SIMD3(.nan, 1, 1)
        samples[1100].time = .nan
        let out = DeviceMotionSmoother(configuration: configuration, options: .init(headingLowPassTime: 30)).smooth(samples)
        #expect(out.count == samples.count)
        #expect(out.allSatisfy { $0.attitude.isFinite && $0.gravity.x.isFinite && ($0.heading ?? .nan).isFinite })
    }

    /// `biasCovarianceWeighting`: the two passes' biases combined by their covariances, per
    /// axis the inverse-variance weighted mean for diagonal covariances, the mean when their
    /// sum is singular; in the smoother it changes the bias and nothing spreads.
    @Test func biasesCombinedByCovariancesWeighTheSurerPass() {
        let a = SIMD3<Double>(1, 2, 3), b = SIMD3<Double>(3, 2, -1)
        let pa = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 4, 0), SIMD3(0, 0, 0.5)), pb = Matrix3(SIMD3(3, 0, 0), SIMD3(0, 4, 0), SIMD3(0, 0, 1.5))
        let c = DeviceMotionSmoother.combinedBias(a, pa, b, pb)
        // Per axis (a/pa + b/pb) / (1/pa + 1/pb).
        let expected = SIMD3<Double>((1.0 / 1 + 3.0 / 3) / (1.0 / 1 + 1.0 / 3), 2, (3 / 0.5 - 1 / 1.5) / (1 / 0.5 + 1 / 1.5))
        #expect(norm(c - expected) < 1e-12, "\(c) vs \(expected)")
        #expect(DeviceMotionSmoother.combinedBias(a, .scaledIdentity(0), b, .scaledIdentity(0)) == (a + b) * 0.5)
        let samples = Self.simulatedWithBadRate()
        for (reference, plain, weighted) in Self.defaultsAndOption(.init(biasCovarianceWeighting: true), samples) {
            #expect(weighted.count == samples.count)
            var moved = 0.0
            for i in stride(from: 0, to: samples.count, by: 13) { moved = max(moved, norm(weighted[i].bias - plain[i].bias)) }
            #expect(moved > 1e-6, "\(reference): the combination changed nothing")
            #expect(weighted.allSatisfy { $0.attitude.isFinite && $0.bias.x.isFinite && $0.gravity.x.isFinite })
        }
    }

    @Test func samplesInMemoryAndReadByIndexGiveTheSameOutputs() {
        // An array is read through a buffer pointer, a collection that is not contiguous (here
        // a lazy map) through its subscript: the same passes, the same bits. The gyroscope
        // recording's fit is accepted, so the corrected rates are read too.
        let gyroscope = GyroscopeSelfCalibrationTests.recording(seed: 12).samples
        #expect(GyroscopeSelfCalibration.fit(gyroscope).accepted)
        for samples in [Self.simulated(), gyroscope] {
            let byIndex = (0..<samples.count).lazy.map { samples[$0] }
            #expect(GyroscopeSelfCalibration.fit(byIndex) == GyroscopeSelfCalibration.fit(samples))
            for reference in [AttitudeReference.magneticNorthZVertical, .arbitraryZVertical] {
                let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: reference))
                let inMemory = smoother.smooth(samples)
                #expect(inMemory.count == samples.count)
                #expect(smoother.smooth(byIndex) == inMemory, "\(reference)")
                // A slice (indices from 300) gives what the array of its samples gives.
                #expect(smoother.smooth(samples[300...]) == smoother.smooth(Array(samples[300...])), "\(reference)")
            }
        }
    }

    @Test func keepsSixtyFourBytesPerSample() {
        #expect(MemoryLayout<DeviceMotionSmoother.BackwardRecord>.stride == 64)
        // With the zero-phase inclination, each sample's kept output values (the integrated
        // rate of the output prediction among them).
        #expect(MemoryLayout<DeviceMotionSmoother.KeptSample>.stride == 176)
    }
}
