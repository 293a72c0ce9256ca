import Foundation
import Poise
import PoiseRecording
import Testing

/// One rate for every command (docs/conventions.md, "The recording's rate"): `fuse`, `evaluate`
/// and `info` find a recording's rate with `nominalSampleRate(of:)`, so `evaluate FILE` is the
/// score of what `fuse FILE` writes, to the last digit.
@Suite struct RecordingRateTests {
    static var root: URL { SpectrumCommandTests.packageRoot }

    /// The number under `key` in a JSON object's text, read with `Double(_:)` (exactly the value
    /// written: Foundation's JSON parser can be off in the last digit).
    static func number(_ key: String, in text: String) throws -> Double {
        let start = try #require(text.range(of: "\"\(key)\":")).upperBound
        let digits = text[start...].prefix { "0123456789+-.eE".contains($0) }
        return try #require(Double(String(digits)), "\(key) in \(text)")
    }

    /// The BROAD score of the attitude in `fuse`'s output CSV against `samples`' ground truth
    /// (rows in order, moving rows only when the recording has a movement column).
    static func score(fused text: String, samples: [MotionSample], alignHeading: Bool) throws -> OrientationError {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        let columns = try ["att_qw", "att_qx", "att_qy", "att_qz"].map { try #require(header.firstIndex(of: $0)) }
        #expect(lines.count == samples.count + 1)
        var accumulator = OrientationErrorAccumulator()
        for (sample, fields) in zip(samples, lines.dropFirst()) {
            guard sample.movement ?? true, let truth = sample.truth else { continue }
            let q = try columns.map { try #require(Double(fields[$0])) }
            _ = accumulator.add(estimate: Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]), truth: truth)
        }
        return accumulator.result(alignHeading: alignHeading)
    }

    /// On the default recording the first 2048 rows' median interval (100.2004 Hz) differs from
    /// the whole file's (100.1001 Hz): `evaluate` must use the same one as `fuse`, from a file and
    /// from standard input alike.
    @Test(arguments: ["9d", "6d"])
    func evaluateScoresWhatFuseWrites(mode: String) throws {
        let input = Self.root.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        let samples = try Recording.load(path: input).samples
        let rate = try #require(nominalSampleRate(of: samples))
        #expect(String(format: "%.4f", rate) == "100.2004")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("fused.csv")
        let fused = try PoiseProcess.run(["fuse", input, "--mode", mode, "--out", out, "--json"])
        #expect(fused.status == 0, "\(fused.stderr)")
        #expect(try Self.number("sample_rate_hz", in: fused.stdout) == rate)
        let expected = try Self.score(fused: try String(contentsOfFile: out, encoding: .utf8), samples: samples,
                                      alignHeading: mode == "6d")
        #expect(expected.count > 1000)
        let evaluated = try PoiseProcess.run(["evaluate", input, "--mode", mode, "--json"])
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let piped = try PoiseProcess.run(["evaluate", "-", "--mode", mode, "--json"],
                                         standardInput: try FileHandle(forReadingFrom: URL(fileURLWithPath: input)))
        #expect(piped.status == 0, "\(piped.stderr)")
        for output in [evaluated.stdout, piped.stdout] {
            #expect(try Self.number("sample_rate_hz", in: output) == rate)
            #expect(try Self.number("total_rmse_deg", in: output) == expected.total)
            #expect(try Self.number("heading_rmse_deg", in: output) == expected.heading)
            #expect(try Self.number("inclination_rmse_deg", in: output) == expected.inclination)
            #expect(try Self.number("heading_offset_deg", in: output) == expected.headingOffset)
            #expect(try Self.number("scored_samples", in: output) == Double(expected.count))
        }
    }

    func infoText(_ path: String) throws -> String {
        try PoiseProcess.run(["info", path, "--json"]).stdout.replacingOccurrences(of: " ", with: "")
    }

    /// A recording whose rate changes after the first 2048 rows (100 Hz, then 50 Hz for longer):
    /// every command sets itself up for 100 Hz, and `info` says so and how, next to the whole
    /// file's median (50 Hz).
    @Test func theFirstRowsDecideAndInfoSaysHow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,gt_qw,gt_qx,gt_qy,gt_qz\n"
        var t = 0.0
        for i in 0 ..< 7000 {
            text += "\(t),0.001,0.002,1,0.01,-0.02,0.005,1,0,0,0\n"
            t += i < 2047 ? 0.01 : 0.02
        }
        let path = scratch.path("two-rates.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let info = try json(try PoiseProcess.run(["info", path, "--json"]).stdout)
        let nominal = try #require(info["nominal_rate_hz"] as? Double)
        #expect(abs(nominal - 100) < 1e-6)
        #expect(info["nominal_rate_basis"] as? String == "median interval of the first 2048 rows")
        #expect(abs((info["sample_rate_hz"] as? Double ?? 0) - 50) < 1e-6)
        let printed = try PoiseProcess.run(["info", path]).stdout
        #expect(printed.contains("rate for processing: 100.0000 Hz (median interval of the first 2048 rows"), "\(printed)")
        let fused = try PoiseProcess.run(["fuse", path, "--mode", "6d", "--json"]).stdout
        let evaluated = try PoiseProcess.run(["evaluate", path, "--mode", "6d", "--json"]).stdout
        #expect(try Self.number("sample_rate_hz", in: fused) == Self.number("nominal_rate_hz", in: infoText(path)))
        #expect(try Self.number("sample_rate_hz", in: evaluated) == Self.number("sample_rate_hz", in: fused))
        // A file without times: the rate given, and info says it was given.
        let untimed = try scratch.recording("untimed.csv", count: 100, rate: 40, timeColumn: false)
        let given = try json(try PoiseProcess.run(["info", untimed, "--rate", "40", "--json"]).stdout)
        #expect(given["nominal_rate_hz"] as? Double == 40 && given["nominal_rate_basis"] as? String == "given with --rate")
    }
}
