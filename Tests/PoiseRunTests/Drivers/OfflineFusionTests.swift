import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// `OfflineFusion`: a run into the spool, then the smoother over it into the caller's sink.
@Suite struct OfflineFusionTests {
    /// The spool gives back each record as it left the stages before fusion.
    @Test func spoolKeepsTheRecordsBitForBit() throws {
        let samples = simulatedMotionWithTruth()
        let (input, source) = try openedRecording(samples, truth: true, movement: true)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let pipeline = Pipeline([RemapStage(remap: FrameRemap(orientation: .landscapeLeft), description: "landscapeLeft")])
        var spool = try ProcessedSampleSpool()
        var run = Run(source: source, pipeline: pipeline, clock: AsFastAsPossible())
        _ = try run.run(into: &spool)
        let expected = processed(try Recording.load(path: input).samples, pipeline)
        #expect(spool.count == expected.count)
        for (i, record) in expected.enumerated() {
            let kept = spool.record(i)
            #expect(kept.input == record.input)
            #expect(kept.acceleration == record.acceleration && kept.rotationRate == record.rotationRate)
            #expect(kept.magneticField == record.magneticField)
        }
    }

    /// The sink receives, in order, the smoother's estimate of the recording in memory.
    @Test func sinkGetsTheSmoothersEstimate() throws {
        let samples = simulatedMotion()
        let (input, source) = try openedRecording(samples)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let configuration = DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .arbitraryZVertical)
        var attitudes: [Quaternion<Double>] = []
        var all = SinkPair(SinkPair(LastRecordSink(), FusionFlagCounter([("at_rest", .atRest)])), ClosureSink { attitudes.append($0.attitude!) })
        let outcome = try OfflineFusion(configuration: configuration, options: DeviceMotionSmoother.Options())
            .run(source, stages: [], into: &all)
        #expect(outcome.end == RunEnd(samples: samples.count, stopped: false))
        let expected = DeviceMotionSmoother(configuration: configuration).smooth(try Recording.load(path: input).samples)
        #expect(attitudes == expected.map(\.attitude))
        #expect(outcome.summary.0.0?.time == samples.last?.time)
    }

    /// Stopped while reading: no smoothing, the sink's `finish` sees the stop.
    @Test func stopWhileReadingEndsWithoutRecords() throws {
        let (input, source) = try openedRecording(simulatedMotion(seconds: 60))
        defer { try? FileManager.default.removeItem(atPath: input) }
        var last = LastRecordSink()
        let outcome = try OfflineFusion(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .arbitraryZVertical),
                                        options: DeviceMotionSmoother.Options())
            .run(source, stages: [], into: &last, shouldStop: { true })
        #expect(outcome.end.stopped)
        #expect(outcome.summary == nil)
        #expect(outcome.calibration == nil)
    }
}
