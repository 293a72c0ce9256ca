import Testing
@testable import Poise

/// A test-only stage: exponential smoothing of acceleration, y ← y + α(x − y).
private struct Smoother: PipelineStage {
    var alpha: Double
    var state: SIMD3<Double>?
    var description: String { "smooth:alpha=\(alpha)" }
    var outputs: StageOutputs { .acceleration }
    var measuredSignal: StageSignal? { .acceleration }
    mutating func process(_ sample: inout ProcessedSample) {
        let y = state.map { $0 + alpha * (sample.acceleration - $0) } ?? sample.acceleration
        state = y
        sample.acceleration = y
    }
    mutating func reset() { state = nil }
}

/// A test-only stage writing gravity as the current acceleration (reads what earlier stages made).
private struct CopyToGravity: PipelineStage {
    var description: String { "gravity" }
    var outputs: StageOutputs { .gravity }
    var measuredSignal: StageSignal? { .gravity }
    mutating func process(_ sample: inout ProcessedSample) {
        sample.gravity = sample.acceleration
        sample.userAcceleration = sample.input.acceleration - sample.acceleration
    }
    mutating func reset() {}
}

private let catalog = StageCatalog([
    .init(name: "smooth", usage: "smooth:alpha=A", summary: "exponential smoothing") { spec, _ in
        try spec.requireKnown(keys: ["alpha"])
        return Smoother(alpha: try spec.number("alpha", default: 0.1, in: 0 ... 1))
    },
    .init(name: "gravity", usage: "gravity", summary: "copy") { spec, _ in
        try spec.requireKnown()
        return CopyToGravity()
    },
])

private func samples(_ n: Int) -> [MotionSample] {
    (0 ..< n).map { i in
        MotionSample(time: Double(i) / 100, acceleration: SIMD3(Double(i % 7) * 0.01, 0, i < n / 2 ? 1 : 0.5))
    }
}

@Suite struct PipelineSpecTests {
    @Test func splitsStagesNamesAndArguments() throws {
        let stages = try StageSpec.parse(" lowpass:cutoff=5, order=2 |gravity| fusion:9d | remap:landscapeLeft ")
        #expect(stages.map(\.name) == ["lowpass", "gravity", "fusion", "remap"])
        #expect(stages[0].arguments == [.init(key: "cutoff", value: "5", column: 10), .init(key: "order", value: "2", column: 20)])
        #expect(stages[0].text == "lowpass:cutoff=5, order=2")
        #expect(stages[2].words == ["9d"])
        #expect(stages[3].words == ["landscapeLeft"])
        #expect(stages.map(\.position) == [1, 2, 3, 4])
        #expect(stages.map(\.column) == [2, 29, 38, 50])
    }

    @Test func emptyAndNoneGiveNoStages() throws {
        #expect(try StageSpec.parse("").isEmpty)
        #expect(try StageSpec.parse("  none ").isEmpty)
    }

    @Test func syntaxErrorsNameStageAndColumn() {
        #expect(throws: SpecError(.pipeline, spec: "smooth || gravity", stage: 2, column: 9,
                                  message: "empty stage (two '|' in a row, or '|' at an end)")) {
            try StageSpec.parse("smooth || gravity")
        }
        #expect(throws: SpecError.self) { try StageSpec.parse("smooth:alpha=") }
        #expect(throws: SpecError.self) { try StageSpec.parse(":x") }
        #expect(throws: SpecError.self) { try StageSpec.parse("smooth:,") }
    }

    @Test func unknownStageSuggestsTheClosestAndListsAll() {
        do {
            _ = try catalog.pipeline("smooth | gravty", context: StageContext(sampleRate: 100))
            Issue.record("expected an error")
        } catch let error as SpecError {
            #expect(error.stage == 2)
            #expect(error.column == 10)
            #expect(error.token == "gravty")
            #expect(error.message.contains("unknown stage 'gravty'"))
            #expect(error.message.contains("did you mean 'gravity'"))
            #expect(error.message.contains("smooth:alpha=A, gravity"))
        } catch { Issue.record("wrong error \(error)") }
    }

    @Test func badArgumentsAreErrorsNotGuesses() {
        let context = StageContext(sampleRate: 100)
        #expect(throws: SpecError.self) { try catalog.pipeline("smooth:alpha=2", context: context) }
        #expect(throws: SpecError.self) { try catalog.pipeline("smooth:alpha=x", context: context) }
        #expect(throws: SpecError.self) { try catalog.pipeline("smooth:beta=1", context: context) }
        #expect(throws: SpecError.self) { try catalog.pipeline("gravity:fast", context: context) }
    }
}

