import Foundation
import Testing

/// Counts of `needle` in `text`.
private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

@Suite(.serialized) struct ReportCommandTests {
    /// End to end on a short simulated recording with ground truth: one self-contained page with
    /// every section, balanced tags, no external references, no NaN, numbers that agree with
    /// `poise step`.
    @Test func reportOfASimulatedRecording() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let csv = scratch.path("tilt-steps.csv")
        let simulated = try PoiseProcess.run(["simulate", "--scenario", "tilt-steps", "--duration", "12", "--out", csv])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let out = scratch.path("report.html")
        let result = try PoiseProcess.run(["report", csv, "--pipeline", "lowpass:cutoff=4", "--kinds", "lowpass,factor",
                                           "--threads", "2", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        // Progress goes to a terminal only; here standard error is a pipe.
        #expect(!result.stderr.contains("report:"), "\(result.stderr)")
        #expect(scratch.leftovers.isEmpty)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.utf8.count < 1_500_000)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))

        // Balanced elements.
        for tag in ["svg", "figure", "table", "g", "h2", "p"] {
            #expect(count("<\(tag) ", in: html) + count("<\(tag)>", in: html) == count("</\(tag)>", in: html), "<\(tag)> unbalanced")
        }
        #expect(count("<svg ", in: html) >= 10)
        // Every section, with its figures.
        for section in ["The recording", "Signals: raw and filtered", "Step responses", "Latency and jitter: the trade-off",
                        "Spectra", "Attitude from device-motion fusion"] {
            #expect(html.contains("<h2 id=\"s") && html.contains(">\(section)</h2>"), "missing section \(section)")
        }
        for figure in ["Acceleration: raw (light) and filtered (dark)", "Movement onset at", "Tilt step", "Shake step",
                       "Latency–jitter plane", "Power spectral density", "Spectrogram of |a|", "Roll (9D", "Pitch (9D", "Yaw (9D", "Attitude error"] {
            #expect(html.contains(figure), "missing figure \(figure)")
        }
        // Self-contained: one inline script (zoom and hover on the time plots), no external
        // sources or links, no NaN.
        #expect(count("<script", in: html) == 1 && html.contains("<script>\n") && !html.contains("<script src"))
        #expect(count("<svg class=\"plot zoomable\"", in: html) >= 8)
        #expect(!html.contains("http"))
        for attribute in ["src=\"http", "href=\"http", "src='http", "href=\"//", "url(http"] {
            #expect(!html.contains(attribute), "external reference \(attribute)")
        }
        #expect(!html.contains("NaN") && !html.contains("nan") && !html.contains("inf<"))

        // The latency in the summary agrees with `poise step` for the same filter at 100 Hz.
        let step = try PoiseProcess.run(["step", "--filter", "lowpass:cutoff=4", "--rate", "100", "--json"])
        let samples = try #require(try json(step.stdout)["latency90_samples"] as? Int)
        #expect(html.contains("<td>tilt latency to 90 %</td><td>\(samples) samples"), "expected \(samples) samples")
        // The sweep's recommendation is named in the narrative and the table.
        #expect(html.contains("Best for latency ≤ 100 ms:"))
    }

    @Test func badPipelineNamesTheStageAndWritesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let csv = try scratch.recording(count: 400, rate: 100)
        let out = scratch.path("bad.html")
        let result = try PoiseProcess.run(["report", csv, "--pipeline", "lowpas:cutoff=5", "--kinds", "lowpass", "--out", out])
        #expect(result.status != 0)
        #expect(result.stderr.contains("stage 1") && result.stderr.contains("did you mean 'lowpass'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(scratch.leftovers.isEmpty)
    }

    /// A real-time replay's JSON adds the replay-timing section: a lateness and a cost histogram
    /// whose bars are the JSON's non-empty bins, numbers from the same JSON, the replay's
    /// pipeline as the page's. A replay of another file, or a file that is not replay JSON, is
    /// refused with a message naming it, and nothing is written.
    @Test func replayTimingHistogramsFromReplayJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let csv = try scratch.recording("tilt.csv", count: 150, rate: 100)
        let replay = try PoiseProcess.run(["replay", csv, "--pipeline", "lowpass:cutoff=5", "--json", "--normal-priority"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayPath = scratch.path("replay.json")
        try replay.stdout.write(toFile: replayPath, atomically: true, encoding: .utf8)
        let object = try json(replay.stdout)
        let latenessBins = try #require(object["lateness_histogram_us"] as? [[String: Any]])
        let costBins = try #require(object["processing_histogram_ns"] as? [[String: Any]])
        #expect(latenessBins.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 150)

        let out = scratch.path("report.html")
        let result = try PoiseProcess.run(["report", csv, "--replay", replayPath, "--kinds", "lowpass", "--threads", "1", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pipeline lowpass:cutoff=5 (the pipeline of the replay given with --replay)"), "\(result.stdout)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let section = try #require(html.range(of: ">Replay timing</h2>")).upperBound
        let timing = String(html[section...].prefix { _ in true }.split(separator: "<h2", maxSplits: 1)[0])
        #expect(timing.contains("Delivery lateness") && timing.contains("Processing cost per sample"))
        #expect(timing.contains("delivered 150 samples"))
        // One bar per non-empty bin (the bins are drawn, gaps between them are not).
        #expect(timing.contains("data-bars=\"\(latenessBins.count)\""), "expected \(latenessBins.count) lateness bars")
        #expect(timing.contains("data-bars=\"\(costBins.count)\""), "expected \(costBins.count) cost bars")
        let lateness = try #require(object["lateness_us"] as? [String: Any])
        let p50 = try #require(lateness["p50"] as? Double)
        // Three significant digits. JSONSerialization (here) and JSONDecoder (the report) may read
        // the same decimal into neighbouring doubles, which round apart at a tie (0.4795): either.
        func threeDigits(_ x: Double) -> String {
            x >= 1000 ? String(format: "%.0f", x) : String(format: "%.\(max(0, 2 - Int(floor(log10(abs(x))))))f", x)
        }
        let medians = Set([p50 * (1 - 1e-12), p50, p50 * (1 + 1e-12)].map(threeDigits))
        #expect(medians.contains { timing.contains("median of \($0) µs") }, "\(medians)")
        #expect(!html.contains("<script src") && !html.contains("nan"))

        // Refusals.
        let other = try scratch.recording("other.csv", count: 150, rate: 100)
        let wrongFile = try PoiseProcess.run(["report", other, "--replay", replayPath, "--kinds", "lowpass", "--out", scratch.path("o.html")])
        #expect(wrongFile.status != 0 && wrongFile.stderr.contains("tilt.csv") && wrongFile.stderr.contains("other.csv"), "\(wrongFile.stderr)")
        try "{\"file\": \"tilt.csv\"}".write(toFile: scratch.path("bad.json"), atomically: true, encoding: .utf8)
        let notReplay = try PoiseProcess.run(["report", csv, "--replay", scratch.path("bad.json"), "--kinds", "lowpass", "--out", scratch.path("b.html")])
        #expect(notReplay.status != 0 && notReplay.stderr.contains("bad.json") && notReplay.stderr.contains("missing key"), "\(notReplay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("o.html")) && !FileManager.default.fileExists(atPath: scratch.path("b.html")))
        #expect(scratch.leftovers.isEmpty)
    }
}
