import Foundation
import Testing

/// Hostile numeric options and time spans, run through the built `poise` as a user would: each
/// case asserts the exit code (64 for a bad option, 1 for bad data), that the message names the
/// option, the value and the allowed range (or says what is wrong with the data), that nothing
/// trapped, and that the input file is unchanged. Inputs are a few hundred rows; no case is
/// allowed to do work that grows with an absurd value, so every case finishes in about a second.
@Suite struct HostileOptionTests {
    /// A 300-row recording at 100 Hz, and the same rows with `t_s` in epoch nanoseconds (read
    /// as seconds: 1.7e18 s from the epoch, 1e7 s apart).
    struct Files {
        let scratch: Scratch
        let seconds: String
        let nanoseconds: String
        let tiny: String

        init() throws {
            scratch = try Scratch()
            seconds = try scratch.recording("seconds.csv", count: 300, rate: 100)
            var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
            for i in 0 ..< 300 {
                text += "\(1_700_000_000_000_000_000 + Int64(i) * 10_000_000),0.001,0,1,0.001,-0.002,0.003\n"
            }
            nanoseconds = scratch.path("nanoseconds.csv")
            try text.write(toFile: nanoseconds, atomically: true, encoding: .utf8)
            tiny = try scratch.recording("two-rows.csv", count: 2, rate: 100)
        }
    }

    /// Runs `poise arguments…`, checks that it did not trap and left `input` as it was.
    func run(_ arguments: [String], input: String) throws -> PoiseProcess {
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = try PoiseProcess.run(arguments)
        #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        #expect(result.status != 132 && result.status != 133 && result.status != 134, "\(arguments) trapped")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "\(arguments) changed its input")
        return result
    }

    /// Every numeric option outside its range: exit 64 and a message with the option, the value
    /// as typed (negative numbers are values, not missing ones) and the range.
    @Test(arguments: [
        (["info", "FILE", "--rate", "-5"], ["--rate", "-5", "between 1 and 100000 Hz"]),
        (["info", "FILE", "--rate", "1e9"], ["--rate", "1000000000", "between 1 and 100000 Hz"]),
        (["replay", "FILE", "--rate", "-5"], ["--rate", "'-5'", "between 1 and 100000 Hz"]),
        (["replay", "FILE", "--speed", "1e-12"], ["--speed", "1e-12", "between 0.001 and 1000"]),
        (["replay", "FILE", "--speed", "1e-300"], ["--speed", "1e-300", "between 0.001 and 1000"]),
        (["replay", "FILE", "--speed", "-2"], ["--speed", "-2", "between 0.001 and 1000"]),
        (["replay", "FILE", "--frame-rate", "1e9"], ["--frame-rate", "1000000000", "between 1 and 1000 Hz"]),
        (["replay", "FILE", "--frame-rate", "-30"], ["--frame-rate", "-30", "between 1 and 1000 Hz"]),
        (["tilt", "FILE", "--frame-rate", "1e9"], ["--frame-rate", "1000000000", "between 1 and 1000 Hz"]),
        (["tilt", "FILE", "--dead-zone", "-3"], ["--dead-zone", "-3", "between 0 and 90 degrees"]),
        (["tilt", "FILE", "--saturation", "2"], ["--saturation", "2", "greater than 3"]),
        (["tilt", "FILE", "--smoothing", "-1"], ["--smoothing", "-1", "between 0 and 3600 s"]),
        (["jitter", "FILE", "--filter", "lowpass:cutoff=5", "--rate", "-100"], ["--rate", "-100", "between 1 and 100000 Hz"]),
        (["step", "--filter", "lowpass:cutoff=5", "--rate", "0"], ["--rate", "0", "between 1 and 100000 Hz"]),
        (["response", "--filter", "lowpass:cutoff=5", "--rate", "-100"], ["--rate", "-100", "between 1 and 100000 Hz"]),
        (["response", "--filter", "lowpass:cutoff=5", "--rate", "100", "--length", "100000000"], ["--length", "100000000", "between 16 and 4194304 samples"]),
        (["spectrum", "FILE", "--nperseg", "-3"], ["--nperseg", "-3", "between 8 and 1048576 samples"]),
        (["spectrum", "FILE", "--peaks", "-1"], ["--peaks", "-1", "between 0 and 100"]),
        (["spectrum", "FILE", "--rate", "-50"], ["--rate", "-50", "between 1 and 100000 Hz"]),
        (["fuse", "FILE", "--sample-rate", "-100"], ["--sample-rate", "-100", "between 1 and 100000 Hz"]),
        (["evaluate", "FILE", "--declination", "400"], ["--declination", "400", "between -180 and 180 degrees"]),
        (["bench", "FILE", "--filter", "factor", "--threads", "100000"], ["--threads", "100000", "between 1 and 256"]),
        (["bench", "FILE", "--filter", "factor", "--target-jitter", "-1"], ["--target-jitter", "-1", "greater than 0"]),
        (["report", "FILE", "--out", "OUT", "--target-latency-ms", "-5"], ["--target-latency-ms", "-5", "greater than 0"]),
        (["simulate", "--scenario", "still", "--rate", "-5", "--out", "OUT"], ["--rate", "-5", "between 1 and 100000 Hz"]),
        (["simulate", "--scenario", "still", "--digits", "40", "--out", "OUT"], ["--digits", "40", "between 1 and 17"]),
    ] as [([String], [String])])
    func outOfRangeOptionIsAUsageErrorThatSaysTheRange(arguments: [String], expected: [String]) throws {
        try expectUsageError(arguments, saying: expected)
    }

