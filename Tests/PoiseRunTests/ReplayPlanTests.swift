import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

@Suite struct ReplayPlanTests {
    let broadLike = regularSamples(600, rate: 2000.0 / 7, start: 0)   // 285.714 Hz

    @Test func nativeRateAbove100HzInRealTimeIsAnErrorThatSaysWhatToDo() {
        do {
            _ = try ReplayPlan(samples: broadLike, hasTimestamps: true, rate: .native, speed: .realTime(1))
            Issue.record("expected an error")
        } catch let error as ReplayError {
            #expect(error.message.contains("285.7 Hz"))
            #expect(error.message.contains("--rate 100"))
            #expect(error.message.contains("--speed max"))
        } catch { Issue.record("wrong error \(error)") }
    }

    @Test func maximumSpeedReplaysAnyRateAsRecorded() throws {
        let plan = try ReplayPlan(samples: broadLike, hasTimestamps: true, rate: .native, speed: .maximum)
        #expect(abs(plan.sampleRate - 2000.0 / 7) < 1e-6)
        #expect(!plan.resampled)
        #expect(Array(plan.deliveredSamples(broadLike)) == broadLike)
    }

    @Test func fixedRateResamplesWithAntiAliasWhenDecimating() throws {
        let plan = try ReplayPlan(samples: broadLike, hasTimestamps: true, rate: .fixed(100), speed: .realTime(1))
        #expect(plan.resampled && plan.sampleRate == 100)
        #expect(plan.antiAliasCutoff == 30)
        let delivered = Array(plan.deliveredSamples(broadLike))
        #expect(delivered.count == plan.deliveredCount(broadLike))
        // 600 samples at 285.714 Hz span 2.0965 s: outputs at 0, 0.01 … 2.09 s.
        #expect(delivered.count == 210)
    }

    @Test func realTimeRateLimitCountsTheSpeed() {
        let samples = regularSamples(100, rate: 100)
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: samples, hasTimestamps: true, rate: .native, speed: .realTime(2)) }
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: samples, hasTimestamps: true, rate: .fixed(200), speed: .realTime(1)) }
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: samples, hasTimestamps: true, rate: .fixed(60), speed: .realTime(2)) }
        #expect(throws: Never.self) { try ReplayPlan(samples: samples, hasTimestamps: true, rate: .fixed(200), speed: .maximum) }
        #expect(throws: Never.self) { try ReplayPlan(samples: samples, hasTimestamps: true, rate: .native, speed: .realTime(0.5)) }
    }

    @Test func irregularHundredHertzRecordingsAreAccepted() throws {
        // x-io style: mostly 10.08 ms, some 7.56 ms, a 30.24 ms gap: median rate 99.2 Hz.
        var time = 0.0
        var samples: [MotionSample] = []
        for i in 0 ..< 200 {
            samples.append(MotionSample(time: time))
            time += i % 10 == 3 ? 0.00756 : (i == 100 ? 0.03024 : 0.01008)
        }
        let plan = try ReplayPlan(samples: samples, hasTimestamps: true, rate: .native, speed: .realTime(1))
        #expect(abs(plan.sampleRate - 1 / 0.01008) < 1e-9)
    }

    @Test func noTimestampsNeedsARateAndThenUsesIt() throws {
        let samples = (0 ..< 10).map { MotionSample(time: Double($0)) }   // the reader numbers rows
        do {
            _ = try ReplayPlan(samples: samples, hasTimestamps: false, rate: .native, speed: .realTime(1))
            Issue.record("expected an error")
        } catch let error as ReplayError {
            #expect(error.message.contains("no time column"))
            #expect(error.message.contains("--rate"))
        }
        let plan = try ReplayPlan(samples: samples, hasTimestamps: false, rate: .fixed(50), speed: .realTime(1))
        #expect(!plan.resampled && plan.timestampsAssigned)
        #expect(Array(plan.deliveredSamples(samples)).map(\.time) == (0 ..< 10).map { Double($0) / 50 })
    }

    @Test func emptyRecordingsAndBadNumbersAreErrors() {
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: [], hasTimestamps: true, rate: .native, speed: .maximum) }
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: regularSamples(5), hasTimestamps: true, rate: .fixed(-1), speed: .maximum) }
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: regularSamples(5), hasTimestamps: true, rate: .native, speed: .realTime(0)) }
        let stuck = [MotionSample(time: 1), MotionSample(time: 1)]
        #expect(throws: ReplayError.self) { try ReplayPlan(samples: stuck, hasTimestamps: true, rate: .native, speed: .realTime(1)) }
    }
}

