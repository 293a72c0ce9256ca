import Foundation
import Testing
@testable import Poise

/// The fast paths of the fusion update: the scalar kernels against the C library, and the
/// correction step at `correctionRate` against correcting on every sample (VQF's schedule,
/// itself checked against the `vqf` package in DeviceMotionPeerTests).
@Suite struct FusionCorrectionRateTests {
    @Test func kernelsMatchTheCLibrary() {
        var worstCosine = 0.0, worstSinc = 0.0
        for i in 0...20_000 {
            let x = 0.3 * Double(i) / 20_000   // covers both polynomials and the C-library range
            let (c, s) = fusionCosineAndSinc(squared: x * x)
            worstCosine = max(worstCosine, abs(c - cos(x)))
            worstSinc = max(worstSinc, abs(s - (x == 0 ? 1 : sin(x) / x)))
        }
        #expect(worstCosine < 4e-16 && worstSinc < 4e-16, "cos \(worstCosine), sinc \(worstSinc)")

        var worstArcsine = 0.0
        for i in -50_000...50_000 {
            let x = Double(i) / 50_000
            worstArcsine = max(worstArcsine, abs(fusionArcsine(x) - asin(x)))
        }
        #expect(worstArcsine < 1e-15, "asin \(worstArcsine)")

        var worstArctangent = 0.0
        for i in 0..<72_000 {
            let angle = Double(i) / 72_000 * 2 * .pi - .pi
            for radius in [1e-3, 1.0, 45.0] {
                let y = radius * sin(angle), x = radius * cos(angle)
                worstArctangent = max(worstArctangent, abs(fusionArctangent2(y: y, x: x) - atan2(y, x)))
            }
        }
        #expect(worstArctangent < 4e-16, "atan2 \(worstArctangent)")
        #expect(fusionArctangent2(y: 0, x: 0) == atan2(0.0, 0.0))

        // The heading's atan2: every quadrant and magnitude ratio, within 2 ulp of the result.
        var random = SplitMix(seed: 77)
        var worstUlps = 0.0
        for i in 0..<400_000 {
            let scale = [1e-300, 1e-8, 1.0, 3.0, 1e8, 1e300][i % 6]
            let y = random.uniform(-1, 1) * scale * (i % 7 == 0 ? 1e-12 : 1)
            let x = random.uniform(-1, 1) * (i % 11 == 0 ? 1e-12 : 1) * (i % 2 == 0 ? scale : 1)
            let expected = atan2(y, x)
            worstUlps = max(worstUlps, abs(fusionArctangent2Quadrant(y: y, x: x) - expected) / expected.ulp)
        }
        #expect(worstUlps <= 2, "atan2 \(worstUlps) ulp")
        let tiny = Double.leastNormalMagnitude / 4   // subnormal
        for (y, x) in [(0.0, 1.0), (-0.0, 1.0), (0.0, -1.0), (-0.0, -1.0), (1.0, 0.0), (-1.0, -0.0), (1.0, 1.0), (1.0, -1.0),
                       (-1.0, -1.0), (tiny, 1.0), (1.0, tiny), (.infinity, 1.0), (1.0, .infinity), (.nan, 1.0), (0.0, 0.0)] {
            let fast = fusionArctangent2Quadrant(y: y, x: x), exact = atan2(y, x)
            #expect(fast.bitPattern == exact.bitPattern || abs(fast - exact) <= exact.ulp, "atan2(\(y), \(x)): \(fast) vs \(exact)")
        }

        var worstHalfAngle = 0.0
        for i in 0...72_000 {
            let angle = (Double(i) / 72_000 * 2 - 1) * .pi   // −π … π
            let (c, s) = fusionHalfAngle(cosine: cos(angle), sine: sin(angle))
            worstHalfAngle = max(worstHalfAngle, abs(c - cos(angle / 2)), abs(s - sin(angle / 2)))
        }
        #expect(worstHalfAngle < 1e-15, "half angle \(worstHalfAngle)")
    }

    @Test func correctionIntervalFollowsTheRates() {
        func interval(_ sampleRate: Double, _ correctionRate: Double) -> Int {
            var c = DeviceMotionConfiguration(sampleRate: sampleRate)
            c.correctionRate = correctionRate
            return DeviceMotionEstimator(configuration: c).coefficients.correctionInterval
        }
        #expect(interval(100, 10) == 10)
        #expect(interval(285.714, 10) == 28)
        #expect(interval(100, 0) == 1 && interval(100, 100) == 1 && interval(100, 1e9) == 1 && interval(5, 10) == 1)
        #expect(interval(100, .nan) == 1 && interval(100, -3) == 1)
        #expect(DeviceMotionConfiguration.vqfDefaults(sampleRate: 100).correctionRate == 0)
    }

    @Test func correctingAtTheDefaultRateTracksTheTruthLikeCorrectingEverySample() {
        // 120 s at 100 Hz of a device turning with varying rates (up to ≈ 100 °/s), pausing
        // 5 s every 30 s, with a gyroscope bias, noise, linear acceleration and a consistent
        // magnetometer; both schedules are scored against the true attitude (BROAD metric).
        let samples = simulatedTurning(seed: 77)
        let degree = Double.pi / 180
        // The default (10 Hz) and the fast preset's 5 Hz: corrections land in steps of one
        // correction period, so the distance to the every-sample schedule grows with it
        // (measured: 0.26° at 10 Hz, 0.56° at 5 Hz; limits 0.35° and 0.65°).
        for (reference, rate) in [(AttitudeReference.magneticNorthZVertical, nil), (.arbitraryZVertical, nil),
                                  (.magneticNorthZVertical, 5.0), (.arbitraryZVertical, 5.0)] {
            var everySample = DeviceMotionConfiguration(sampleRate: 100, reference: reference)
            everySample.correctionRate = 0
            var perSample = DeviceMotionEstimator(configuration: everySample)
            var configuration = DeviceMotionConfiguration(sampleRate: 100, reference: reference)
            if let rate { configuration.correctionRate = rate }
            var decimated = DeviceMotionEstimator(configuration: configuration)
            #expect(decimated.coefficients.correctionInterval == (rate == nil ? 10 : 20))
            var worstApart = 0.0
            for (i, s) in samples.enumerated() {
                let a = perSample.process(s), b = decimated.process(s)
                if i >= 1000 { worstApart = max(worstApart, (a.attitude * b.attitude.conjugate).angle) }
            }
            perSample.reset(); decimated.reset()
            let errorEvery = perSample.evaluate(samples).total, errorDecimated = decimated.evaluate(samples).total
            let name = "\(reference), correctionRate \(configuration.correctionRate) Hz"
            #expect(errorDecimated <= errorEvery + 0.05, "\(name): \(errorDecimated)° vs \(errorEvery)° correcting every sample")
            #expect(errorDecimated < 1.5, "\(name): \(errorDecimated)°")
            // Both are ≈ 1° from the truth here (linear acceleration); they stay within that of each other.
            let limit = rate == nil ? 0.35 : 0.65
            #expect(worstApart < limit * degree, "\(name): \(worstApart / degree)° apart after the first 10 s")
        }
    }
}
