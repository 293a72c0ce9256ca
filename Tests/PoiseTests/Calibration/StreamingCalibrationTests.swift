import Foundation
import Testing
@testable import Poise

/// The calibrations' streaming parts (`StillSegmentCollector`, `GyroscopeBiasAccumulator`,
/// `AccelerometerStillMeans`, `MagneticFieldCollector`) against the whole-recording computation
/// they replace: the still segments of `RestDetector.stillSegments(in:)` over the array, each
/// segment's mean and spread summed over its samples in order. The results must be bit-identical,
/// so a calibration file does not change with how the recording was read.
@Suite struct StreamingCalibrationTests {
    /// A small linear congruential generator, so the recording is the same on every run.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        mutating func vector(_ scale: Double) -> SIMD3<Double> { SIMD3(next(), next(), next()) * scale }
    }

    /// 100 Hz: eight orientations held still (one for 20 s, one split by a 2-s gap, the last with a
    /// non-finite acceleration), turned between.
    static func recording() -> [MotionSample] {
        var noise = Noise(state: 7)
        let bias = SIMD3(0.01, -0.02, 0.005)
        let faces: [SIMD3<Double>] = [[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0],
                                      [0.6, 0.8, 0], [0, 0.6, 0.8]]
        var samples: [MotionSample] = []
        var t = 0.0
        for (k, face) in faces.enumerated() {
            let still = k == 0 ? 2000 : 300
            for i in 0..<still {
                if k == 3 && i == 150 { t += 2 }   // a gap: the run ends there
                var a = face * 1.01 + SIMD3(0.003, -0.002, 0.001) + noise.vector(0.004)
                let r = bias + noise.vector(0.01)
                if k == 7 && i == 100 { a.x = .nan }
                samples.append(MotionSample(time: t, acceleration: a, rotationRate: r, magneticField: SIMD3(face.x * 40 + 10, face.y * 40, face.z * 40 - 5)))
                t += 0.01
            }
            for i in 0..<100 {
                let s = Double(i) / 100
                samples.append(MotionSample(time: t, acceleration: face + noise.vector(0.8), rotationRate: SIMD3(2 * s, -1, 0.5),
                                            magneticField: SIMD3(s * 40, 0, 40 - s)))
                t += 0.01
            }
        }
        return samples
    }

    @Test func theCollectorKeepsEachSegmentsValuesAndOnlyThose() {
        let samples = Self.recording()
        let detector = GyroscopeBiasEstimator.calibrationDetector
        let expected = detector.stillSegments(in: samples)
        #expect(expected.count >= 8)
        var collector = StillSegmentCollector<Int>(detector: detector)
        var found: [Range<Int>] = []
        var mostHeld = 0
        func check(_ segments: [StillSegment]) {
            for segment in segments {
                found.append(segment.indices)
                #expect(Array(collector.values(of: segment)) == Array(segment.indices))
                #expect(segment.startTime == samples[segment.indices.lowerBound].time)
                #expect(segment.endTime == samples[segment.indices.upperBound - 1].time)
            }
        }
        for (i, sample) in samples.enumerated() {
            check(collector.add(sample, i))
            mostHeld = max(mostHeld, collector.values.count - collector.head)
        }
        check(collector.finish())
        #expect(found == expected)
        // The longest segment (20 s at 100 Hz) and about one window more; not the recording.
        let longest = expected.map(\.count).max() ?? 0
        #expect(mostHeld <= longest + Int(detector.window * 100) + 2, "held \(mostHeld) values, longest segment \(longest)")
        #expect(mostHeld < samples.count / 2)
    }

    @Test func theGyroscopeBiasIsTheWholeRecordingsToTheLastBit() throws {
        let samples = Self.recording()
        let detector = GyroscopeBiasEstimator.calibrationDetector
        // The estimate over the array: finite segments, sums in sample order.
        let all = detector.stillSegments(in: samples)
        let finite = all.filter { range in
            samples[range].allSatisfy { s in
                let r = s.rotationRate, a = s.acceleration
                return r.x.isFinite && r.y.isFinite && r.z.isFinite && a.x.isFinite && a.y.isFinite && a.z.isFinite
            }
        }
        #expect(all.count - finite.count == 1)
        var sum = SIMD3<Double>.zero, n = 0, deviations = SIMD3<Double>.zero
        var means: [SIMD3<Double>] = []
        for range in finite {
            var segmentSum = SIMD3<Double>.zero
            for s in samples[range] { segmentSum += s.rotationRate }
            let mean = segmentSum / Double(range.count)
            for s in samples[range] { let d = s.rotationRate - mean; deviations += d * d }
            means.append(mean)
            sum += segmentSum; n += range.count
        }
        let noise = (deviations / Double(n - finite.count)).squareRoot()

        var accumulator = GyroscopeBiasAccumulator(detector: detector)
        for sample in samples { accumulator.add(sample) }
        let estimate = try accumulator.finish()
        #expect(estimate.bias == sum / Double(n))
        #expect(estimate.noise == noise)
        #expect(estimate.drift == means[means.count - 1] - means[0])
        #expect(estimate.stillSamples == n)
        #expect(estimate.nonFiniteSegments == 1)
        #expect(estimate.segments.map(\.indices) == finite)
        #expect(abs(estimate.bias.y + 0.02) < 0.002)
        #expect(try GyroscopeBiasEstimator.estimate(samples) == estimate)
    }

    @Test func theGyroscopeBiasRefusesARecordingWithoutRest() {
        var accumulator = GyroscopeBiasAccumulator()
        for i in 0..<500 {
            let s = Double(i) / 100
            accumulator.add(MotionSample(time: s, acceleration: SIMD3(sin(7 * s), 0, 1), rotationRate: SIMD3(1, 0, 0)))
        }
        #expect(throws: CalibrationError.self) { try accumulator.finish() }
    }

    @Test func theAccelerometerMeansAreTheWholeRecordingsToTheLastBit() throws {
        let samples = Self.recording()
        let detector = GyroscopeBiasEstimator.calibrationDetector
        var means: [SIMD3<Double>] = []
        var nonFinite = 0
        for range in detector.stillSegments(in: samples) {
            var sum = SIMD3<Double>.zero
            var finite = true
            for s in samples[range] {
                let a = s.acceleration
                guard a.x.isFinite && a.y.isFinite && a.z.isFinite else { finite = false; break }
                sum += a
            }
            if finite { means.append(sum / Double(range.count)) } else { nonFinite += 1 }
        }
        var still = AccelerometerStillMeans(detector: detector)
        still.add(contentsOf: samples)
        still.finish()
        #expect(still.means == means)
        #expect(still.nonFiniteSegments == nonFinite && nonFinite == 1)
        let fromStill = try AccelerometerCalibrator.calibrate(still, model: .diagonal)
        let fromSamples = try AccelerometerCalibrator.calibrate(samples, model: .diagonal)
        #expect(fromStill == fromSamples)
        // Each face reads 1.01 g plus an offset of (3, −2, 1) mg.
        #expect(abs(fromStill.correction.offset.x - 0.003) < 0.002)
    }

    @Test func theFieldCollectorLeavesOutHeldReadings() {
        var collector = MagneticFieldCollector()
        let fields: [SIMD3<Double>?] = [[1, 2, 3], [1, 2, 3], [1, 2, 3], [2, 2, 3], nil, nil, [2, 2, 3]]
        for (i, field) in fields.enumerated() { collector.add(MotionSample(time: Double(i), magneticField: field)) }
        #expect(collector.held == 2)
        #expect(collector.fields.count == 5)
        #expect(collector.fields[0] == SIMD3(1, 2, 3) && collector.fields[1] == SIMD3(2, 2, 3))
        #expect(collector.fields[2].x.isNaN && collector.fields[3].x.isNaN)   // a missing field is never equal to the last
    }
}
