import Testing
import Poise

@Suite struct RestDetectorTests {
    /// Still 0–3 s, turning 3–5 s, still 5–5.8 s (too short), shaking 5.8–6 s, still 6–9 s; 100 Hz.
    static let samples: [MotionSample] = {
        var g = SplitMix(seed: 3)
        return (0..<900).map { n in
            let t = Double(n) / 100
            var sample = MotionSample(time: t, acceleration: SIMD3(0, 0, 1), rotationRate: .zero)
            sample.acceleration += SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * 0.003
            sample.rotationRate += SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * 0.003
            if t >= 3 && t < 5 { sample.rotationRate.z = 1; sample.acceleration.x = 0.1 * Double.sin(10 * t) }
            if t >= 5.8 && t < 6 { sample.acceleration.z += 0.5 * Double.sin(60 * t) }
            return sample
        }
    }()

    @Test func findsTheStillStretchesAndDropsShortOnes() {
        let segments = RestDetector().stillSegments(in: Self.samples)
        #expect(segments.count == 2)
        #expect(segments.first?.lowerBound == 0)
        // The accelerometer window (±0.25 s) sees the turn coming.
        #expect((270...300).contains(segments.first?.upperBound ?? 0))
        #expect((600...630).contains(segments.last?.lowerBound ?? 0))
        #expect(segments.last?.upperBound == 900)
    }

    @Test func gyroscopeAloneSeesRotationButNotShaking() {
        var detector = RestDetector()
        detector.useAccelerometer = false
        let segments = detector.stillSegments(in: Self.samples)
        #expect(segments == [0..<300, 500..<900])
    }

    @Test func accelerometerAloneSeesShaking() {
        var detector = RestDetector()
        detector.useGyroscope = false
        let segments = detector.stillSegments(in: Self.samples)
        #expect(segments.allSatisfy { !$0.contains(590) })
    }

    @Test(.enabled(if: TestData.xioPresent, "../shared/data/xio/sensor_data.csv is absent"))
    func theXioExampleStartsWithTwelveStillSeconds() throws {
        let samples = try TestData.xioSamples()
        let segments = RestDetector().stillSegments(in: samples)
        let first = try #require(segments.first)
        #expect(samples[first.lowerBound].time < 0.5)
        #expect((11.5...13.5).contains(samples[first.upperBound - 1].time))
    }
}
