import Foundation
import Testing
import Poise
@testable import PoiseRecording
@testable import PoiseRun

/// A whole `ReplaySession` (which keeps no samples) measures exactly the samples it delivered: its
/// report equals `StageMetricsAccumulator` run over them, as recorded, resampled, stopped early
/// and in frame mode; and the metrics of the bundled recordings in data/ are consistent with
/// their still segments.
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

    /// On every bundled recording: the still segments counted while streaming are those of the
    /// rest detector, jitter is measured on all of them, and a 5 Hz low-pass attenuates it.
    @Test(arguments: bundled)
    func bundledRecordingsAreMeasuredOnTheirStillSegments(name: String) throws {
        let recording = try Recording.load(path: Self.data(name))
        let rate = try #require(nominalSampleRate(of: recording.samples))
        let pipeline = try StageCatalog.standard.pipeline("lowpass:cutoff=5", context: StageContext(sampleRate: rate))
        var accumulator = StageMetricsAccumulator(pipeline: pipeline, sampleRate: rate)
        var running = pipeline
        for sample in recording.samples { accumulator.add(sample, through: &running) }
        let summary = accumulator.finish()
        #expect(accumulator.count == recording.samples.count)
        #expect(summary.stillSegmentCount == RestDetector().stillSegments(in: recording.samples).count)
        #expect(summary.stages.count == 1 && summary.whole.stage == "lowpass:cutoff=5")
        if summary.stillSegmentCount > 0 {
            let jitter = try #require(summary.whole.jitter)
            #expect(jitter.segments == summary.stillSegmentCount)
            if jitter.input > 1e-6 { #expect(jitter.attenuation > 1) }   // not on the noise-free recording
            #expect(summary.noiseSegment != nil && summary.whole.latency90NoisySamples != nil)
        } else {
            #expect(summary.whole.jitter == nil && summary.noiseSegment == nil)
        }
    }

    static func write(_ samples: [MotionSample]) throws -> String { try writeRecording(samples) }

    /// The figures of `StageMetrics` for what a session delivered.
    func deliveredFigures(path: String, spec: String, rate: ReplayRate = .native, count: Int? = nil) throws -> StageMetricsSummary {
        let recording = try Recording.load(path: path)
        let plan = try ReplayPlan(samples: recording.samples, hasTimestamps: true, rate: rate, speed: .maximum)
        var delivered = Array(plan.deliveredSamples(recording.samples))
        if let count { delivered = Array(delivered.prefix(count)) }
        let pipeline = try StageCatalog.standard.pipeline(spec, context: StageContext(sampleRate: plan.sampleRate))
        let metrics = StageMetrics(pipeline: pipeline, samples: delivered, sampleRate: plan.sampleRate,
                                   hasGyroscope: recording.schema.hasGyroscope)
        return metrics.summary
    }

    func expectReport(_ report: ReplayReport, equals metrics: StageMetricsSummary,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.whole == metrics.whole, sourceLocation: sourceLocation)
        #expect(report.stages == metrics.stages, sourceLocation: sourceLocation)
        #expect(report.stillSegments == metrics.stillSegmentCount, sourceLocation: sourceLocation)
        #expect(report.noiseSegment == metrics.noiseSegment, sourceLocation: sourceLocation)
    }

    @Test func sessionReportEqualsTheDeliveredFiguresAsRecordedResampledAndInFrameMode() throws {
        let path = Self.data("phone-tilt-steer-100hz.csv")
        let spec = "lowpass:cutoff=5 | oneeuro:mincutoff=0.1,beta=2,dcutoff=1"
        let plain = try ReplaySession(ReplayRequest(path: path, pipeline: spec, speed: .maximum))
        #expect(plain.scan.sampleCount == (try Recording.load(path: path)).samples.count)
        expectReport(try plain.run(clock: MonotonicClock()), equals: try deliveredFigures(path: path, spec: spec))
        let resampled = try ReplaySession(ReplayRequest(path: path, pipeline: spec, rate: .fixed(60), speed: .maximum))
        expectReport(try resampled.run(clock: MonotonicClock()), equals: try deliveredFigures(path: path, spec: spec, rate: .fixed(60)))
        let frames = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=2", speed: .maximum, frameRate: 30))
        let report = try frames.run(clock: MonotonicClock())
        #expect(report.frames?.comparison.callback.jitter != nil)
        expectReport(report, equals: try deliveredFigures(path: path, spec: "lowpass:cutoff=2"))
    }

    @Test func frameModeMeasuresTheFramesOnEveryStillSegment() throws {
        let path = try Self.write(simulatedMotion(seconds: 30))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "factor:k=0.1", speed: .maximum, frameRate: 25))
        let report = try session.run(clock: MonotonicClock())
        let comparison = try #require(report.frames?.comparison)
        #expect(report.stillSegments == 5)
        #expect(comparison.frameTime.jitter?.segments == 5 && comparison.callback.jitter?.segments == 5)
        expectReport(report, equals: try deliveredFigures(path: path, spec: "factor:k=0.1"))
    }

    @Test func stoppedReplayMeasuresTheDeliveredPrefix() throws {
        let path = try Self.write(simulatedMotion())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=3", speed: .maximum))
        var polls = 0
        let report = try session.run(clock: MonotonicClock(), shouldStop: { polls += 1; return polls > 1000 })
        #expect(report.stopped && report.samples == 1000)
        expectReport(report, equals: try deliveredFigures(path: path, spec: "lowpass:cutoff=3", count: 1000))
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

    /// The scan's rate is the one every command uses (`nominalSampleRate(of:)`: the first 2048
    /// rows), also on recordings longer than that whose whole-file median differs.
    @Test(arguments: ["walking.csv", "phone-tilt-steer-100hz.csv", "rotations-with-breaks.csv"])
    func scanCountsEverySampleAndFindsTheRecordingsRate(name: String) throws {
        let path = Self.data(name)
        let scan = try RecordingScan(path: path)
        let recording = try Recording.load(path: path)
        #expect(scan.sampleCount == recording.samples.count && recording.samples.count > 2048)
        #expect(scan.firstTime == recording.samples.first?.time && scan.lastTime == recording.samples.last?.time)
        #expect(scan.nominalRate == nominalSampleRate(of: Array(recording.samples.prefix(2048))))
        #expect(scan.nominalRate == nominalSampleRate(of: recording.samples))
    }
}
