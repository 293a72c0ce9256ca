import Foundation
import Testing
import Poise
import PoiseRecording

/// `poise fuse` streams (reads in chunks, writes each row as it goes); its output must be exactly
/// what the library's estimator gives on the whole recording in memory.
@Suite struct FuseCommandTests {
    static var root: URL { SpectrumCommandTests.packageRoot }

    /// The CSV the library produces for `samples` at `rate` in `mode` (ENU).
    static func expected(_ samples: [MotionSample], rate: Double, nine: Bool) -> String {
        var configuration = DeviceMotionConfiguration(sampleRate: rate)
        configuration.reference = nine ? .magneticNorthZVertical : .arbitraryZVertical
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var text = DeviceMotionCSV.header(earthFrameUserAcceleration: false) + "\n"
        for sample in samples { DeviceMotionCSV.appendRow(estimator.process(sample), earthFrameUserAcceleration: false, to: &text) }
        return text
    }

    /// 5988 rows: more than one 4096-row chunk; the rate comes from the first 2048 rows.
    @Test func streamedOutputEqualsTheInMemoryEstimator() throws {
        let input = Self.root.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        let samples = try Recording.load(path: input).samples
        let rate = try #require(DeviceMotionConfiguration.estimatedSampleRate(of: Array(samples.prefix(2048))))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("motion.csv")
        let written = try PoiseProcess.run(["fuse", input, "--mode", "9d", "--out", out])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let reference = Self.expected(samples, rate: rate, nine: true)
        #expect(text.split(separator: "\n").count == samples.count + 1)
        #expect(text == reference)
        // Standard output gets the same bytes; --json gives the summary only.
        let printed = try PoiseProcess.run(["fuse", input, "--mode", "9d"])
        #expect(printed.stdout == reference)
        let summary = try json(try PoiseProcess.run(["fuse", input, "--mode", "6d", "--json"]).stdout)
        #expect(summary["samples"] as? Int == samples.count)
        #expect(abs((summary["sample_rate_hz"] as? Double ?? 0) - rate) < 1e-9)
        #expect(scratch.leftovers.isEmpty)
    }

    /// A file without a time column is fused at --sample-rate (row n at n / rate); without it the
    /// reader says which option to give.
    @Test func fileWithoutTimestampsNeedsTheSampleRate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording("notime.csv", count: 300, rate: 50, timeColumn: false)
        let refused = try PoiseProcess.run(["fuse", input, "--mode", "6d"])
        #expect(refused.status != 0 && refused.stderr.contains("--sample-rate HZ"), "\(refused.stderr)")
        let result = try PoiseProcess.run(["fuse", input, "--mode", "6d", "--sample-rate", "50"])
        #expect(result.status == 0, "\(result.stderr)")
        let samples = try Recording.load(path: input, options: ReadOptions(sampleRate: 50)).samples
        #expect(result.stdout == Self.expected(samples, rate: 50, nine: false))
        #expect(samples.last?.time == 299.0 / 50)
    }
}
