import Foundation
import Testing
@testable import Poise

/// A run in two lanes (`DeviceMotionEstimator+Lanes.swift`) gives, sample by sample, the outputs
/// of `update`, and ends in the same state, bit for bit: on a simulated run with a magnet and
/// hostile samples (and with a clipped gyroscope), under every schedule and reference, and on
/// BROAD trials with magnetic disturbances and a magnet fixed to the device.
@Suite struct DeviceMotionLaneTests {
    /// The simulated run with a magnet from 40 to 70 s and, every few hundred samples, a hostile
    /// sample: non-finite or huge inputs, a zero or held magnetometer sample, a missing one, a
    /// repeated or backward timestamp, a gap.
    static func hostileRun() -> [MotionSample] {
        var samples = simulatedTurning(seed: 11, magnet: SIMD3(30, -10, 25), magnetTimes: 40...70)
        for i in stride(from: 150, to: samples.count, by: 173) {
            switch (i / 173) % 10 {
            case 0: samples[i].rotationRate.x = .nan
            case 1: samples[i].acceleration.y = .infinity
            case 2: samples[i].magneticField = .zero
            case 3: samples[i].magneticField = samples[i - 1].magneticField
            case 4: samples[i].magneticField = nil
            case 5: samples[i].time = samples[i - 1].time
            case 6: samples[i].time = samples[i - 1].time - 0.02
            case 7: samples[i].acceleration = SIMD3(1e200, 0, 0)
            case 8: samples[i].magneticField = SIMD3(.nan, 1, 1)
            default: for j in i..<samples.count { samples[j].time += 0.5 }   // a gap
            }
        }
        return samples
    }

    /// Runs `samples` both ways and expects every sample's `deviceMotion` and the final state
    /// and last sample to be identical. Returns the number of correction steps handed over.
    @discardableResult
    static func expectLanesEqualOneLane(_ samples: [MotionSample], _ configuration: DeviceMotionConfiguration,
                                        sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var one = DeviceMotionEstimator(configuration: configuration)
        var sixD = one, magnetometer = one
        var handed = DeviceMotionEstimator.LaneSample()
        var correction = DeviceMotionEstimator.LaneCorrection(attitude: .identity, inclination: .identity,
                                                              restGyroscopeMean: .zero, bias: .zero)
        var corrections = 0, mismatches = 0
        for s in samples {
            let expected = one.process(s)
            let corrected = sixD.updateSixDLane(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate,
                                                magneticField: s.magneticField, sample: &handed, correction: &correction)
            if corrected { corrections += 1 }
            magnetometer.applyMagnetometerLane(handed, correction: corrected ? correction : nil, acceleration: s.acceleration,
                                               rotationRate: s.rotationRate, magneticField: s.magneticField)
            var got = magnetometer.deviceMotion
            got.time = expected.time   // the magnetometer lane does not keep the timestamps
            if !same(got, expected) { mismatches += 1 }
        }
        #expect(mismatches == 0, "samples whose outputs differ", sourceLocation: sourceLocation)
        sixD.adoptMagnetometerLane(of: magnetometer)
        #expect(sixD.state == one.state, sourceLocation: sourceLocation)
        #expect(sixD.lastSample == one.lastSample, sourceLocation: sourceLocation)
        return corrections
    }

    /// Bitwise equality (NaN equal to NaN).
    static func same(_ a: DeviceMotion, _ b: DeviceMotion) -> Bool {
        func bits(_ m: DeviceMotion) -> [UInt64] {
            [m.attitude.w, m.attitude.x, m.attitude.y, m.attitude.z, m.gravity.x, m.gravity.y, m.gravity.z,
             m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z, m.rotationRate.x, m.rotationRate.y,
             m.rotationRate.z, m.bias.x, m.bias.y, m.bias.z, m.heading ?? -1].map(\.bitPattern)
        }
        return bits(a) == bits(b) && a.flags == b.flags
    }

    @Test(arguments: ["defaults", "fast", "vqf", "6D", "arbitrary corrected", "skip held", "clipped"])
    func hostileRunIsBitIdentical(_ name: String) {
        var c: DeviceMotionConfiguration
        switch name {
        case "fast": c = .fast(sampleRate: 100)
        case "vqf": c = .vqfDefaults(sampleRate: 100)
        case "6D": c = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        case "arbitrary corrected": c = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryCorrectedZVertical)
        default: c = DeviceMotionConfiguration(sampleRate: 100)
        }
        if name == "skip held" { c.skipHeldMagnetometerSamples = true }
        var samples = Self.hostileRun()
        if name == "clipped" {
            // A gyroscope clipped at ±1.1 rad/s on X: the clips' saturated samples restart the
            // inclination low-pass in the 6D lane and pause the field-direction test in the
            // magnetometer lane.
            for i in samples.indices { samples[i].rotationRate.x = max(-1.1, min(1.1, samples[i].rotationRate.x)) }
            var e = DeviceMotionEstimator(configuration: c)
            #expect(samples.filter { e.process($0).flags.contains(.gyroscopeSaturated) }.count > 100)
        }
        let corrections = Self.expectLanesEqualOneLane(samples, c)
        // The handover is exercised: about one correction step per block of
        // `correctionInterval` samples (every sample for VQF's schedule).
        let interval = DeviceMotionEstimator(configuration: c).coefficients.correctionInterval
        #expect(corrections > samples.count * 9 / (10 * interval))
    }

    @Test(.enabled(if: DeviceMotionBROADTests.isPresent, "../shared/data/broad is absent"),
          arguments: ["29_disturbed_stationary_magnet_B", "34_disturbed_attached_magnet_3cm"])
    func broadTrialIsBitIdentical(_ trial: String) throws {
        let samples = try DeviceMotionBROADTests.load(trial: trial)
        let rate = 1 / ((samples.last!.time - samples.first!.time) / Double(samples.count - 1))
        Self.expectLanesEqualOneLane(samples, DeviceMotionConfiguration(sampleRate: rate))
    }
}