@Suite struct PipelineTests {
    @Test func stagesRunInOrderAndLaterStagesSeeEarlierOutput() throws {
        var pipeline = try catalog.pipeline("smooth:alpha=0.5 | gravity", context: StageContext(sampleRate: 100))
        #expect(pipeline.description == "smooth:alpha=0.5 | gravity")
        #expect(pipeline.outputs == [.acceleration, .gravity])
        _ = pipeline.process(MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)))
        let record = pipeline.process(MotionSample(time: 0.01, acceleration: SIMD3(0, 0, 2)))
        #expect(record.acceleration == SIMD3(0, 0, 1.5))
        #expect(record.gravity == SIMD3(0, 0, 1.5))
        #expect(record.userAcceleration == SIMD3(0, 0, 0.5))
        #expect(record.input.acceleration == SIMD3(0, 0, 2))
    }

    @Test func batchEqualsPerSampleLoop() throws {
        let input = samples(200)
        var batch = try catalog.pipeline("smooth:alpha=0.2 | smooth:alpha=0.3 | gravity", context: StageContext(sampleRate: 100))
        var loop = batch
        let batchOutput = batch.process(input)
        let loopOutput = input.map { loop.process($0) }
        #expect(batchOutput == loopOutput)
    }

    @Test func resetEqualsAFreshPipeline() throws {
        let input = samples(50)
        let fresh = try catalog.pipeline("smooth:alpha=0.2 | gravity", context: StageContext(sampleRate: 100))
        var used = fresh
        _ = used.process(input)
        used.reset()
        var freshCopy = fresh
        #expect(used.process(input) == freshCopy.process(input))
    }

    @Test func observerSeesEachStageOutput() throws {
        var pipeline = try catalog.pipeline("smooth:alpha=0.5 | smooth:alpha=0.5", context: StageContext(sampleRate: 100))
        var seen: [SIMD3<Double>] = []
        for value in [1.0, 3.0] {
            var record = ProcessedSample(MotionSample(time: 0, acceleration: SIMD3(0, 0, value)))
            seen.removeAll()
            pipeline.process(&record) { _, r in seen.append(r.acceleration) }
        }
        // First stage: 1 → 2; second stage: 1 → 1.5.
        #expect(seen == [SIMD3(0, 0, 2), SIMD3(0, 0, 1.5)])
    }

    @Test func emptyPipelinePassesSamplesThrough() throws {
        var pipeline = try catalog.pipeline("none", context: StageContext(sampleRate: 100))
        let sample = MotionSample(time: 1, acceleration: SIMD3(1, 2, 3), rotationRate: SIMD3(4, 5, 6), magneticField: SIMD3(7, 8, 9))
        let record = pipeline.process(sample)
        #expect(record == ProcessedSample(sample))
        #expect(record.acceleration == sample.acceleration && record.magneticField == sample.magneticField)
        #expect(pipeline.description == "none")
    }
}

@Suite struct FilterStageTests {
    @Test func everyFilterKindGivesExactlyTheFilterCoresOutput() throws {
        let specs = ["lowpass:cutoff=5", "highpass:cutoff=0.5", "factor:k=0.1", "butter:lowpass,order=4,cutoff=5",
                     "accelgraph:cutoff=5,adaptive", "oneeuro:mincutoff=0.1,beta=2", "adaptive"]
        // Irregular timestamps (x-io style), so time-aware filters see real periods.
        var time = 0.0
        var samples: [MotionSample] = []
        for i in 0 ..< 400 {
            samples.append(MotionSample(time: time, acceleration: SIMD3(0.01 * Double(i % 9), i < 200 ? 0 : 1, i < 200 ? 1 : 0)))
            time += i % 7 == 0 ? 0.00756 : 0.01008
        }
        for text in specs {
            let spec = try FilterSpec(parsing: text)
            var stage = try FilterStage(spec: spec, sampleRate: 99.2)
            var reference = try spec.makeFilter(SIMD3<Double>.self, sampleRate: 99.2)
            for (i, sample) in samples.enumerated() {
                var record = ProcessedSample(sample)
                stage.process(&record)
                let expected = i == 0 ? reference.process(sample.acceleration)
                                      : reference.process(sample.acceleration, dt: sample.time - samples[i - 1].time)
                #expect(record.acceleration == expected, "\(text) at sample \(i)")
                if record.acceleration != expected { break }
            }
            // reset() equals a fresh stage.
            stage.reset()
            var fresh = try FilterStage(spec: spec, sampleRate: 99.2)
            var a = ProcessedSample(samples[5]), b = a
            stage.process(&a); fresh.process(&b)
            #expect(a == b, "\(text) after reset")
        }
    }

    @Test func filterSpecErrorsPointAtTheStageAndToken() {
        do {
            _ = try StageCatalog.standard.pipeline("lowpass:cutoff=5 | butter:lowpass,order=9,cutoff=5",
                                                   context: StageContext(sampleRate: 100))
            Issue.record("expected an error")
        } catch let error as SpecError {
            #expect(error.stage == 2)
            #expect(error.column == 35)
            #expect(error.token == "order=9")
            #expect(error.message.contains("order must be a whole number"))
        } catch { Issue.record("wrong error \(error)") }
    }
}
