import Foundation
import Testing
import Poise

@Suite struct AdaptiveFilterTests {
    @Test(arguments: [50.0, 100.0, 285.7])
    func reachesNinetyPercentOfBothStepsInTwoSamples(rate: Double) throws {
        for step in StandardStep.allCases {
            var filter = try AdaptiveFilter<SIMD3<Double>>(sampleRate: rate)
            #expect(latency90(&filter, step: step, sampleRate: rate).samples == 2)
        }
    }

    @Test func ignoresASingleSpike() throws {
        var filter = try AdaptiveFilter<SIMD3<Double>>(sampleRate: 100)
        let rest = SIMD3<Double>(0, 0, 1)
        for _ in 0..<100 { _ = filter.process(rest) }
        let y = filter.process(SIMD3(0, 0, 3))    // one 2 g outlier
        #expect((y - rest).lengthSquared.squareRoot() < 0.05 * 2)
        // The cascade spreads the small disturbance over the next samples but never amplifies it.
        var worst = 0.0
        for _ in 0..<100 { worst = max(worst, (filter.process(rest) - rest).lengthSquared.squareRoot()) }
        #expect(worst < 0.03)
    }

    @Test func followsSlowMotionWithinAboutTwoThresholds() throws {
        var filter = try AdaptiveFilter<Double>(threshold: 0.03, sampleRate: 100)
        var worst = 0.0
        for n in 0..<500 {
            let x = 0.002 * Double(n)   // 0.2 g/s ramp
            worst = max(worst, abs(filter.process(x) - x))
        }
        #expect(worst < 2 * 0.03 + 0.002)
    }

    @Test(.enabled(if: TestData.xioPresent, "../shared/data/xio/sensor_data.csv is absent"))
    func isNoJitterierThanAccelerometerGraphAdaptiveOnTheXioStillSegments() throws {
        let samples = try TestData.xioSamples()
        var detector = RestDetector()
        detector.useGyroscope = true
        let segments = detector.stillSegments(in: samples)
        var apple = try AccelerometerGraphFilter<SIMD3<Double>>(kind: .lowPass, cutoffFrequency: 5, sampleRate: 100, adaptive: true)
        var poise = try AdaptiveFilter<SIMD3<Double>>(sampleRate: 100)
        let appleJitter = accelerationJitter(&apple, samples: samples, segments: segments)
        let poiseJitter = accelerationJitter(&poise, samples: samples, segments: segments)
        #expect(appleJitter.stillSeconds > 30)
        #expect(poiseJitter.jitter <= appleJitter.jitter, "Poise \(poiseJitter.jitter) g vs AccelerometerGraph \(appleJitter.jitter) g")
    }
}

/// Access to ../shared/data for tests (skipped, and reported so, when absent).
enum TestData {
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }

    static var xioURL: URL { packageRoot.appendingPathComponent("../shared/data/xio/sensor_data.csv").standardizedFileURL }

    /// Whether the x-io example is present (`.enabled(if:)` of the tests that read it).
    static var xioPresent: Bool { FileManager.default.fileExists(atPath: xioURL.path) }

    /// The x-io example's samples in core units, read here with a minimal parser (the core
    /// test target does not depend on PoiseRecording).
    static func xioSamples() throws -> [MotionSample] {
        let text = try String(contentsOf: xioURL, encoding: .utf8)
        var samples: [MotionSample] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { Double($0) }
            guard f.count >= 7 else { continue }
            let degrees = Double.pi / 180
            samples.append(MotionSample(time: f[0], acceleration: SIMD3(f[4], f[5], f[6]),
                                        rotationRate: SIMD3(f[1], f[2], f[3]) * degrees))
        }
        return samples
    }
}
