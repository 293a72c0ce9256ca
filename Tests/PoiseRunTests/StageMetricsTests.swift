import Testing
import Poise
@testable import PoiseRun

/// A test-only stage delaying the acceleration by `delay` samples (the first input fills the line).
private struct DelayStage: PipelineStage {
    var delay: Int
    var line: [SIMD3<Double>] = []
    var description: String { "delay:\(delay)" }
    var outputs: StageOutputs { .acceleration }
    var measuredSignal: StageSignal? { .acceleration }
    mutating func process(_ sample: inout ProcessedSample) {
        if line.isEmpty { line = Array(repeating: sample.acceleration, count: delay) }
        line.append(sample.acceleration)
        sample.acceleration = line.removeFirst()
    }
    mutating func reset() { line = [] }
}

/// A simulated 100 Hz recording: still 0–6 s and 8–14 s with a 13 Hz wobble of amplitude
/// `wobble` g on x; in between 2 s of shaking about x (gravity swinging in the y–z plane with
/// three incommensurate frequencies, so every delay gives a distinct cross-correlation).
func simulatedRecording(wobble: Double = 0.002) -> [MotionSample] {
    var samples: [MotionSample] = []
    for i in 0 ..< 1400 {
        let t = Double(i) / 100
        let moving = t >= 6 && t < 8
        let swing = moving ? (0.4 * Double.sin(2 * .pi * 1.3 * (t - 6)) + 0.25 * Double.sin(2 * .pi * 3.7 * (t - 6))
                              + 0.15 * Double.sin(2 * .pi * 7.1 * (t - 6))) : 0
        let x = moving ? 0 : wobble * Double.sin(2 * .pi * 13 * t)
        samples.append(MotionSample(time: t, acceleration: SIMD3(x, Double.sin(swing), Double.cos(swing)),
                                    rotationRate: SIMD3(moving ? 1 : 0, 0, 0)))
    }
    return samples
}

@Suite struct StageMetricsTests {
    @Test func rawAccelerationHasLatencyOneAttenuationOneAndNoLag() throws {
        let metrics = StageMetrics(pipeline: Pipeline(), samples: simulatedRecording(), sampleRate: 100)
        #expect(metrics.stages.isEmpty)
        #expect(metrics.stillSegments.count == 2)
        #expect(metrics.whole.latency90Samples == StepLatencySamples(tilt: 1, shake: 1))
        let jitter = try #require(metrics.whole.jitter)
        #expect(jitter.output == jitter.input && jitter.attenuation == 1)
        // A 13 Hz sine of amplitude a has RMS a/√2; the 1 s moving average removes almost none of it.
        #expect(abs(jitter.input - 0.002 / 2.0.squareRoot()) < 0.00005)
        #expect(metrics.whole.lagMilliseconds == 0)
    }

    @Test func fixedFactorFilterTakes22SamplesForBothSteps() throws {
        // conventions.md reference: y ← 0.1·x + 0.9·y reaches 90 % of the tilt step in 22 samples
        // (0.9^22 = 0.098 < 0.1 ≤ 0.9^21); the filter is linear, so the shake step takes as long.
        let pipeline = try StageCatalog.standard.pipeline("factor:k=0.1", context: StageContext(sampleRate: 100))
        let metrics = StageMetrics(pipeline: pipeline, samples: simulatedRecording(), sampleRate: 100)
        #expect(metrics.stages.count == 1)
        #expect(metrics.stages[0].latency90Samples == StepLatencySamples(tilt: 22, shake: 22))
        #expect(metrics.whole.latency90Samples == StepLatencySamples(tilt: 22, shake: 22))
        let jitter = try #require(metrics.stages[0].jitter)
        // At 13 Hz and 100 Hz the one-pole's gain is |0.1 / (1 − 0.9 e^{−iω})| with ω = 2π·0.13.
        let omega = 2 * Double.pi * 0.13
        let gain = 0.1 / ((1 - 0.9 * Double.cos(omega)) * (1 - 0.9 * Double.cos(omega)) + 0.81 * Double.sin(omega) * Double.sin(omega)).squareRoot()
        // Within 6 %: right after the movement the filter is still settling, which the still
        // segment (found from the raw signal) partly includes.
        #expect(abs(jitter.attenuation - 1 / gain) / (1 / gain) < 0.06)
    }

