import Foundation
import Testing
import Poise
@testable import PoiseRecording
@testable import PoiseRun

/// The streamed metrics (`StageMetricsAccumulator`, the streamed `FrameComparison`, and a whole
/// `ReplaySession`, which keeps no samples) equal the batch `StageMetrics` and `FrameComparison`
/// on the bundled recordings in data/ and on simulated ones, exactly.
@Suite struct StreamingMetricsTests {
    static let dataFolder: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("data")
    }()

    static func data(_ name: String) -> String { dataFolder.appendingPathComponent(name).path }

    static let bundled = ["phone-tilt-steer-100hz.csv", "phone-tilt-steer-ideal-30s.csv", "rotations-with-breaks.csv",
                          "shake.csv", "steering.csv", "still.csv", "tilt-steps.csv", "walking.csv"]

    /// Streams `samples` through the accumulator and compares with the batch type.
    func expectStreamedEqualsBatch(_ samples: [MotionSample], spec: String, rate: Double, hasGyroscope: Bool = true,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: rate))
        let batch = StageMetrics(pipeline: pipeline, samples: samples, sampleRate: rate, hasGyroscope: hasGyroscope)
        var accumulator = StageMetricsAccumulator(pipeline: pipeline, sampleRate: rate, hasGyroscope: hasGyroscope)
        for sample in samples { accumulator.add(sample) }
        let streamed = accumulator.finish()
        #expect(streamed == batch.summary, "\(spec)", sourceLocation: sourceLocation)
    }

    @Test(arguments: bundled)
    func bundledRecordingsGiveTheBatchNumbers(name: String) throws {
        let recording = try Recording.load(path: Self.data(name))
        let rate = try #require(nominalSampleRate(of: recording.samples))
        try expectStreamedEqualsBatch(recording.samples, spec: "lowpass:cutoff=5", rate: rate)
    }

    @Test(arguments: ["phone-tilt-steer-100hz.csv", "rotations-with-breaks.csv", "walking.csv"])
    func multiStagePipelinesGiveTheBatchNumbers(name: String) throws {
        let recording = try Recording.load(path: Self.data(name))
        let rate = try #require(nominalSampleRate(of: recording.samples))
        try expectStreamedEqualsBatch(recording.samples, spec: "remap:+Y-X+Z | butter:lowpass,order=4,cutoff=8 | tilt", rate: rate)
        try expectStreamedEqualsBatch(recording.samples, spec: "none", rate: rate, hasGyroscope: false)
    }

    @Test func simulatedRecordingsGiveTheBatchNumbers() throws {
        // Two still segments around shaking; still/moving alternation with noise; a short file
        // with no still segment and no moving segment long enough for the lag.
        try expectStreamedEqualsBatch(simulatedRecording(), spec: "factor:k=0.1 | oneeuro:mincutoff=0.5,beta=1,dcutoff=1", rate: 100)
        try expectStreamedEqualsBatch(simulatedMotion(), spec: "lowpass:cutoff=3", rate: 100)
        try expectStreamedEqualsBatch(Array(simulatedMotion().prefix(150)), spec: "lowpass:cutoff=3", rate: 100)
        // Quiet runs shorter than the minimum duration (0.6 s quiet, 0.3 s moving) are moving samples.
        let flicker = (0 ..< 3000).map { i in
            let t = Double(i) / 100
            let moving = t.truncatingRemainder(dividingBy: 0.9) >= 0.6
            return MotionSample(time: t, acceleration: SIMD3(0, moving ? 0.5 * Double.sin(9 * t) : 0, 1),
                                rotationRate: SIMD3(moving ? 1 : 0, 0, 0))
        }
        try expectStreamedEqualsBatch(flicker, spec: "lowpass:cutoff=5", rate: 100)
    }

    static func write(_ samples: [MotionSample]) throws -> String { try writeRecording(samples) }

    /// The batch report figures for what a session delivered.
    func batchFigures(path: String, spec: String, rate: ReplayRate = .native, frameRate: Double? = nil,
                      count: Int? = nil) throws -> (StageMetricsSummary, FrameComparison?) {
        let recording = try Recording.load(path: path)
        let plan = try ReplayPlan(samples: recording.samples, hasTimestamps: true, rate: rate, speed: .maximum)
        var delivered = Array(plan.deliveredSamples(recording.samples))
        if let count { delivered = Array(delivered.prefix(count)) }
        let pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: plan.sampleRate))
        let metrics = StageMetrics(pipeline: pipeline, samples: delivered, sampleRate: plan.sampleRate,
                                   hasGyroscope: recording.schema.hasGyroscope)
        let comparison = try frameRate.map { frameRate in
            let signal = pipeline.stages.last { $0.measuredSignal != nil }?.measuredSignal ?? .acceleration
            return FrameComparison(pipeline: pipeline,
                                   framePipeline: try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: frameRate)),
                                   signal: signal, samples: delivered, sampleRate: plan.sampleRate, frameRate: frameRate,
                                   stillSegments: metrics.stillSegments)
        }
        return (metrics.summary, comparison)
    }

    func expectReport(_ report: ReplayReport, equals figures: (StageMetricsSummary, FrameComparison?),
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let (metrics, comparison) = figures
        #expect(report.whole == metrics.whole, sourceLocation: sourceLocation)
        #expect(report.stages == metrics.stages, sourceLocation: sourceLocation)
        #expect(report.stillSegments == metrics.stillSegmentCount, sourceLocation: sourceLocation)
        #expect(report.noiseSegment == metrics.noiseSegment, sourceLocation: sourceLocation)
        #expect(report.frames?.comparison == comparison, sourceLocation: sourceLocation)
    }

    @Test func sessionReportEqualsTheBatchFiguresAsRecordedResampledAndInFrameMode() throws {
        let path = Self.data("phone-tilt-steer-100hz.csv")
        let spec = "lowpass:cutoff=5 | oneeuro:mincutoff=0.1,beta=2,dcutoff=1"
        let plain = try ReplaySession(ReplayRequest(path: path, pipeline: spec, speed: .maximum))
        #expect(plain.scan.sampleCount == (try Recording.load(path: path)).samples.count)
        expectReport(try plain.run(clock: MonotonicClock()), equals: try batchFigures(path: path, spec: spec))
        let resampled = try ReplaySession(ReplayRequest(path: path, pipeline: spec, rate: .fixed(60), speed: .maximum))
        expectReport(try resampled.run(clock: MonotonicClock()), equals: try batchFigures(path: path, spec: spec, rate: .fixed(60)))
        let frames = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=2", speed: .maximum, frameRate: 30))
        let report = try frames.run(clock: MonotonicClock())
        #expect(report.frames?.comparison.callback.jitter != nil)
        expectReport(report, equals: try batchFigures(path: path, spec: "lowpass:cutoff=2", frameRate: 30))
    }

    @Test func frameComparisonOnSimulatedRecordingEqualsBatch() throws {
        let path = try Self.write(simulatedMotion(seconds: 30))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "factor:k=0.1", speed: .maximum, frameRate: 25))
        let report = try session.run(clock: MonotonicClock())
        #expect(report.frames?.comparison.frameTime.jitter?.segments == 5)
        expectReport(report, equals: try batchFigures(path: path, spec: "factor:k=0.1", frameRate: 25))
    }

    @Test func stoppedReplayMeasuresTheDeliveredPrefix() throws {
        let path = try Self.write(simulatedMotion())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=3", speed: .maximum))
        var polls = 0
        let report = try session.run(clock: MonotonicClock(), shouldStop: { polls += 1; return polls > 1000 })
        #expect(report.stopped && report.samples == 1000)
        expectReport(report, equals: try batchFigures(path: path, spec: "lowpass:cutoff=3", count: 1000))
    }

    /// A file that turns bad between the check and the replay: the error names the line, and the
    /// output file is not left behind (neither under its name nor as a temporary file).
    @Test func errorMidFileDuringReplayIsReportedAndLeavesNoOutput() throws {
        let samples = simulatedMotion()
        let path = try Self.write(samples)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-stream-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.csv").path
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=3", speed: .maximum,
                                                      outputPath: output))
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[700] = "7.0,0.1,zero,1,0,0,0"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try session.run(clock: MonotonicClock())
        } throws: { error in
            let error = error as? RecordingError
            return error?.line == 701 && error?.column == 3 && error?.file == path
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func scanCountsEverySampleAndMeasuresTheMedianRate() throws {
        let path = Self.data("walking.csv")
        let scan = try RecordingScan(path: path)
        let recording = try Recording.load(path: path)
        #expect(scan.sampleCount == recording.samples.count)
        #expect(scan.firstTime == recording.samples.first?.time && scan.lastTime == recording.samples.last?.time)
        #expect(scan.nominalRate == nominalSampleRate(of: recording.samples) && scan.passes == 1)
    }

    /// Beyond the kept intervals the median is selected by radix over further passes: still exactly
    /// the whole recording's median (here with at most 50 intervals kept in memory).
    @Test(arguments: ["walking.csv", "phone-tilt-steer-100hz.csv", "rotations-with-breaks.csv"])
    func medianRateOfALongRecordingIsExact(name: String) throws {
        let path = Self.data(name)
        let recording = try Recording.load(path: path)
        let scan = try RecordingScan(path: path, options: ReadOptions(), keep: 50)
        #expect(scan.passes >= 2)
        #expect(scan.nominalRate == nominalSampleRate(of: recording.samples))
        // Timestamps on a regular grid (many equal intervals) and with jitter.
        var jittered = (0 ..< 3000).map { i in Double(i) * 0.01 }
        for i in jittered.indices where i % 3 == 0 { jittered[i] += 0.0004 * Double((i * 7919) % 11) / 11 }
        for times in [(0 ..< 3000).map { Double($0) / 100 }, jittered] {
            let file = try writeRecording(times.map { MotionSample(time: $0, acceleration: SIMD3(0, 0, 1)) })
            defer { try? FileManager.default.removeItem(atPath: file) }
            let reread = try Recording.load(path: file)
            let scan = try RecordingScan(path: file, options: ReadOptions(), keep: 20)
            #expect(scan.nominalRate == nominalSampleRate(of: reread.samples))
        }
    }
}
