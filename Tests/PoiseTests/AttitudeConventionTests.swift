import Testing
@testable import Poise

/// CoreMotion sign and Euler conventions (conventions.md), earth frames and the BROAD metric.
@Suite struct AttitudeConventionTests {
    static let degree = Double.pi / 180

    @Test func coreMotionAnglesHaveCoreMotionSigns() {
        // Top edge raised by 30° (rotation about device x): pitch +30°.
        let pitchUp = DeviceMotion.coreMotionAngles(Quaternion(axis: SIMD3(1, 0, 0), angle: 30 * Self.degree))
        #expect(abs(pitchUp.pitch - 30 * Self.degree) < 1e-12 && abs(pitchUp.roll) < 1e-12 && abs(pitchUp.yaw) < 1e-12)
        // Right edge lowered by 20° (rotation about device y): roll +20°.
        let rollRight = DeviceMotion.coreMotionAngles(Quaternion(axis: SIMD3(0, 1, 0), angle: 20 * Self.degree))
        #expect(abs(rollRight.roll - 20 * Self.degree) < 1e-12 && abs(rollRight.pitch) < 1e-12)
        // Turned counter-clockwise seen from above: yaw +40°.
        let yawLeft = DeviceMotion.coreMotionAngles(Quaternion(axis: SIMD3(0, 0, 1), angle: 40 * Self.degree))
        #expect(abs(yawLeft.yaw - 40 * Self.degree) < 1e-12)
    }

