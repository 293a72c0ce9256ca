import Testing
@testable import Poise

/// Invariants of `DeviceMotionEstimator` under random and extreme input: saturated sensors,
/// zero vectors, huge, zero, negative and non-finite time steps, NaN and ±Inf in every input.
@Suite struct FusionRobustnessTests {
    /// A random input stream mixing plausible motion with every kind of bad value.
    struct Stream {
        var g: SplitMix
        var time = 0.0
        init(seed: UInt64) { g = SplitMix(seed: seed) }

        mutating func vector(plausible scale: Double) -> SIMD3<Double> {
            let bad: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, 1e-300, 0]
            switch g.next() % 10 {
            case 0: return .zero
            case 1: return SIMD3(g.pick(bad), g.pick(bad), g.pick(bad))
            case 2: return SIMD3(g.pick(bad), g.gaussian(), g.gaussian())
            case 3: return SIMD3(16, -16, 16) * g.pick([1.0, -1.0])           // saturated ±16 g / ±16 rad/s
            default: return g.vector(scale: scale)
            }
        }

        mutating func next() -> MotionSample {
            switch g.next() % 20 {
            case 0: break                                   // dt = 0 (repeated timestamp)
            case 1: time -= g.uniform(0, 1)                 // backwards
            case 2: time += g.pick([1e6, 1e12, 3600])       // huge gap
            case 3: time += 1e-12                           // tiny step
            default: time += g.uniform(0.002, 0.02)
            }
            let t = g.next() % 50 == 0 ? g.pick([Double.nan, .infinity, -.infinity]) : time
            let magnetometer: SIMD3<Double>? = g.uniform() < 0.2 ? nil : vector(plausible: 50)
            return MotionSample(time: t, acceleration: vector(plausible: 1), rotationRate: vector(plausible: 3),
                                magneticField: magnetometer)
        }
    }

    static func check(_ m: DeviceMotion, _ configuration: DeviceMotionConfiguration, _ context: String) -> Bool {
        var problems: [String] = []
        if !(m.attitude.isFinite && abs(m.attitude.length - 1) <= 1e-9) { problems.append("attitude \(m.attitude)") }
        if !(m.gravity.isFinite && abs(norm(m.gravity) - 1) <= 1e-9) { problems.append("gravity \(m.gravity)") }
        if !m.userAcceleration.isFinite { problems.append("user acceleration \(m.userAcceleration)") }
        if !m.rotationRate.isFinite { problems.append("rotation rate \(m.rotationRate)") }
        if !(m.bias.isFinite && m.bias.maxMagnitude <= configuration.biasClip) { problems.append("bias \(m.bias)") }
        if let h = m.heading, !(h >= 0 && h < 360) { problems.append("heading \(h)") }
        if !m.time.isFinite { problems.append("time \(m.time)") }
        if !problems.isEmpty { Issue.record("\(context): \(problems.joined(separator: ", "))") }
        return problems.isEmpty
    }

    static let configurations: [DeviceMotionConfiguration] = {
        var all: [DeviceMotionConfiguration] = []
        for reference in AttitudeReference.allCases {
            for frame in EarthFrame.allCases {
                all.append(DeviceMotionConfiguration(sampleRate: 100, reference: reference, earthFrame: frame))
            }
        }
        var held = DeviceMotionConfiguration(sampleRate: 285.7)
        held.skipHeldMagnetometerSamples = true
        held.accelerationRejectionThreshold = 0.2
        all.append(held)
        var plain = DeviceMotionConfiguration(sampleRate: 50)
        plain.motionBiasEstimation = false; plain.restBiasEstimation = false; plain.magneticDisturbanceRejection = false
        all.append(plain)
        return all
    }()

    @Test(arguments: 0..<configurations.count)
    func outputsStayFiniteUnitAndBoundedUnderHostileInput(index: Int) {
        let configuration = Self.configurations[index]
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var stream = Stream(seed: 600 + UInt64(index))
        for n in 0..<3000 {
            let s = stream.next()
            if !Self.check(estimator.process(s), configuration, "\(configuration.reference) \(configuration.earthFrame) sample \(n): \(s)") { return }
        }
    }

    @Test func outputsStayValidThroughLongPlausibleMotion() {
        // 10 000 updates of fast random rotation with noise: the norm must not drift.
        var estimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: 200))
        var g = SplitMix(seed: 610)
        var q = Quaternion<Double>.identity
        for n in 0..<10_000 {
            let omega = SIMD3(Double.sin(Double(n) / 300), Double.cos(Double(n) / 170), 0.5) * 8 + g.vector(scale: 0.05)
            q = (q * Quaternion(rotationVector: omega / 200)).normalized
            let acc = q.conjugate.act(SIMD3(0, 0, 1)) + g.vector(scale: 0.02)
            let mag = q.conjugate.act(SIMD3(0, 20, -40)) + g.vector(scale: 0.5)
            let m = estimator.process(time: Double(n) / 200, acceleration: acc, rotationRate: omega, magneticField: mag)
            if !Self.check(m, estimator.configuration, "sample \(n)") { return }
        }
        #expect(abs(estimator.attitude.length - 1) <= 1e-12)
    }

    @Test func aWhollyInvalidSampleIsIgnoredAndFlagged() {
        // Policy: non-finite inputs are skipped and flagged; a sample with nothing valid (not even
        // its time) leaves the estimator's trajectory exactly as if it had not been there.
        var g = SplitMix(seed: 620)
        var clean = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: 100))
        var dirty = clean
        for n in 0..<600 {
            let t = Double(n) / 100
            let s = MotionSample(time: t, acceleration: SIMD3(0.1, -0.2, 1) + g.vector(scale: 0.05),
                                 rotationRate: SIMD3(0.3, 0.1, -0.2) + g.vector(scale: 0.05),
                                 magneticField: SIMD3(10, 20, -40) + g.vector(scale: 0.5))
            if n % 7 == 3 {
                let before = dirty.attitude
                let bad = MotionSample(time: g.pick([.nan, .infinity, -.infinity]),
                                       acceleration: SIMD3(.nan, 0, 1), rotationRate: SIMD3(0, .infinity, 0),
                                       magneticField: SIMD3(-.infinity, .nan, 0))
                let m = dirty.process(bad)
                #expect(m.flags.contains(.invalidInput))
                #expect(m.attitude == before)
                #expect(m.userAcceleration == .zero && m.rotationRate == .zero)
            }
            let expected = clean.process(s), actual = dirty.process(s)
            #expect(actual.attitude == expected.attitude && actual.bias == expected.bias, "sample \(n)")
            #expect(!actual.flags.contains(.invalidInput))
        }
    }

    @Test func nonFiniteSensorsWithAValidTimeDoNotMoveTheAttitude() {
        var estimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: 100))
        for n in 0..<100 {
            _ = estimator.process(time: Double(n) / 100, acceleration: SIMD3(0, 0.5, 0.8), rotationRate: SIMD3(0, 0, 1),
                                  magneticField: SIMD3(0, 20, -40))
        }
        for (n, bad) in [SIMD3<Double>(.nan, 0, 0), SIMD3(0, .infinity, 0), SIMD3(0, 0, -.infinity)].enumerated() {
            let before = estimator.attitude
            let m = estimator.process(time: 1 + Double(n) / 100, acceleration: bad, rotationRate: bad, magneticField: bad)
            #expect(m.attitude == before && m.flags.contains(.invalidInput))
        }
    }

    @Test func gapsAreIntegratedAsTheMaximumStepAndBackwardTimeIntegratesNothing() {
        // Only the gyroscope acts (zero acceleration is skipped; 6D reference): the rotation over
        // one step is exactly |ω|·dt with dt clamped to maximumTimeStep, and 0 for dt ≤ 0.
        let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        let omega = SIMD3<Double>(0, 0, 2)
        for (step, expectedAngle, gap) in [(1e9, 2 * configuration.maximumTimeStep, true), (0.0, 0.0, false),
                                           (-5.0, 0.0, false), (0.004, 0.008, false)] {
            var estimator = DeviceMotionEstimator(configuration: configuration)
            _ = estimator.process(time: 10, acceleration: .zero, rotationRate: omega)
            let before = estimator.attitude
            let m = estimator.process(time: 10 + step, acceleration: .zero, rotationRate: omega)
            #expect(abs((before.conjugate * m.attitude).angle - expectedAngle) <= 1e-12, "step \(step)")
            #expect(m.flags.contains(.timeGap) == gap, "step \(step)")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteTimeIntegratesNothingAndIsNotAGap(time: Double) {
        // A valid rotation rate at a non-finite time: the step is unknown, so nothing is
        // integrated (+∞ is not a gap of maximumTimeStep) and the next step is from the last
        // finite time.
        let configuration = DeviceMotionConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        let omega = SIMD3<Double>(0, 0, 2)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        _ = estimator.process(time: 10, acceleration: .zero, rotationRate: omega)
        let before = estimator.attitude
        let m = estimator.process(time: time, acceleration: .zero, rotationRate: omega)
        #expect(m.attitude == before)
        #expect(m.flags.contains(.invalidInput) && !m.flags.contains(.timeGap))
        let next = estimator.process(time: 10.01, acceleration: .zero, rotationRate: omega)
        #expect(abs((before.conjugate * next.attitude).angle - 0.02) <= 1e-12)
        #expect(!next.flags.contains(.timeGap))
    }

    @Test func vectorsTooLargeToSquareAreRejectedNotTurnedIntoNaN() {
        // Regression (found by outputsStayFiniteUnitAndBoundedUnderHostileInput): a magnetometer
        // sample of ±1.8e308 overflowed in the rotation to the earth frame and made the attitude
        // NaN for good; a gyroscope sample of 1e300 silently reset the attitude to the identity.
        for huge in [SIMD3<Double>(.greatestFiniteMagnitude, 0, 0), SIMD3(1e300, -1e300, 1e-300), SIMD3(0, 0, 2e154)] {
            var estimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: 100))
            for n in 0..<50 {
                _ = estimator.process(time: Double(n) / 100, acceleration: SIMD3(0, 0.6, 0.8), rotationRate: SIMD3(0.5, 0, 0),
                                      magneticField: SIMD3(0, 20, -40))
            }
            let before = estimator.attitude
            let magnetic = estimator.process(time: 0.5, acceleration: SIMD3(0, 0.6, 0.8), rotationRate: .zero, magneticField: huge)
            #expect(magnetic.flags.contains(.invalidInput) && magnetic.attitude.isFinite)
            let gyroscope = estimator.process(time: 0.51, acceleration: .zero, rotationRate: huge, magneticField: nil)
            #expect(gyroscope.flags.contains(.invalidInput) && gyroscope.attitude.isFinite)
            #expect(rotationDistance(gyroscope.attitude, before) < 0.05, "\(huge): \(before) → \(gyroscope.attitude)")
            let accelerometer = estimator.process(time: 0.52, acceleration: huge, rotationRate: .zero, magneticField: nil)
            #expect(accelerometer.flags.contains(.invalidInput) && accelerometer.userAcceleration == .zero)
        }
    }
}
