import Poise
import Testing

@Suite struct FlickStickTests {
    static func stick(degrees: Double, deflection: Double = 1) -> SIMD2<Double> {
        let a = degrees * Units.radiansPerDegree
        return SIMD2(deflection * Double.sin(a), deflection * Double.cos(a))
    }

    /// A flick turns the camera to the stick's angle within the flick time (and not before its
    /// end), eased out: more than half of the turn in the first half of the time.
    @Test(arguments: [90.0, -135.0, 179.0, 30.0])
    func flickReachesTheStickAngleWithinTheFlickTime(angle: Double) throws {
        var flick = try FlickStick()
        let dt = 1.0 / 120
        var total = 0.0, frames = 0, halfway = 0.0
        while frames * 12 < 12 {  // first frame
            total += flick.update(stick: Self.stick(degrees: angle), dt: dt); frames += 1
        }
        while Double(frames) * dt < 0.1 - 1e-9 {
            if Double(frames) * dt <= 0.05 + 1e-9 { halfway = total }
            total += flick.update(stick: Self.stick(degrees: angle), dt: dt); frames += 1
        }
        #expect(abs(total - angle) < 1e-9, "after \(frames) frames: \(total)")
        #expect(abs(halfway) > 0.5 * abs(angle))
        #expect(!flick.isFlicking)
        // Holding the stick still turns nothing more.
        #expect(flick.update(stick: Self.stick(degrees: angle), dt: dt) == 0)
    }

    /// After the flick, rotating the stick turns the camera by the rotation (fast rotations
    /// unsmoothed), across the ±180° seam; releasing stops it.
    @Test func rotationTurnsTheCamera() throws {
        var settings = FlickStickSettings(); settings.flickTime = 0
        var flick = try FlickStick(settings: settings)
        let dt = 1.0 / 60
        #expect(flick.update(stick: Self.stick(degrees: 170), dt: dt) == 170)
        var total = 0.0
        for k in 1...20 { total += flick.update(stick: Self.stick(degrees: 170 + 15 * Double(k)), dt: dt) }  // 900 °/s
        #expect(abs(total - 300) < 1e-9)
        #expect(flick.update(stick: Self.stick(degrees: 10, deflection: 0.5), dt: dt) == 0)
        #expect(!flick.isActive)
        // Slow rotation (60 °/s, below the threshold) is smoothed: it lags, then catches up.
        _ = flick.update(stick: Self.stick(degrees: 0), dt: dt)
        var slow = 0.0
        for k in 1...6 { slow += flick.update(stick: Self.stick(degrees: Double(k)), dt: dt) }
        #expect(slow > 0 && slow < 6)
        for _ in 0..<60 { slow += flick.update(stick: Self.stick(degrees: 6), dt: dt) }
        #expect(abs(slow - 6) < 1e-3)
        // Released mid-rotation: the smoothed share still drains to the full rotation.
        var partial = 0.0
        for k in 1...6 { partial += flick.update(stick: Self.stick(degrees: 6 + Double(k)), dt: dt) }
        for _ in 0..<60 { partial += flick.update(stick: .zero, dt: dt) }
        #expect(abs(partial - 6) < 1e-3)
    }

    @Test func deadZoneAndBadInput() throws {
        var flick = try FlickStick()
        #expect(flick.update(stick: SIMD2(0.5, 0.5), dt: 0.01) == 0)   // 0.71 < 0.9: no flick
        #expect(flick.update(stick: SIMD2(.nan, 1), dt: 0.01) == 0)
        #expect(flick.update(stick: SIMD2(0, 1), dt: .infinity) == 0)
        #expect(!flick.isActive)
        var bad = FlickStickSettings(); bad.releaseThreshold = 0.95
        #expect(throws: OrientationSettingsError.self) { _ = try FlickStick(settings: bad) }
    }
}