    /// Runs `arguments` (FILE: the 300-row recording, OUT: an output path) and checks exit 64,
    /// every expected part in the message, and no output written.
    func expectUsageError(_ arguments: [String], saying expected: [String]) throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let output = files.scratch.path("out.file")
        let resolved = arguments.map { $0 == "FILE" ? files.seconds : $0 == "OUT" ? output : $0 }
        let result = try run(resolved, input: files.seconds)
        #expect(result.status == 64, "\(arguments): exit \(result.status), \(result.stderr)")
        for part in expected { #expect(result.stderr.contains(part), "\(arguments): '\(part)' not in \(result.stderr)") }
        #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(arguments) wrote an output")
    }

    /// A bad spec is a usage error wherever it is found bad (the grammar in the command's
    /// validation, a stage factory after the file's rate is known): exit 64, the message with
    /// the token and its column, no output file.
    @Test(arguments: [
        (["replay", "FILE", "--speed", "max", "--pipeline", "lowpas:cutoff=5", "--out", "OUT"], ["pipeline 'lowpas:cutoff=5'", "did you mean 'lowpass'"]),
        (["replay", "FILE", "--speed", "max", "--pipeline", "lowpass:cutoff=5 | butter:lowpass,order=9"], ["stage 2", "'order=9' at column 35"]),
        (["jitter", "FILE", "--filter", "lowpas"], ["--filter", "unknown filter 'lowpas'"]),
        (["bench", "FILE", "--filter", "factor", "--grid", "q=1"], ["grid 'q=1'", "sweeps k"]),
        (["report", "FILE", "--pipeline", "lowpass:cutoff=-1", "--out", "OUT"], ["pipeline 'lowpass:cutoff=-1'", "'cutoff=-1' at column 9"]),
    ] as [([String], [String])])
    func badSpecIsAUsageError(arguments: [String], expected: [String]) throws {
        try expectUsageError(arguments, saying: expected)
    }

