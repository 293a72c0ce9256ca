import Testing
@testable import Poise

/// Gravity (specific force, g) with the in-screen-plane up direction `degrees` from +Y toward
/// +X, the screen tilted `tilt` degrees from horizontal (90 = upright), face up.
func gravity(inPlane degrees: Double, tilt: Double = 90) -> SIMD3<Double> {
    let a = degrees * Units.radiansPerDegree, t = tilt * Units.radiansPerDegree
    return SIMD3(Double.sin(a) * Double.sin(t), Double.cos(a) * Double.sin(t), Double.cos(t))
}

@Suite struct OrientationDetectorTests {
    @Test func uprightOrientationsFollowUIDeviceOrientation() throws {
        for (angle, expected) in [(0.0, DeviceOrientation.portrait), (90, .landscapeLeft), (180, .portraitUpsideDown), (270, .landscapeRight)] {
            var d = try OrientationDetector()
            #expect(d.process(gravity: gravity(inPlane: angle)) == expected)
            #expect(expected.upAxis!.unitVector(Double.self) == SIMD3(gravity(inPlane: angle).x.rounded(), gravity(inPlane: angle).y.rounded(), 0))
        }
    }

    @Test func hysteresisSwitchesOnlyFifteenDegreesPastTheBoundary() throws {
        var d = try OrientationDetector()
        var switchUp: Double?, switchDown: Double?
        // Sweep 0.5° → 89.5° (portrait toward landscapeLeft) and back, 1° steps off the boundaries.
        for step in 0..<90 {
            let a = Double(step) + 0.5
            if d.process(gravity: gravity(inPlane: a)) == .landscapeLeft, switchUp == nil { switchUp = a }
        }
        for step in stride(from: 89, through: 0, by: -1) {
            let a = Double(step) + 0.5
            if d.process(gravity: gravity(inPlane: a)) == .portrait, switchDown == nil { switchDown = a }
        }
        #expect(switchUp == 60.5)  // first angle more than 45 + 15 from +Y
        #expect(switchDown == 29.5) // first angle more than 60 from +X
    }

    @Test func noFlickerWhenWobblingAcrossFortyFiveDegrees() throws {
        var d = try OrientationDetector()
        var seen: Set<DeviceOrientation> = []
        for k in 0..<200 { seen.insert(d.process(gravity: gravity(inPlane: k % 2 == 0 ? 40 : 50))) }
        #expect(seen == [.portrait])
        // Without hysteresis the same wobble flips every sample.
        var bare = try OrientationDetector(settings: OrientationDetectorSettings(hysteresis: 0))
        var flips = 0, last = DeviceOrientation.unknown
        for k in 0..<200 {
            let o = bare.process(gravity: gravity(inPlane: k % 2 == 0 ? 40 : 50))
            if o != last { flips += 1; last = o }
        }
        #expect(flips == 200)
    }

    @Test func faceUpAndFaceDownWithFlatHysteresisAndKeptInterface() throws {
        var d = try OrientationDetector()
        #expect(d.process(gravity: gravity(inPlane: 90, tilt: 80)) == .landscapeLeft)
        #expect(d.interfaceOrientation == .landscapeRight)
        #expect(d.process(gravity: gravity(inPlane: 90, tilt: 26)) == .landscapeLeft)
        #expect(d.process(gravity: gravity(inPlane: 90, tilt: 24)) == .faceUp)
        #expect(d.interfaceOrientation == .landscapeRight)          // kept while flat
        #expect(d.process(gravity: gravity(inPlane: 0, tilt: 34)) == .faceUp)
        #expect(d.process(gravity: gravity(inPlane: 0, tilt: 36)) == .portrait)
        #expect(d.interfaceOrientation == .portrait)
        #expect(d.process(gravity: -SIMD3(0, 0, 1)) == .faceDown)
        #expect(d.process(gravity: SIMD3(0, 0, 1)) == .faceUp)        // turned over while flat
    }

    @Test func weakOrInvalidGravityKeepsTheState() throws {
        var d = try OrientationDetector()
        #expect(d.process(gravity: SIMD3(0, 0.1, 0)) == .unknown)
        #expect(d.process(gravity: SIMD3(.nan, 1, 0)) == .unknown)
        #expect(d.process(gravity: SIMD3(0, -1, 0)) == .portraitUpsideDown)
        #expect(d.process(gravity: SIMD3(0.2, 0, 0)) == .portraitUpsideDown)
        d.reset()
        #expect(d.orientation == .unknown && d.interfaceOrientation == nil)
    }

    @Test func settingsOutOfRangeAreRejectedByName() {
        #expect(throws: OrientationSettingsError.self) { try OrientationDetector(settings: OrientationDetectorSettings(hysteresis: 45)) }
        let e = #expect(throws: OrientationSettingsError.self) {
            try OrientationDetector(settings: OrientationDetectorSettings(flatEnterAngle: 30, flatExitAngle: 20))
        }
        #expect(e?.message.contains("flatExitAngle") == true)
    }
}