    @Test func coreMotionAnglesComposeAsYawPitchRoll() {
        // CoreMotion's matrix is Rz(yaw)·Rx(pitch)·Ry(roll): recover all three from a composition.
        let (yaw, pitch, roll) = (-2.1, 0.7, 2.5)
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: yaw) * Quaternion(axis: SIMD3(1, 0, 0), angle: pitch)
            * Quaternion(axis: SIMD3(0, 1, 0), angle: roll)
        let a = DeviceMotion.coreMotionAngles(q)
        #expect(abs(a.yaw - yaw) < 1e-12 && abs(a.pitch - pitch) < 1e-12 && abs(a.roll - roll) < 1e-12)
    }

    @Test func aerospaceAnglesRecoverZYXComposition() {
        let (yaw, pitch, roll) = (2.8, -1.1, -0.4)
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: yaw) * Quaternion(axis: SIMD3(0, 1, 0), angle: pitch)
            * Quaternion(axis: SIMD3(1, 0, 0), angle: roll)
        let a = DeviceMotion.aerospaceAngles(q)
        #expect(abs(a.yaw - yaw) < 1e-12 && abs(a.pitch - pitch) < 1e-12 && abs(a.roll - roll) < 1e-12)
    }

    @Test func earthFramesMapEastNorthUpAxes() {
        let east = SIMD3<Double>(1, 0, 0), north = SIMD3<Double>(0, 1, 0), up = SIMD3<Double>(0, 0, 1)
        let ned = EarthFrame.northEastDown.fromEastNorthUp, nwu = EarthFrame.northWestUp.fromEastNorthUp
        #expect(maxAbs(ned.act(north) - SIMD3(1, 0, 0)) < 1e-15 && maxAbs(ned.act(east) - SIMD3(0, 1, 0)) < 1e-15)
        #expect(maxAbs(ned.act(up) - SIMD3(0, 0, -1)) < 1e-15)
        #expect(maxAbs(nwu.act(north) - SIMD3(1, 0, 0)) < 1e-15 && maxAbs(nwu.act(east) - SIMD3(0, -1, 0)) < 1e-15)
        #expect(maxAbs(nwu.act(up) - up) < 1e-15)
    }

    @Test func nedAttitudeOfAFlatDevicePointsScreenUp() {
        var estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100, earthFrame: .northEastDown))
        var m: DeviceMotion?
        for i in 0..<300 {
            m = estimator.process(MotionSample(time: Double(i) / 100, acceleration: SIMD3(0, 0, 1),
                                               magneticField: SIMD3(0, 20, -45)))
        }
        // Device +z (screen) is up, i.e. −z in NED; device +y points north, +x east.
        #expect(maxAbs(m!.attitude.act(SIMD3(0, 0, 1)) - SIMD3(0, 0, -1)) < 1e-6)
        #expect(maxAbs(m!.attitude.act(SIMD3(0, 1, 0)) - SIMD3(1, 0, 0)) < 1e-6)
        #expect(abs(m!.heading!) < 1e-4 || abs(m!.heading! - 360) < 1e-4)
    }

    @Test func broadMetricSeparatesHeadingAndInclination() {
        let truth = Quaternion<Double>(axis: SIMD3(0.3, -1, 0.2), angle: 1.2)
        var heading = OrientationErrorAccumulator(), tilt = OrientationErrorAccumulator()
        for _ in 0..<10 {
            heading.add(estimate: Quaternion(axis: SIMD3(0, 0, 1), angle: 5 * Self.degree) * truth, truth: truth)
            tilt.add(estimate: Quaternion(axis: SIMD3(1, 0, 0), angle: 3 * Self.degree) * truth, truth: truth)
        }
        let h = heading.result(alignHeading: false), t = tilt.result(alignHeading: false)
        #expect(abs(h.total - 5) < 1e-9 && abs(h.heading - 5) < 1e-9 && h.inclination < 1e-6)
        #expect(abs(t.total - 3) < 1e-9 && abs(t.inclination - 3) < 1e-9 && t.heading < 1e-9)
        // 6D alignment removes a constant heading offset, and reports it.
        let aligned = heading.result(alignHeading: true)
        #expect(aligned.total < 1e-6 && aligned.headingAligned && abs(aligned.headingOffset + 5) < 1e-6)
    }

    @Test func anAccumulatorThatKeepsNoErrorsGivesTheSameUnalignedResultBitForBit() {
        var generator = SystemRandomNumberGenerator()
        var kept = OrientationErrorAccumulator(), summed = OrientationErrorAccumulator(keepsErrors: false)
        for _ in 0..<5000 {
            func random() -> Quaternion<Double> {
                Quaternion(axis: SIMD3(.random(in: -1...1, using: &generator), .random(in: -1...1, using: &generator), 1),
                           angle: .random(in: -3...3, using: &generator))
            }
            let truth = random(), estimate = random()
            #expect(kept.add(estimate: estimate, truth: truth) == summed.add(estimate: estimate, truth: truth))
        }
        kept.add(estimate: Quaternion(w: .nan, x: 0, y: 0, z: 0), truth: Quaternion(w: 1, x: 0, y: 0, z: 0))
        summed.add(estimate: Quaternion(w: .nan, x: 0, y: 0, z: 0), truth: Quaternion(w: 1, x: 0, y: 0, z: 0))
        #expect(summed.count == 5000 && kept.count == 5000)
        #expect(summed.result(alignHeading: false) == kept.result(alignHeading: false))
        // Without the errors there is nothing to align: the result says it is not aligned.
        let asked = summed.result(alignHeading: true)
        #expect(!asked.headingAligned && asked == kept.result(alignHeading: false))
        #expect(kept.result(alignHeading: true).headingAligned)
    }

    @Test func headingAlignmentMinimisesRMSEAcrossTheWrap() {
        // Heading errors of 170° and −170° (wrapped): the best constant is 180°, giving 10° RMSE.
        var acc = OrientationErrorAccumulator()
        acc.add(estimate: Quaternion(axis: SIMD3(0, 0, 1), angle: 170 * Self.degree), truth: .identity)
        acc.add(estimate: Quaternion(axis: SIMD3(0, 0, 1), angle: -170 * Self.degree), truth: .identity)
        let r = acc.result(alignHeading: true)
        #expect(abs(r.heading - 10) < 1e-6)
    }
}
