import Foundation
import Poise
import PoiseRecording
import PoiseRun
import Testing
@testable import PoiseReports

/// A file's report reads its later passes from the spool the scan wrote: the page is the page of
/// the same samples held in memory, and every pass sees exactly the file's samples.
@Suite struct ReportInputTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }()

    @Test(arguments: ["tilt-steps.csv", "rotations-with-breaks.csv"])
    func theFilesPageIsThePageOfItsSamplesInMemory(name: String) throws {
        let path = Self.root.appendingPathComponent("data/\(name)").path
        var options = ReportOptions()
        options.threads = 2
        let streamed = try RecordingReport(input: ReportInput(path: path), options: options)
        let held = try RecordingReport(recording: try Recording.load(path: path), options: options)
        #expect(streamed.passes >= 4)
        #expect(streamed.pipeline == held.pipeline)
        #expect(streamed.html() == held.html())
    }

    @Test func everyPassAfterTheScanReadsTheFilesSamples() throws {
        let path = Self.root.appendingPathComponent("data/walking.csv").path
        let input = ReportInput(path: path)
        let scan = try input.scanRecording()
        let samples = try Recording.load(path: path).samples
        #expect(scan.count == samples.count)
        // After the scan the passes read the spool, not the file.
        #expect(String(reflecting: type(of: try input.open())).contains("SampleSpool"))
        for _ in 0..<2 {
            var read: [MotionSample] = []
            var done: [Int] = []
            _ = try input.run(into: SinkPair(ChunkSink(size: ReportInput.chunkSize) { read += $0 }, PassProgress(step: 1000) { done.append($0) }))
            #expect(read == samples)
            // The progress after every 1000 samples and at the end.
            #expect(done == Array(stride(from: 1000, through: samples.count, by: 1000)) + (samples.count % 1000 == 0 ? [] : [samples.count]))
        }
    }
}
