import Foundation
import Testing
import Poise
import PoiseRecording

/// `poise fuse` streams (reads in chunks, writes each row as it goes); its output must be exactly
/// what the library's estimator gives on the whole recording in memory.
@Suite struct FuseCommandTests {
    static var root: URL { SpectrumCommandTests.packageRoot }

    /// Checks `text` (the output CSV of `poise fuse`) row by row against the library's estimator
    /// run on `samples` at `rate` in `mode` (ENU): every fused quantity, exactly (the CSV holds
    /// each number's shortest round-trip form).
    /// `preset` gives the configuration at a rate (default: the defaults).
    static func expectMatchesEstimator(_ text: String, _ samples: [MotionSample], rate: Double, nine: Bool,
                                       preset: (Double) -> DeviceMotionConfiguration = { DeviceMotionConfiguration(sampleRate: $0) }) throws {
        var configuration = preset(rate)
        configuration.reference = nine ? .magneticNorthZVertical : .arbitraryZVertical
        var estimator = DeviceMotionEstimator(configuration: configuration)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        #expect(lines.count == samples.count + 1)
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no column \(name)") }
        let vectors: [(String, KeyPath<DeviceMotion, SIMD3<Double>>)] = [
            ("grav", \.gravity), ("uacc", \.userAcceleration), ("gyr", \.rotationRate), ("bias", \.bias)]
        let quaternion = try ["att_qw", "att_qx", "att_qy", "att_qz"].map(column)
        let time = try column("t_s"), heading = try column("heading_deg"), rest = try column("at_rest")
        let vectorColumns = try vectors.map { name, _ in
            try ["x", "y", "z"].map { try column("\(name)_\($0)_\(name == "gyr" || name == "bias" ? "radps" : "g")") }
        }
        for (sample, line) in zip(samples, lines.dropFirst()) {
            let motion = estimator.process(sample)
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(Double(fields[time]) == motion.time)
            #expect(quaternion.map { Double(fields[$0]) } == [motion.attitude.w, motion.attitude.x, motion.attitude.y, motion.attitude.z])
            for ((_, path), columns) in zip(vectors, vectorColumns) {
                let v = motion[keyPath: path]
                #expect(columns.map { Double(fields[$0]) } == [v.x, v.y, v.z])
            }
            #expect(Double(fields[heading]) == motion.heading)
            #expect(fields[rest] == (motion.flags.contains(.atRest) ? "1" : "0"))
        }
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
        try Self.expectMatchesEstimator(text, samples, rate: rate, nine: true)
        // Standard output gets the same bytes; --json gives the summary only.
        let printed = try PoiseProcess.run(["fuse", input, "--mode", "9d"])
        #expect(printed.stdout == text)
        let summary = try json(try PoiseProcess.run(["fuse", input, "--mode", "6d", "--json"]).stdout)
        #expect(summary["samples"] as? Int == samples.count)
        #expect(abs((summary["sample_rate_hz"] as? Double ?? 0) - rate) < 1e-9)
        #expect(scratch.leftovers.isEmpty)
    }

    /// `--preset fast|vqf` starts from `DeviceMotionConfiguration.fast` / `.vqfDefaults`, and
    /// `--set` changes the preset's values.
    @Test func presetsAreTheLibrarysConfigurations() throws {
        let input = Self.root.appendingPathComponent("data/rotations-with-breaks.csv").path
        let samples = try Recording.load(path: input).samples
        let rate = try #require(DeviceMotionConfiguration.estimatedSampleRate(of: Array(samples.prefix(2048))))
        let vqf = try PoiseProcess.run(["fuse", input, "--mode", "9d", "--preset", "vqf"])
        #expect(vqf.status == 0, "\(vqf.stderr)")
        try Self.expectMatchesEstimator(vqf.stdout, samples, rate: rate, nine: true, preset: { .vqfDefaults(sampleRate: $0) })
        let fast = try PoiseProcess.run(["fuse", input, "--mode", "6d", "--preset", "fast"])
        try Self.expectMatchesEstimator(fast.stdout, samples, rate: rate, nine: false, preset: { .fast(sampleRate: $0) })
        #expect(fast.stdout != vqf.stdout)
        let changed = try PoiseProcess.run(["fuse", input, "--mode", "9d", "--preset", "vqf", "--set", "correctionRate=5"])
        try Self.expectMatchesEstimator(changed.stdout, samples, rate: rate, nine: true, preset: {
            var c = DeviceMotionConfiguration.vqfDefaults(sampleRate: $0)
            c.correctionRate = 5
            return c
        })
        let refused = try PoiseProcess.run(["fuse", input, "--preset", "slow"])
        #expect(refused.status == 64 && refused.stderr.contains("slow"), "\(refused.stderr)")
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
        try Self.expectMatchesEstimator(result.stdout, samples, rate: 50, nine: false)
        #expect(samples.last?.time == 299.0 / 50)
    }
}
