import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// A source over samples in memory that counts its reads and remembers how many samples the run
/// had processed (`processed`) at each read.
final class CountingSource: SampleSource {
    let path = "counting"
    let schema = RecordingSchema.generated()
    let issues: [RecordingIssue] = []
    var summary = ReadSummary()
    let samples: [MotionSample]
    var position = 0
    var reads: [Int] = []
    let processed: () -> Int

    init(_ samples: [MotionSample], processed: @escaping () -> Int) {
        self.samples = samples; self.processed = processed
    }

    func next() throws -> MotionSample? {
        var one: [MotionSample] = []
        return try read(into: &one, maximumCount: 1) > 0 ? one[0] : nil
    }

    func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        reads.append(processed())
        let end = min(self.samples.count, position + maximumCount)
        samples.append(contentsOf: self.samples[position ..< end])
        defer { position = end }
        return end - position
    }
}

/// A source whose read after `failAfter` samples throws.
final class FailingSource: SampleSource {
    let path = "failing"
    let schema = RecordingSchema.generated()
    let issues: [RecordingIssue] = []
    let summary = ReadSummary()
    var remaining: [MotionSample]
    init(_ samples: [MotionSample]) { remaining = samples }
    func next() throws -> MotionSample? {
        guard !remaining.isEmpty else { throw RecordingError(file: path, line: 9, column: 2, message: "cut short") }
        return remaining.removeFirst()
    }
    func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        try readByNext(into: &samples, maximumCount: maximumCount)
    }
}

/// A clock like the live one: one sample per read, each due at a scripted arrival time.
struct ArrivalClock: RunClock {
    var arrivals: [Int64]
    var time: Int64 = 0
    var readAhead: Int { 1 }
    var paces: Bool { true }
    mutating func due(_ sample: MotionSample, index: Int) -> Int64 { arrivals[index] }
    mutating func now() -> Int64 { time += 7; return time }
}

/// Keeps the outputs of every stage as the pipeline runs.
struct StageObserver: Sink {
    let into: Delivered
    var stages: [[SIMD3<Double>]] = []
    static var observesStages: Bool { true }
    mutating func observe(stage index: Int, _ record: ProcessedSample) {
        if stages.count <= index { stages.append([]) }
        stages[index].append(record.acceleration)
    }
    func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        into.records.append(record); into.deliveries.append(delivery)
    }
    func finish(_ end: RunEnd) -> [[SIMD3<Double>]] { stages }
}

/// Every clock through the one `Run`: the as-fast-as-possible clock, the paced clock (scripted
/// timer, frames, gaps, stop requests) and an arrival clock like the live one.
@Suite struct RunClockTests {
    let spec = "lowpass:cutoff=5 | factor:k=0.5"

