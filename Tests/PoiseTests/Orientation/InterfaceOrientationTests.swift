import Testing
@testable import Poise

/// Android's `SensorManager.remapCoordinateSystem` ported line by line from AOSP (its bit
/// encoding: AXIS_X = 1, AXIS_Y = 2, AXIS_Z = 3, AXIS_MINUS_* = 0x80 | axis), as the
/// independent reference for Poise's version. `inR`/`outR` are row-major 3×3.
func androidRemapCoordinateSystem(_ inR: [Double], _ X: Int, _ Y: Int) -> [Double]? {
    if (X & 0x7C) != 0 || (Y & 0x7C) != 0 { return nil }
    if (X & 0x3) == 0 || (Y & 0x3) == 0 { return nil }
    if (X & 0x3) == (Y & 0x3) { return nil }
    var Z = X ^ Y
    let x = (X & 0x3) - 1, y = (Y & 0x3) - 1, z = (Z & 0x3) - 1
    let axisY = (z + 1) % 3, axisZ = (z + 2) % 3
    if ((x ^ axisY) | (y ^ axisZ)) != 0 { Z ^= 0x80 }
    let sx = X >= 0x80, sy = Y >= 0x80, sz = Z >= 0x80
    var outR = [Double](repeating: 0, count: 9)
    for j in 0..<3 {
        let offset = j * 3
        for i in 0..<3 {
            if x == i { outR[offset + i] = sx ? -inR[offset + 0] : inR[offset + 0] }
            if y == i { outR[offset + i] = sy ? -inR[offset + 1] : inR[offset + 1] }
            if z == i { outR[offset + i] = sz ? -inR[offset + 2] : inR[offset + 2] }
        }
    }
    return outR
}

func androidAxisCode(_ a: SignedAxis) -> Int { (a.index + 1) | (a.isNegative ? 0x80 : 0) }

func rowMajor(_ m: RotationMatrix<Double>) -> [Double] {
    [m.rows.0.x, m.rows.0.y, m.rows.0.z, m.rows.1.x, m.rows.1.y, m.rows.1.z, m.rows.2.x, m.rows.2.y, m.rows.2.z]
}

@Suite struct InterfaceOrientationTests {
    @Test func screenUpIsWorldUpWhenTheDeviceIsHeldInTheMatchingOrientation() {
        for o in InterfaceOrientation.allCases {
            // Specific force reads +1 g along the device axis pointing up.
            let up = o.deviceOrientation.upAxis!.unitVector(Double.self)
            let screen = o.alignment.apply(up)
            #expect(screen == SIMD3(0, 1, 0), "\(o): gravity on screen \(screen)")
            #expect(o.alignment.isProper)
            #expect(o.deviceOrientation.interfaceOrientation == o)
        }
    }

    @Test func homeButtonSideMatchesUIKitDocumentation() {
        // The home button is at the device's −Y edge. UIInterfaceOrientation.landscapeLeft: "home
        // button on the left"; landscapeRight: on the right; portraitUpsideDown: at the top.
        let home = SIMD3<Double>(0, -1, 0)
        #expect(InterfaceOrientation.landscapeLeft.alignment.apply(home) == SIMD3(-1, 0, 0))
        #expect(InterfaceOrientation.landscapeRight.alignment.apply(home) == SIMD3(1, 0, 0))
        #expect(InterfaceOrientation.portraitUpsideDown.alignment.apply(home) == SIMD3(0, 1, 0))
        #expect(InterfaceOrientation.portrait.alignment.apply(home) == SIMD3(0, -1, 0))
        // UIKit naming: interface landscapeLeft is device landscapeRight.
        #expect(InterfaceOrientation.landscapeLeft.deviceOrientation == .landscapeRight)
        #expect(InterfaceOrientation.landscapeLeft.alignment.description == "+Y-X+Z")
    }

    @Test func everyOrientationRoundTripsAllQuantities() {
        let q = Quaternion<Double>(axis: SIMD3(0.2, -1, 0.7), angle: 1.3)
        let sample = MotionSample(time: 1.5, acceleration: SIMD3(0.1, 0.2, 0.97), rotationRate: SIMD3(-0.4, 0.05, 1.2),
                                  magneticField: SIMD3(20, -5, -40), truth: q, movement: true)
        for o in InterfaceOrientation.allCases {
            let remap = FrameRemap<Double>(orientation: o)
            let back = remap.inverse.sample(remap.sample(sample))
            #expect(maxAbs(back.acceleration - sample.acceleration) < 1e-15)
            #expect(maxAbs(back.rotationRate - sample.rotationRate) < 1e-15)
            #expect(maxAbs(back.magneticField! - sample.magneticField!) < 1e-14)
            #expect(maxAbs((back.truth!.canonical.components - q.canonical.components)[SIMD3(0, 1, 2)]) < 1e-15)
            #expect(back.time == sample.time && back.movement == true)
        }
    }

    @Test func remapCoordinateSystemMatchesAndroidForAllAxisPairs() {
        let q = Quaternion<Double>(axis: SIMD3(0.4, 0.9, -0.3), angle: 2.2)
        let r = q.rotationMatrix
        var checked = 0
        for x in SignedAxis.allCases {
            for y in SignedAxis.allCases {
                let android = androidRemapCoordinateSystem(rowMajor(r), androidAxisCode(x), androidAxisCode(y))
                let poise = remapCoordinateSystem(r, x: x, y: y)
                #expect((android == nil) == (poise == nil))
                guard let android, let poise else { continue }
                let ours = rowMajor(poise)
                for k in 0..<9 { #expect(ours[k] == android[k], "\(x) \(y) element \(k)") }
                #expect(abs(orientationDeterminant(poise) - 1) < 1e-12)
                checked += 1
            }
        }
        #expect(checked == 24)
    }

    @Test func androidDisplayRotationsEqualInterfaceOrientationRemaps() {
        let q = Quaternion<Double>(axis: SIMD3(-0.5, 0.1, 0.8), angle: 0.9)
        let cases: [(SignedAxis, SignedAxis, InterfaceOrientation)] = [
            (.plusX, .plusY, .portrait),                // ROTATION_0
            (.plusY, .minusX, .landscapeRight),         // ROTATION_90
            (.minusX, .minusY, .portraitUpsideDown),    // ROTATION_180
            (.minusY, .plusX, .landscapeLeft),          // ROTATION_270
        ]
        for (x, y, o) in cases {
            let android = androidRemapCoordinateSystem(rowMajor(q.rotationMatrix), androidAxisCode(x), androidAxisCode(y))!
            let poise = rowMajor(FrameRemap<Double>(orientation: o).attitude(q).rotationMatrix)
            for k in 0..<9 { #expect(abs(poise[k] - android[k]) < 1e-15, "\(o) element \(k)") }
        }
    }
}
