import Testing
@testable import Poise

/// A line-by-line transcription of AccelerometerFilter.m (AccelerometerGraph 2.5) in Double,
/// written independently of the library type, as the reference.
struct AppleAccelerometerFilter {
    var x = 0.0, y = 0.0, z = 0.0
    var lastX = 0.0, lastY = 0.0, lastZ = 0.0
    var filterConstant: Double
    var adaptive: Bool
    var highPass: Bool

    init(rate: Double, cutoffFrequency freq: Double, adaptive: Bool, highPass: Bool) {
        let dt = 1.0 / rate
        let RC = 1.0 / freq
        filterConstant = highPass ? RC / (dt + RC) : dt / (dt + RC)
        self.adaptive = adaptive
        self.highPass = highPass
    }

    static func norm(_ x: Double, _ y: Double, _ z: Double) -> Double { (x * x + y * y + z * z).squareRoot() }
    static func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { v > hi ? hi : (v < lo ? lo : v) }

    mutating func add(_ ax: Double, _ ay: Double, _ az: Double) {
        var alpha = filterConstant
        if adaptive {
            let d = Self.clamp(abs(Self.norm(x, y, z) - Self.norm(ax, ay, az)) / 0.02 - 1.0, 0.0, 1.0)
            alpha = highPass
                ? d * filterConstant / 3.0 + (1.0 - d) * filterConstant
                : (1.0 - d) * filterConstant / 3.0 + d * filterConstant
        }
        if highPass {
            x = alpha * (x + ax - lastX)
            y = alpha * (y + ay - lastY)
            z = alpha * (z + az - lastZ)
            lastX = ax; lastY = ay; lastZ = az
        } else {
            x = ax * alpha + x * (1.0 - alpha)
            y = ay * alpha + y * (1.0 - alpha)
            z = az * alpha + z * (1.0 - alpha)
        }
    }
}

@Suite struct AccelerometerGraphFilterTests {
    /// A 3-axis input with rests, a tilt, a shake and noise.
    static let input: [SIMD3<Double>] = {
        var generator = SplitMix(seed: 7)
        return (0..<600).map { n in
            let t = Double(n) / 60
            var a = t < 3 ? SIMD3<Double>(0, 0, 1) : SIMD3<Double>(0, Double.sin(t - 3), Double.cos(t - 3))
            if n > 400 && n < 450 { a.z += 0.6 * Double.sin(Double(n)) }
            return a + SIMD3(generator.gaussian(), generator.gaussian(), generator.gaussian()) * 0.01
        }
    }()

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func reproducesTheSampleExactly(adaptive: Bool, highPass: Bool) throws {
        var reference = AppleAccelerometerFilter(rate: 60, cutoffFrequency: 5, adaptive: adaptive, highPass: highPass)
        var filter = try AccelerometerGraphFilter<SIMD3<Double>>(kind: highPass ? .highPass : .lowPass, cutoffFrequency: 5,
                                                                 sampleRate: 60, adaptive: adaptive, start: .zero)
        for a in Self.input {
            reference.add(a.x, a.y, a.z)
            let y = filter.process(a)
            #expect(y == SIMD3(reference.x, reference.y, reference.z))
        }
    }

    @Test func adaptiveModeSmoothsMoreAtRest() throws {
        var plain = try AccelerometerGraphFilter<SIMD3<Double>>(kind: .lowPass, cutoffFrequency: 5, sampleRate: 100, adaptive: false)
        var adaptive = try AccelerometerGraphFilter<SIMD3<Double>>(kind: .lowPass, cutoffFrequency: 5, sampleRate: 100, adaptive: true)
        _ = plain.process(SIMD3(0, 0, 1)); _ = adaptive.process(SIMD3(0, 0, 1))
        // A small sideways wobble keeps the norm: the adaptive filter moves a third as far.
        let p = plain.process(SIMD3(0.005, 0, 1)), q = adaptive.process(SIMD3(0.005, 0, 1))
        #expect(abs(q.x * 3 - p.x) < 1e-15)
    }
}