    func pipeline() throws -> Pipeline {
        try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 100))
    }

    /// Samples whose acceleration moves, so a filter's output differs from sample to sample.
    func moving(_ count: Int) -> [MotionSample] {
        (0 ..< count).map { MotionSample(time: Double($0) / 100, acceleration: SIMD3(sin(Double($0) * 0.3), 0, 1)) }
    }

    @Test func asFastAsPossibleGivesThePipelinesOwnOutputAndEveryStageToAnObserver() throws {
        let samples = moving(10_000)
        var reference = try pipeline()
        let expected = samples.map { sample -> SIMD3<Double> in
            var record = ProcessedSample(sample)
            reference.process(&record)
            return record.acceleration
        }
        var prefix = try StageCatalog.standard.pipeline("lowpass:cutoff=5", context: StageContext(sampleRate: 100))
        let firstStage = samples.map { sample -> SIMD3<Double> in
            var record = ProcessedSample(sample)
            prefix.process(&record)
            return record.acceleration
        }
        let delivered = Delivered()
        var sink = StageObserver(into: delivered)
        var run = Run(source: SequenceSource(samples), pipeline: try pipeline(), clock: AsFastAsPossible())
        let (end, stages) = try run.run(into: &sink)
        #expect(end == RunEnd(samples: 10_000, stopped: false, elapsed: 0))
        #expect(delivered.records.map(\.acceleration) == expected)
        #expect(stages.count == 2 && stages[0] == firstStage && stages[1] == expected)
        #expect(delivered.deliveries.allSatisfy { $0.scheduled == 0 && $0.delivered == 0 && $0.cost == 0 })
    }

    @Test func asFastAsPossiblePollsTheStopRequestOncePerChunk() throws {
        let count = 3 * Run<AsFastAsPossible>.chunkSize + 5
        var polls = 0
        let delivered = Delivered()
        var sink = Collector(into: delivered)
        var run = Run(source: SequenceSource(moving(count)), pipeline: Pipeline(), clock: AsFastAsPossible())
        let (end, _) = try run.run(into: &sink, shouldStop: { polls += 1; return polls == 2 })
        #expect(end.stopped && end.samples == 2 * Run<AsFastAsPossible>.chunkSize)
        #expect(delivered.records.count == 2 * Run<AsFastAsPossible>.chunkSize)
    }

    @Test func anArrivalClockProcessesEachSampleBeforeTheNextIsReadAndTheEarlySamplesFirst() throws {
        let samples = moving(20)
        let delivered = Delivered()
        let source = CountingSource(Array(samples[4...]), processed: { delivered.records.count })
        let arrivals = (0 ..< 20).map { Int64($0) * 1_000 + 5 }
        var run = Run(source: source, first: Array(samples[..<4]), pipeline: try pipeline(),
                      clock: ArrivalClock(arrivals: arrivals))
        var sink = Collector(into: delivered)
        let (end, _) = try run.run(into: &sink)
        #expect(end.samples == 20 && !end.stopped)
        #expect(delivered.records.map(\.time) == samples.map(\.time))
        // One sample per read, each read after the previous sample went through the sinks (the
        // first after the four early samples).
        #expect(source.reads == Array(4 ... 20))
        // Scheduled is the arrival; delivered and cost are the clock's readings (7 ns a reading).
        for (index, delivery) in delivered.deliveries.enumerated() {
            #expect(delivery.scheduled == arrivals[index])
            #expect(delivery.delivered == Int64(14 * index + 7) && delivery.cost == 7)
        }
    }

    @Test func aPacedRunHasTheAsFastAsPossibleOutputAtAnySpeedWithFramesAndGaps() throws {
        var samples = moving(600)
        for index in 300 ..< 600 { samples[index].time += 5 }   // a 5 s gap
        let framePipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: 30))
        let fast = Delivered()
        var fastSink = Collector(into: fast)
        var fastRun = Run(source: SequenceSource(samples), pipeline: try pipeline(), clock: AsFastAsPossible())
        _ = try fastRun.run(into: &fastSink)
        var frameSets: [[FrameDelivery]] = []
        for speed in [ReplaySpeed.maximum, .realTime(1), .realTime(3)] {
            let options = ReplayOptions(speed: speed, frameRate: 30, gapPolicy: GapPolicy(limit: 1, replacement: 0.01))
            let (result, delivered, clock) = replay(samples, clock: ScriptedClock(), options: options,
                                                   pipeline: try pipeline(), framePipeline: framePipeline)
            #expect(delivered.records.map(\.acceleration) == fast.records.map(\.acceleration))
            #expect(result.gapCount == 1 && result.gaps == [GapPolicy.Gap(start: 2.99, end: 8.0)])
            #expect(result.frames == delivered.frames.count && result.frames > 0)
            // Frames never run inside the skipped gap: their times step by one frame period
            // except once, across the gap.
            let steps = zip(delivered.frames.dropFirst(), delivered.frames).map { $0.time - $1.time }
            #expect(steps.filter { abs($0 - 1.0 / 30) > 1e-9 }.count == 1)
            if case .realTime(let factor) = speed {
                // The last sample is due at its offset on the shortened time line / speed.
                let offset = samples[599].time - samples[0].time - (samples[300].time - samples[299].time - 0.01)
                let due = ScriptedClock.origin + lead + Int64((offset / factor * 1e9).rounded())
                #expect(delivered.deliveries.last?.scheduled == due)
                #expect(clock.time >= due)
            }
            frameSets.append(delivered.frames)
        }
        // The frames are those of the recording's time line at every speed.
        #expect(frameSets[1].map(\.time) == frameSets[0].map(\.time))
        #expect(frameSets[2].map(\.frameSmoothed) == frameSets[0].map(\.frameSmoothed))
        #expect(frameSets[2].map(\.stackedSamples) == frameSets[0].map(\.stackedSamples))
    }

    @Test func aStopDuringAPacedRunStillFinishesTheSinks() throws {
        let samples = regularSamples(200)
        let options = ReplayOptions(speed: .realTime(1), frameRate: 60)
        let (result, delivered, _) = replay(samples, clock: ScriptedClock(), options: options, stopAfter: 50)
        #expect(result.stopped)
        #expect(result.timing.samples == 50 && delivered.records.count == 50)
        // The frames stopped with the samples: none past the 50th sample's time.
        #expect(delivered.frames.allSatisfy { $0.time <= samples[50].time })
        #expect(result.frames == delivered.frames.count)
    }

    @Test func aLiveStreamThatFailsEndsTheRunWithTheSinksFinishedAndTheFailureKept() throws {
        for stopRequested in [false, true] {
            let live = LiveSource(FailingSource(moving(5)), stopRequested: { stopRequested })
            let delivered = Delivered()
            var sink = Collector(into: delivered)
            var run = Run(source: live, pipeline: try pipeline(), clock: ArrivalClock(arrivals: Array(repeating: 0, count: 5)))
            let (end, _) = try run.run(into: &sink)
            #expect(end.samples == 5 && !end.stopped && delivered.records.count == 5)
            if stopRequested {
                #expect(live.failure == nil, "a row cut short by a stop is no failure")
            } else {
                #expect(live.failure?.end == .failed)
                #expect(live.failure?.message.contains("failing:9:2") == true, "\(live.failure?.message ?? "")")
            }
        }
    }
}
