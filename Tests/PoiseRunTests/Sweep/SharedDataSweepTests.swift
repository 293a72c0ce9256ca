import Foundation
import Poise
import PoiseRecording
import PoiseRun
import Testing

/// The x-io example recording in ../shared/data (nil when the folder is absent, as in a fresh clone).
private let xioRecording: String? = {
    var url = URL(fileURLWithPath: #filePath)
    while url.pathComponents.count > 1 {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            let path = url.deletingLastPathComponent().appendingPathComponent("shared/data/xio/sensor_data.csv").path
            return FileManager.default.fileExists(atPath: path) ? path : nil
        }
    }
    return nil
}()

@Suite("Sweep on the x-io example recording (../shared/data)")
struct SharedDataSweepTests {
    @Test("factor sweep on real data: known latencies at 99.2 Hz, smoothing lowers jitter and adds lag",
          .enabled(if: xioRecording != nil, "../shared/data/xio/sensor_data.csv is absent (fresh clone): skipped"))
    func xio() throws {
        let path = try #require(xioRecording)
        let recording = try Recording.load(path: path)
        let input = try SweepRecording(name: path, samples: recording.samples)
        #expect(abs(input.sampleRate - 99.2) < 0.1)   // median step 10.08 ms
        #expect(!input.stillSegments.isEmpty && !input.movingSegments.isEmpty)
        let sweep = try FilterSweep(filter: "factor", grid: "k=0.1/0.2")
        let result = try Sweeper.run(sweep.settings, on: [input], target: .latencySamples(22), threads: 2)
        let (slow, fast) = (result.points[0], result.points[1])
        #expect(slow.tilt.samples == 22 && fast.tilt.samples == 11)   // ⌈ln 0.1 / ln(1 − k)⌉, any rate
        #expect(slow.jitter < fast.jitter && fast.jitter < fast.rawJitter)
        #expect(slow.lagMilliseconds! > fast.lagMilliseconds!)
        #expect(result.recommendation == 0)
    }
}
