import Foundation
import Testing
@testable import Poise

/// Simulated recordings with known truth.
@Suite struct DeviceMotionEstimatorTests {
    static let degree = Double.pi / 180
    /// Earth field in ENU (µT): 20 north, 45 down (dip ≈ 66°).
    static let field = SIMD3<Double>(0, 20, -45)

    /// A sample of a device with true attitude `q` (device → ENU), rate `gyro`, plus `bias`.
    static func sample(_ t: Double, _ q: Quaternion<Double>, gyro: SIMD3<Double> = .zero,
                       bias: SIMD3<Double> = .zero, field: SIMD3<Double> = field) -> MotionSample {
        let inverse = q.conjugate
        return MotionSample(time: t, acceleration: inverse.act(SIMD3(0, 0, 1)), rotationRate: gyro + bias,
                            magneticField: inverse.act(field))
    }

    @Test func staticDeviceGivesTrueAttitudeGravityAndNoUserAcceleration() {
        let truth = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: 0.6) * Quaternion(axis: SIMD3(1, 0.5, 0), angle: 0.4)
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var m: DeviceMotion?
        for i in 0..<1000 { m = estimator.process(Self.sample(Double(i) / 100, truth)) }
        let motion = m!
        // Inclination converges exactly; the heading keeps the small error of the first
        // magnetometer samples (taken before the inclination had settled): a still device never
        // confirms its magnetic reference (VQF needs 5 s of turning for that), so the heading
        // correction stays paused and `magneticDisturbance` stays set.
        #expect((motion.attitude * truth.conjugate).angle < 2e-4)
        #expect(maxAbs(motion.gravity - truth.conjugate.act(SIMD3(0, 0, 1))) < 1e-5)
        #expect(maxAbs(motion.userAcceleration) < 1e-5)
        #expect(motion.flags.contains(.atRest))
        // The device's +y axis points 0.6 rad counter-clockwise from north: heading is 360° − 34.4°.
        let yAxis = truth.act(SIMD3(0, 1, 0))
        var expected = atan2(yAxis.x, yAxis.y) * 180 / .pi
        if expected < 0 { expected += 360 }
        #expect(abs(motion.heading! - expected) < 0.02)
    }

    @Test(arguments: [0, 0.0025])
    func constantRateRotationIntegratesExactlyWithIrregularTimestamps(prediction: Double) {
        // Turning about the vertical at 1 rad/s; gravity stays on z, so the corrections are idle.
        // The output is the attitude `outputPrediction` after the last timestamp.
        let rate = 1.0
        var configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        configuration.outputPrediction = prediction
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var t = 0.0
        var steps = 0
        var q = Quaternion<Double>.identity
        while t < 5 {
            q = estimator.process(MotionSample(time: t, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0, 0, rate))).attitude
            // Irregular steps: 7.56, 10.08 and 30.24 ms (the x-io pattern).
            t += [0.01008, 0.00756, 0.01008, 0.03024][steps % 4]
            steps += 1
        }
        let lastTime = t - [0.01008, 0.00756, 0.01008, 0.03024][(steps - 1) % 4]
        // The first sample integrates the nominal period (no previous timestamp).
        let expected = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: rate * (lastTime + 0.01 + prediction))
        #expect((q * expected.conjugate).angle < 1e-9)
    }

    @Test func restBiasEstimationConvergesOnAStillDevice() {
        let bias = SIMD3<Double>(0.4, -0.6, 0.3) * Self.degree   // °/s → rad/s
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 200))
        var generator = SplitMix(seed: 7)
        var m: DeviceMotion?
        for i in 0..<(200 * 30) {
            var s = Self.sample(Double(i) / 200, .identity, bias: bias)
            s.rotationRate += 0.1 * Self.degree * SIMD3(generator.gaussian(), generator.gaussian(), generator.gaussian())
            m = estimator.process(s)
        }
        #expect(maxAbs(m!.bias - bias) < 0.02 * Self.degree, "bias \(m!.bias / Self.degree) °/s")
        #expect(m!.flags.contains(.atRest))
        #expect(maxAbs(m!.rotationRate) < 0.5 * Self.degree)
    }

    @Test func magneticDisturbanceIsDetectedAndRejected() {
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var headingBefore = 0.0, worst = 0.0, flagged = 0
        for i in 0..<(100 * 40) {
            let t = Double(i) / 100
            // A magnet brought close for 5 s: the field doubles and turns by 40°.
            let disturbed = t >= 30 && t < 35
            let field = disturbed ? 2 * Quaternion(axis: SIMD3(0, 0, 1), angle: 40 * Self.degree).act(Self.field) : Self.field
            // Turn at 60 °/s for the first 10 s (the magnetic reference is confirmed only while
            // turning), then stay still.
            let rate = t < 10 ? 60 * Self.degree : 0
            let truth = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: min(t, 10) * 60 * Self.degree)
            let m = estimator.process(Self.sample(t, truth, gyro: SIMD3(0, 0, rate), field: field))
            if t > 20 && t < 30 { #expect(!m.flags.contains(.magneticDisturbance)) }
            if t < 30 { headingBefore = m.heading! }
            if disturbed {
                if m.flags.contains(.magneticDisturbance) { flagged += 1 }
                var d = abs(m.heading! - headingBefore); if d > 180 { d = 360 - d }
                worst = max(worst, d)
            }
        }
        // Detected within 0.25 s: one correction period (0.1 s at the default 10 Hz) plus the field low-pass.
        #expect(flagged >= 475, "disturbance flagged in \(flagged) of 500 samples")
        #expect(worst < 0.5, "heading moved \(worst)° during the disturbance")
    }

    @Test func badInputNeverProducesNaNAndIsFlagged() {
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        let nan = Double.nan
        let inputs: [MotionSample] = [
            MotionSample(time: 0, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0.1, 0, 0), magneticField: Self.field),
            MotionSample(time: 0, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0.1, 0, 0), magneticField: Self.field), // dt = 0
            MotionSample(time: -1, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0.1, 0, 0)),                          // backwards
            MotionSample(time: 0.01, acceleration: SIMD3(nan, 0, 1), rotationRate: SIMD3(nan, 0, 0), magneticField: SIMD3(nan, 1, 1)),
            MotionSample(time: 0.02, acceleration: .zero, rotationRate: SIMD3(.infinity, 0, 0), magneticField: .zero),
            MotionSample(time: 100, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(1e6, -1e6, 1e6), magneticField: Self.field), // gap
            MotionSample(time: nan, acceleration: SIMD3(1e300, 0, 0), rotationRate: SIMD3(0, 0, 0), magneticField: SIMD3(1e300, 0, 0)),
        ]
        var flags: [DeviceMotion.Flags] = []
        for s in inputs {
            let m = estimator.process(s)
            flags.append(m.flags)
            #expect(m.attitude.isFinite && abs(m.attitude.length - 1) < 1e-12)
            #expect(m.gravity.isFinite && m.rotationRate.isFinite && m.bias.isFinite && m.userAcceleration.isFinite)
        }
        #expect(flags[3].contains(.invalidInput) && flags[4].contains(.invalidInput))
        #expect(flags[5].contains(.timeGap))
        #expect(flags[6].contains(.invalidInput))
        #expect(!flags[1].contains(.invalidInput))
        #expect(flags.map { $0.contains(.timeNotIncreasing) } == [false, true, true, false, false, false, false])
    }

    /// A repeated or backward timestamp turns nothing and is flagged; its accelerometer sample
    /// is still used, and the samples after it are not flagged.
    @Test func repeatedAndBackwardTimestampsAreFlaggedAndIntegrateNothing() {
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        func sample(_ t: Double) -> MotionSample {
            MotionSample(time: t, acceleration: SIMD3(0, 0, 1), rotationRate: SIMD3(0, 0, 1), magneticField: Self.field)
        }
        for i in 0..<20 { #expect(!estimator.process(sample(Double(i) * 0.01)).flags.contains(.timeNotIncreasing)) }
        let before = estimator.state.gyroscopeAttitude
        for t in [0.19, 0.15] {
            let m = estimator.process(sample(t))
            #expect(m.flags.contains(.timeNotIncreasing) && !m.flags.contains(.invalidInput), "t = \(t)")
            #expect(estimator.state.gyroscopeAttitude == before, "t = \(t): the gyroscope was integrated")
            #expect(estimator.lastSample.acceleration == SIMD3(0, 0, 1))
        }
        let next = estimator.process(sample(0.16))   // 10 ms after the backward time
        #expect(next.flags.isDisjoint(with: [.timeNotIncreasing, .timeGap, .invalidInput]))
        #expect(estimator.state.gyroscopeAttitude != before)
    }

    @Test func quaternionStaysNormalisedOverFastUpdates() {
        // 5·10^4 updates of fast, changing rotation (10^8 take minutes even in release; the
        // quaternion is renormalised every step, so the error cannot accumulate —
        // `poise fuse` on long recordings and the benchmark's 10^6-update runs check the same).
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 1000))
        var worst = 0.0
        for i in 0..<50_000 {
            let t = Double(i) / 1000
            estimator.update(time: t, acceleration: SIMD3(sin(t), cos(3 * t), 1),
                             rotationRate: SIMD3(20 * sin(0.1 * t), 15, -30 * cos(0.2 * t)),
                             magneticField: SIMD3(20, 10 * sin(t), -40))
            if i % 1000 == 0 { worst = max(worst, abs(estimator.attitude.length - 1)) }
        }
        #expect(worst < 1e-13)
    }

    @Test func savedStateResumesExactly() throws {
        let samples = (0..<3000).map { DeviceMotionPeerTests.synthetic($0) }
        var whole = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var reference: [DeviceMotion] = []
        whole.process(samples, into: &reference)

        var first = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        for s in samples[..<1703] { _ = first.process(s) }   // mid-way between correction steps
        let saved = try JSONEncoder().encode(first.state)
        var resumed = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        resumed.state = try JSONDecoder().decode(DeviceMotionEstimator.State.self, from: saved)
        let rest = samples[1703...].map { resumed.process($0) }
        #expect(rest == Array(reference[1703...]))
    }

    /// A saved state carries its field layout; changing `State`'s stored fields without bumping
    /// `StateLayout.current` fails here, and a state of another layout fails to decode with an
    /// error that names both layouts.
    @Test func savedStateLayoutIsVersioned() throws {
        var configuration = DeviceMotionConfiguration(sampleRate: 100)
        configuration.skipHeldMagnetometerSamples = true  // (keeps lastMagneticField)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        for i in 0..<50 { _ = estimator.process(DeviceMotionPeerTests.synthetic(i)) }  // every optional field set
        let saved = try JSONEncoder().encode(estimator.state)
        var json = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(json["layout"] as? Int == DeviceMotionEstimator.StateLayout.current)
        // The stored fields of layout 8. Change this list and StateLayout.current together.
        let layout8 = ["accelerometerEarthSum", "accelerometerLowPass", "accelerometerMean",
                       "arbitraryHeadingOffset", "bias", "biasP", "gyroscopeAttitude",
                       "headingCacheAngle", "headingCorrection", "headingCosine", "headingSine", "inclinationAligned",
                       "inclinationCorrection", "lastMagneticField", "lastMagneticTime",
                       "lastSaturationTime", "lastTime", "layout", "magneticCandidateDip", "magneticCandidateNorm",
                       "magneticCandidateTime", "magneticDirectionMean", "magneticDirectionPause", "magneticDisturbanceDetected", "magneticElapsed", "magneticFieldSum",
                       "magneticInitialGain", "magneticNormDipLowPass", "magneticOffset", "magneticOffsetSample",
                       "magneticOffsetSums", "magneticReferenceDip",
                       "magneticReferenceNorm", "magneticRejectionTime", "magneticUndisturbedTime",
                       "motionBiasLowPass", "pendingAccelerometer", "previousRotationRate", "restAccelerometerLowPass",
                       "restAccelerometerMean", "restAccelerometerSum", "restDetected",
                       "restGyroscopeLowPass", "restGyroscopeMean", "restGyroscopeMeanWithinClip", "restGyroscopeSum",
                       "restTime", "rotationRatePeak", "samplesToCorrection", "secondPreviousRotationRate"]
        #expect(DeviceMotionEstimator.StateLayout.current == 8 && json.keys.sorted() == layout8,
                "State's stored fields changed: bump StateLayout.current and update this list: \(json.keys.sorted())")

        json["layout"] = 1
        let older = try JSONSerialization.data(withJSONObject: json)
        #expect {
            _ = try JSONDecoder().decode(DeviceMotionEstimator.State.self, from: older)
        } throws: { error in
            "\(error)".contains("layout 1") && "\(error)".contains("layout 8")
        }
        // Saved before layouts existed: no `layout` key.
        json["layout"] = nil
        let unversioned = try JSONSerialization.data(withJSONObject: json)
        #expect {
            _ = try JSONDecoder().decode(DeviceMotionEstimator.State.self, from: unversioned)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "layout"
        }
    }

    @Test func batchEqualsPerSampleAndResetEqualsFresh() {
        let samples = (0..<2000).map { DeviceMotionPeerTests.synthetic($0) }
        var a = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var batch: [DeviceMotion] = []
        a.process(samples, into: &batch)
        var b = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        let loop = samples.map { b.process($0) }
        #expect(batch == loop)
        a.reset()
        #expect(a.state == DeviceMotionEstimator(configuration: .init(sampleRate: 100)).state)
    }

    @Test func updateWithAMagnetometerVectorEqualsTheOptionalOne() {
        // The overload taking the vector against the optional one, sample by sample, on a
        // turning recording with a magnet for 30 s (heading, disturbance and offset all move).
        let samples = simulatedTurning(seed: 7, magnet: SIMD3(8, -5, 3), magnetTimes: 40...70)
        var vector = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var optional = vector
        var differing = 0, disturbed = 0
        for s in samples {
            guard let m = s.magneticField else { continue }
            vector.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: m)
            optional.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate,
                            magneticField: s.magneticField)
            if vector.state != optional.state || vector.lastSample != optional.lastSample { differing += 1 }
            if vector.lastSample.flags.contains(.magneticDisturbance) { disturbed += 1 }
        }
        #expect(samples.count > 10_000)
        #expect(differing == 0)
        #expect(disturbed > 0 && vector.state.headingCorrection != 0)
    }

    @Test func trueNorthAndArbitraryCorrectedReferences() {
        var config = DeviceMotionConfiguration(sampleRate: 100, reference: .trueNorthZVertical)
        config.declination = 10   // magnetic north is 10° east of true north
        var trueNorth = DeviceMotionEstimator(configuration: config)
        var corrected = DeviceMotionEstimator(configuration: .init(sampleRate: 100, reference: .arbitraryCorrectedZVertical))
        let truth = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: -0.5)   // top edge 28.6° east of magnetic north
        var m1: DeviceMotion?, m2: DeviceMotion?
        for i in 0..<1000 {
            let s = Self.sample(Double(i) / 100, truth)
            m1 = trueNorth.process(s); m2 = corrected.process(s)
        }
        #expect(abs(m1!.heading! - (0.5 / Self.degree + 10)) < 1e-3)
        // Arbitrary-corrected starts at the heading of its first sample: yaw stays 0.
        #expect(abs(m2!.coreMotionAngles.yaw) < 1e-6)
    }
}