    @Test func aPureDelayShowsAsLagAndLatencyAndLeavesJitterAlone() throws {
        let pipeline = Pipeline([DelayStage(delay: 7)])
        let metrics = StageMetrics(pipeline: pipeline, samples: simulatedRecording(), sampleRate: 100)
        let stage = metrics.stages[0]
        #expect(stage.latency90Samples == StepLatencySamples(tilt: 8, shake: 8))
        #expect(abs((stage.lagMilliseconds ?? .nan) - 70) < 1)   // within a tenth of a sample (parabolic peak)
        let jitter = try #require(stage.jitter)
        #expect(abs(jitter.attenuation - 1) < 0.02)
    }

    @Test func laterStagesAreMeasuredInTheChain() throws {
        let pipeline = Pipeline([DelayStage(delay: 3), DelayStage(delay: 4)])
        let metrics = StageMetrics(pipeline: pipeline, samples: simulatedRecording(), sampleRate: 100)
        #expect(metrics.stages.map(\.latency90Samples.tilt) == [4, 8])
        #expect(metrics.stages.count == 2)
        #expect(zip(metrics.stages.map { $0.lagMilliseconds ?? .nan }, [30.0, 70.0]).allSatisfy { abs($0 - $1) < 1 })
        #expect(metrics.whole.latency90Samples.tilt == 8)
        #expect(metrics.whole.stage == "delay:3 | delay:4")
    }

    @Test func remappingBeforeAFilterDoesNotChangeItsFigures() throws {
        // The filter then sees the steps in other axes; the metrics map its output back, so the
        // figures equal those without the remap (a rotation leaves latency, jitter and lag alone).
        let context = StageContext(sampleRate: 100)
        let plain = StageMetrics(pipeline: try StageCatalog.standard.pipeline("factor:k=0.1", context: context),
                                 samples: simulatedRecording(), sampleRate: 100)
        for orientation in ["landscapeLeft", "landscapeRight", "portraitUpsideDown", "+Y-X+Z"] {
            let remapped = StageMetrics(
                pipeline: try StageCatalog.standard.pipeline("remap:\(orientation) | factor:k=0.1", context: context),
                samples: simulatedRecording(), sampleRate: 100)
            #expect(remapped.stages.count == 1)
            #expect(remapped.stages[0].latency90Samples == StepLatencySamples(tilt: 22, shake: 22), "\(orientation)")
            #expect(remapped.stages[0].lagMilliseconds == plain.stages[0].lagMilliseconds, "\(orientation)")
            let a = try #require(remapped.stages[0].jitter), b = try #require(plain.stages[0].jitter)
            #expect(abs(a.output - b.output) < 1e-12, "\(orientation)")
        }
    }

    @Test func noiseComesFromTheLongestStillSegment() throws {
        let metrics = StageMetrics(pipeline: Pipeline(), samples: simulatedRecording(), sampleRate: 100)
        let segment = try #require(metrics.noiseSegment)
        let longest = try #require(metrics.stillSegments.max { $0.count < $1.count })
        #expect(segment.lowerBound == Double(longest.lowerBound) / 100)
        #expect(metrics.whole.latency90NoisySamples?.tilt == 1)
    }

    @Test func withoutStillSegmentsThereIsNoJitterAndNoNoise() {
        let moving = (0 ..< 300).map { i in
            MotionSample(time: Double(i) / 100, acceleration: SIMD3(0, Double.sin(Double(i) / 30), 1), rotationRate: SIMD3(1, 0, 0))
        }
        let metrics = StageMetrics(pipeline: Pipeline([DelayStage(delay: 2)]), samples: moving, sampleRate: 100)
        #expect(metrics.stillSegments.isEmpty)
        #expect(metrics.noiseSegment == nil)
        #expect(metrics.stages[0].jitter == nil)
        #expect(metrics.stages[0].latency90NoisySamples == nil)
        #expect(abs((metrics.stages[0].lagMilliseconds ?? .nan) - 20) < 1)
    }

