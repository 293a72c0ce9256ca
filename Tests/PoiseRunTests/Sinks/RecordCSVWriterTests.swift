import Foundation
import Testing
import Poise
import PoiseRecording
@testable import PoiseRun

/// `RecordCSVWriter` as a run's sink: the rows `Run` hands it are the per-sample loop's, the file
/// appears only when the run completes.
@Suite struct RecordCSVWriterTests {
    @Test func runWritesTheHeaderAndOneRowPerRecordInOrder() throws {
        let samples = simulatedMotion(seconds: 60)   // 6000 rows: more than one chunk of the run
        let (input, source) = try openedRecording(samples)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let output = input + ".out.csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let pipeline = Pipeline([DeviceMotionStage(nineAxis: false, sampleRate: 100)])
        let columns = RecordColumns(outputs: pipeline.outputs, magnetometer: false)
        var writer = try RecordCSVWriter(path: output, columns: columns)
        var run = Run(source: source, pipeline: pipeline, clock: AsFastAsPossible())
        let end = try run.run(into: &writer).end
        #expect(end == RunEnd(samples: samples.count, stopped: false))

        var lines = RecordLines(columns: columns)
        let expected = [lines.header] + processed(try Recording.load(path: input).samples, pipeline).map { lines.line($0) }
        let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written.count == samples.count + 1)
        #expect(written == expected)
    }

    @Test func aStoppedRunLeavesNoFile() throws {
        let (input, source) = try openedRecording(simulatedMotion(seconds: 60))
        defer { try? FileManager.default.removeItem(atPath: input) }
        let output = input + ".stopped.csv"
        var writer = try RecordCSVWriter(path: output, columns: RecordColumns(outputs: [], magnetometer: false))
        var run = Run(source: source, pipeline: Pipeline(), clock: AsFastAsPossible())
        let end = try run.run(into: &writer, shouldStop: { true }).end
        #expect(end.stopped)
        #expect(end.samples == Run<AsFastAsPossible>.chunkSize)
        #expect(!FileManager.default.fileExists(atPath: output))
        let folder = (output as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix((output as NSString).lastPathComponent) }
        #expect(leftovers.isEmpty)
    }
}