@Suite struct ResamplingTests {
    /// Amplitude of the `frequency` component of `values` sampled at `rate` (least squares on sin/cos).
    func amplitude(_ values: [Double], rate: Double, frequency: Double) -> Double {
        var c = 0.0, s = 0.0
        for (i, v) in values.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(i) / rate
            c += v * Double.cos(phase); s += v * Double.sin(phase)
        }
        return 2 * (c * c + s * s).squareRoot() / Double(values.count)
    }

    @Test func constantInputStaysExactlyConstant() {
        let rate = 2000.0 / 7
        let input = (0 ..< 1000).map { MotionSample(time: 0.25 + Double($0) / rate, acceleration: SIMD3(0.1, -0.2, 0.98), rotationRate: SIMD3(0.01, 0.02, -0.03)) }
        let output = Array(ResampledSamples(input, rate: 100, inputRate: rate))
        #expect(output.count == Int((Double(999) / rate * 100).rounded(.down)) + 1)
        for (k, sample) in output.enumerated() {
            #expect(sample.time == 0.25 + Double(k) / 100)
            #expect(max((sample.acceleration - SIMD3(0.1, -0.2, 0.98)).maxMagnitude, (sample.rotationRate - SIMD3(0.01, 0.02, -0.03)).maxMagnitude) < 1e-12)
        }
    }

    @Test func decimationRemovesWhatWouldAliasAndKeepsMotion() {
        // 5 Hz motion plus a 120 Hz vibration at 285.714 Hz; at 100 Hz the vibration would fold
        // to 20 Hz. Without the anti-alias filter, linear interpolation alone leaves about half of it.
        let rate = 2000.0 / 7
        let input = (0 ..< 2858).map { i -> MotionSample in
            let t = Double(i) / rate
            let x = 0.5 * Double.sin(2 * .pi * 5 * t) + 0.5 * Double.sin(2 * .pi * 120 * t)
            return MotionSample(time: t, acceleration: SIMD3(x, 0, 1))
        }
        let output = Array(ResampledSamples(input, rate: 100, inputRate: rate)).dropFirst(100).map(\.acceleration.x)
        #expect(abs(amplitude(output, rate: 100, frequency: 5) - 0.5) < 0.01)
        #expect(amplitude(output, rate: 100, frequency: 20) < 1e-3)
    }

    @Test func regularisingWithoutDecimationInterpolatesLinearly() {
        // Irregular ~99 Hz input resampled to 100 Hz: no anti-alias filter, a ramp stays exact.
        var time = 0.0
        var input: [MotionSample] = []
        for i in 0 ..< 300 {
            input.append(MotionSample(time: time, acceleration: SIMD3(2 * time, -time, 1), rotationRate: SIMD3(time, 0, 0)))
            time += i % 7 == 0 ? 0.00756 : 0.01008
        }
        let resampled = ResampledSamples(input, rate: 100, inputRate: 99.2)
        #expect(resampled.antiAliasCutoff == nil)
        for sample in resampled {
            #expect(abs(sample.acceleration.x - 2 * sample.time) < 1e-12)
            #expect(abs(sample.rotationRate.x - sample.time) < 1e-12)
        }
    }
}