    /// `simulate --duration 1e9` says the real limit (not "must be a positive number"), and a long
    /// duration at a high rate names the sample limit; nothing is written.
    @Test func simulateDurationSaysTheLimit() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let output = files.scratch.path("sim.csv")
        let long = try run(["simulate", "--scenario", "still", "--duration", "1e9", "--out", output], input: files.seconds)
        #expect(long.status == 64)
        #expect(long.stderr.contains("--duration must be greater than 0 and at most 604800 s, got 1000000000"), "\(long.stderr)")
        #expect(!long.stderr.contains("positive number"))
        let many = try run(["simulate", "--scenario", "still", "--duration", "600000", "--rate", "1000", "--out", output],
                           input: files.seconds)
        #expect(many.status == 64)
        #expect(many.stderr.contains("600000000 samples") && many.stderr.contains("at most 100000000"), "\(many.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Epoch nanoseconds read as seconds: `replay --speed max` delivers without a trap (the
    /// deadline conversion is clamped); the same file with a frame rate, and `tilt` with one,
    /// refuse up front (1.7e18 s would be ~1e11 frames) and say why: the sample-rate check names
    /// the time unit, and the frame-count bound behind it asks whether the times are in seconds.
    @Test func nanosecondTimesDoNotTrapOrRunForever() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let replay = try run(["replay", files.nanoseconds, "--speed", "max", "--pipeline", "none", "--json"], input: files.nanoseconds)
        #expect(replay.status == 0 || replay.status == 1, "exit \(replay.status): \(replay.stderr)")
        if replay.status == 0 { #expect(!(try json(replay.stdout)).isEmpty) }
        let frames = try run(["replay", files.nanoseconds, "--speed", "max", "--frame-rate", "30"], input: files.nanoseconds)
        #expect(frames.status == 1, "exit \(frames.status): \(frames.stderr)")
        #expect(frames.stderr.contains("--time-unit ns") || frames.stderr.contains("are the times in seconds?"), "\(frames.stderr)")
        let tilt = try run(["tilt", files.nanoseconds, "--source", "gravity", "--frame-rate", "60"], input: files.nanoseconds)
        #expect(tilt.status == 1, "exit \(tilt.status): \(tilt.stderr)")
        #expect(tilt.stderr.contains("--time-unit ns") || tilt.stderr.contains("are the times in seconds?"), "\(tilt.stderr)")
    }

    /// `spectrum` on a 2-row file says how many samples it needs, not which band is empty.
    @Test func spectrumOnTwoRowsSaysItNeedsMoreSamples() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let result = try run(["spectrum", files.tiny], input: files.tiny)
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("2 samples") && result.stderr.contains("needs at least 8"), "\(result.stderr)")
        #expect(!result.stderr.contains("band"), "\(result.stderr)")
    }

    /// A spectrogram too large to hold (905 segments × 2049 frequencies × 6 columns from a
    /// 5000-row file) is refused before it is computed, with how to make it smaller.
    @Test func oversizedSpectrogramIsRefusedWithAdvice() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let input = try files.scratch.recording("long.csv", count: 5000, rate: 100)
        let result = try run(["spectrum", input, "--spectrogram", "--csv", "--nperseg", "4096", "--overlap", "4095"], input: input)
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("905 segments × 2049 frequencies × 6 columns"), "\(result.stderr)")
        #expect(result.stderr.contains("--start/--end"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// Allowed edge values still run: the range is not off by one.
    @Test func edgesOfTheRangesAreAccepted() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        let fast = try run(["replay", files.seconds, "--rate", "1", "--speed", "100", "--frame-rate", "1000", "--pipeline", "none"],
                           input: files.seconds)
        #expect(fast.status == 0, "\(fast.stderr)")
        let slowFrames = try run(["tilt", files.seconds, "--frame-rate", "1", "--dead-zone", "0"], input: files.seconds)
        #expect(slowFrames.status == 0, "\(slowFrames.stderr)")
        // Samples from 0 to 2.99 s: frames at 0, 1, 2 and 3 s (the last one closes the samples after 2 s).
        #expect(slowFrames.stdout.split(separator: "\n").count == 1 + 4, "\(slowFrames.stdout)")
    }
}