    @Test func quietRunsShorterThanTheMinimumDurationAreMovingSamples() throws {
        // 0.6 s quiet, 0.3 s moving: no still segment, so every sample belongs to one moving
        // segment and a pure delay of 3 samples shows as a 30 ms lag (the quiet samples held back
        // while their run is judged join the lag sums in order).
        let flicker = (0 ..< 3000).map { i in
            let t = Double(i) / 100
            let moving = t.truncatingRemainder(dividingBy: 0.9) >= 0.6
            return MotionSample(time: t, acceleration: SIMD3(0, moving ? 0.5 * Double.sin(9 * t) : 0, 1),
                                rotationRate: SIMD3(moving ? 1 : 0, 0, 0))
        }
        var delay = Pipeline([DelayStage(delay: 3)])
        var accumulator = StageMetricsAccumulator(pipeline: delay, sampleRate: 100)
        for sample in flicker { accumulator.add(sample, through: &delay) }
        let summary = accumulator.finish()
        #expect(summary.stillSegmentCount == 0 && summary.noiseSegment == nil)
        #expect(summary.stages[0].jitter == nil)
        #expect(abs((summary.stages[0].lagMilliseconds ?? .nan) - 30) < 1)
    }

    @Test func stillAndMovingPeriodsAreSeparated() throws {
        // Still 0–3, 6–9, 12–15 s, moving in between: three still segments, and a pure delay of
        // 5 samples shows as a 50 ms lag on the two moving ones.
        var delay = Pipeline([DelayStage(delay: 5)])
        var accumulator = StageMetricsAccumulator(pipeline: delay, sampleRate: 100)
        for sample in simulatedMotion() { accumulator.add(sample, through: &delay) }
        let summary = accumulator.finish()
        #expect(summary.stillSegmentCount == 3)
        #expect(summary.stages[0].jitter?.segments == 3)
        #expect(abs((summary.stages[0].lagMilliseconds ?? .nan) - 50) < 1)
        #expect(summary.stages[0].latency90Samples == StepLatencySamples(tilt: 6, shake: 6))
    }

    @Test func observedStagesEqualTheirPrefixesRunAlone() throws {
        // The driver's one pipeline hands each stage's output to the accumulator as it runs; the
        // figures equal those of an accumulator given each measured stage's prefix run alone on
        // the same samples (and remapped axes are mapped back in both).
        let spec = "remap:+Y-X+Z | lowpass:cutoff=5 | gravity | factor:k=0.2"
        let pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 100))
        let samples = simulatedMotion()
        var observed = StageMetricsAccumulator(pipeline: pipeline, sampleRate: 100)
        var running = pipeline
        var outputs: [ProcessedSample] = []
        for sample in samples { outputs.append(observed.add(sample, through: &running)) }

        var separate = StageMetricsAccumulator(pipeline: pipeline, sampleRate: 100)
        let measured = pipeline.stages.indices.filter { pipeline.stages[$0].measuredSignal != nil }
        #expect(measured == [1, 2, 3])
        var prefixes = measured.map { Pipeline(Array(pipeline.stages[...$0])) }
        var whole = pipeline
        for (i, sample) in samples.enumerated() {
            for (k, stage) in measured.enumerated() {
                separate.observe(stage: stage, prefixes[k].process(sample))
            }
            let record = whole.process(sample)
            #expect(record.acceleration == outputs[i].acceleration && record.gravity == outputs[i].gravity)
            separate.add(record)
        }
        let a = observed.finish(), b = separate.finish()
        #expect(a.stages.count == 3 && a.stillSegmentCount == 3)
        #expect(a == b)
    }
}
