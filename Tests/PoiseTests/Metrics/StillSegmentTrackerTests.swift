import Testing
import Poise

@Suite struct StillSegmentTrackerTests {
    /// Quiet and busy stretches at an irregular ~100 Hz with repeated timestamps and one 2 s gap.
    static func recording(seed: UInt64, count: Int) -> [MotionSample] {
        var g = SplitMix(seed: seed)
        var t = 0.0
        var busyUntil = -1.0
        var samples: [MotionSample] = []
        for n in 0..<count {
            let u = g.uniform()
            t += u < 0.03 ? 0 : (n == count / 2 ? 2 : 0.008 + 0.004 * g.uniform())
            if g.uniform() < 0.004 { busyUntil = t + 0.2 + 2 * g.uniform() }
            let noise = t < busyUntil ? 0.05 : 0.002 + 0.006 * g.uniform()
            var sample = MotionSample(time: t, acceleration: SIMD3(0, 0, 1), rotationRate: .zero)
            sample.acceleration += SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * noise
            sample.rotationRate += SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * (t < busyUntil ? 0.1 : 0.01)
            samples.append(sample)
        }
        return samples
    }

    /// The definition in `RestDetector`'s documentation, computed window by window from scratch.
    static func reference(_ detector: RestDetector, _ samples: [MotionSample]) -> [Range<Int>] {
        var floor = Double.infinity  // smallest window noise level so far, g
        let quiet: [Bool] = samples.indices.map { i in
            let s = samples[i]
            var low = i, high = i + 1  // times are non-decreasing: the window is a contiguous run
            while low > 0 && s.time - samples[low - 1].time <= detector.window / 2 { low -= 1 }
            while high < samples.count && samples[high].time - s.time <= detector.window / 2 { high += 1 }
            let window = samples[low..<high].map(\.acceleration)
            if window.count >= 2 {
                let pairs = zip(window.dropFirst(), window).map { (($0 - $1) * ($0 - $1)).sum() }
                floor = min(floor, (pairs.reduce(0, +) / Double(2 * pairs.count)).squareRoot())
            }
            if detector.useGyroscope && (s.rotationRate * s.rotationRate).sum().squareRoot() >= detector.gyroscopeThreshold { return false }
            guard detector.useAccelerometer else { return true }
            let mean = window.reduce(SIMD3<Double>.zero, +) / Double(window.count)
            let rms = (window.map { ($0 - mean) * ($0 - mean) }.map { $0.sum() }.reduce(0, +) / Double(window.count)).squareRoot()
            let adaptive = floor <= detector.maximumNoiseFloor ? detector.noiseFloorMultiple * floor : 0
            return rms < max(detector.accelerationThreshold, adaptive)
        }
        var segments: [Range<Int>] = []
        var start: Int? = nil
        for i in 0...samples.count {
            let afterGap = i > 0 && i < samples.count && samples[i].time - samples[i - 1].time > detector.window
            if i < samples.count && quiet[i] && !(afterGap && start != nil) { if start == nil { start = i }; continue }
            if let s = start, samples[i - 1].time - samples[s].time >= detector.minimumDuration { segments.append(s..<i) }
            start = i < samples.count && quiet[i] ? i : nil   // a quiet sample after a gap starts a new run
        }
        return segments
    }

    static let detectors: [RestDetector] = {
        var gyroscopeOnly = RestDetector(); gyroscopeOnly.useAccelerometer = false
        var accelerometerOnly = RestDetector(); accelerometerOnly.useGyroscope = false
        var neither = RestDetector(); neither.useGyroscope = false; neither.useAccelerometer = false
        var wide = RestDetector(); wide.window = 1.3; wide.minimumDuration = 0.4
        return [RestDetector(), gyroscopeOnly, accelerometerOnly, neither, wide]
    }()

    @Test(arguments: 0..<5) func matchesTheDefinitionComputedWindowByWindow(detectorIndex: Int) {
        let detector = Self.detectors[detectorIndex]
        let samples = Self.recording(seed: UInt64(10 + detectorIndex), count: 3000)
        let expected = Self.reference(detector, samples)
        #expect(expected.count >= 1)
        #expect(detector.stillSegments(in: samples) == expected)
    }

    @Test func streamsSegmentsWithTimesAndVerdictsInBoundedMemory() {
        let detector = RestDetector()
        let samples = Self.recording(seed: 4, count: 20_000)
        var tracker = StillSegmentTracker(detector: detector)
        var segments: [StillSegment] = []
        var verdicts: [Bool] = []
        var largestBuffer = 0
        for s in samples {
            segments += tracker.add(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, verdicts: &verdicts)
            largestBuffer = max(largestBuffer, tracker.bufferedCount)
            #expect(verdicts.count == tracker.decided)
        }
        segments += tracker.finish(verdicts: &verdicts)
        #expect(verdicts.count == samples.count)
        #expect(tracker.bufferedCount == 0)
        // One window (0.5 s) at up to ~125 Hz plus repeated timestamps, not the whole recording.
        #expect(largestBuffer < 120)
        let expected = Self.reference(detector, samples)
        #expect(segments.map(\.indices) == expected)
        for segment in segments {
            #expect(segment.startTime == samples[segment.indices.lowerBound].time)
            #expect(segment.endTime == samples[segment.indices.upperBound - 1].time)
            #expect(segment.duration >= detector.minimumDuration)
            #expect(segment.indices.allSatisfy { verdicts[$0] })
        }
    }

    /// A noisy accelerometer (white noise of 0.012 g RMS, above the fixed 0.01 g threshold) at 200 Hz:
    /// 10 s at rest, 10 s of slow translation (0.04 g at 0.5 Hz, gyroscope quiet), 10 s at rest.
    @Test func aNoisyAccelerometerAtRestIsStillAndSlowTranslationIsNot() {
        var g = SplitMix(seed: 77)
        let sigma = 0.012 / 3.0.squareRoot()
        let samples: [MotionSample] = (0..<6000).map { n in
            let t = Double(n) / 200
            let moving = t >= 10 && t < 20
            var a = SIMD3<Double>(0, 0, 1) + SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * sigma
            if moving { a.x += 0.04 * Double.sin(2 * Double.pi * 0.5 * (t - 10)) }
            return MotionSample(time: t, acceleration: a, rotationRate: SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * 0.005)
        }
        let segments = RestDetector().stillSegments(in: samples)
        let stillTime = segments.reduce(0.0) { $0 + samples[$1.upperBound - 1].time - samples[$1.lowerBound].time }
        #expect(stillTime > 18, "\(segments)")
        #expect(segments.allSatisfy { samples[$0.lowerBound].time >= 19.5 || samples[$0.upperBound - 1].time <= 10.5 }, "\(segments)")
        #expect(segments == Self.reference(RestDetector(), samples))
        var fixed = RestDetector()
        fixed.noiseFloorMultiple = 0
        #expect(fixed.stillSegments(in: samples).isEmpty)
    }

    /// A long gap inside a quiet stretch splits it: no still segment spans time without samples.
    @Test func aGapEndsAStillSegment() {
        let samples: [MotionSample] = (0..<600).map { n in
            let t = Double(n) / 100 + (n >= 300 ? 7200 : 0)   // two hours missing after 3 s
            return MotionSample(time: t, acceleration: SIMD3(0, 0, 1), rotationRate: .zero)
        }
        let segments = RestDetector().stillSegments(in: samples)
        #expect(segments == [0..<300, 300..<600])
        #expect(segments == Self.reference(RestDetector(), samples))
    }

    @Test func aNegativeWindowStillJudgesEverySampleWithoutCrashing() {
        var detector = RestDetector()
        detector.window = -1
        let samples = Self.recording(seed: 5, count: 500)
        var tracker = StillSegmentTracker(detector: detector)
        var verdicts: [Bool] = []
        for s in samples { _ = tracker.add(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, verdicts: &verdicts) }
        _ = tracker.finish(verdicts: &verdicts)
        #expect(verdicts.count == samples.count)
    }
}
