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
                       "Latency–jitter plane", "Power spectral density", "Spectrogram of |a|", "Attitude (9D", "Attitude error"] {
            #expect(html.contains(figure), "missing figure \(figure)")
        }
        // Self-contained: no scripts, no external sources or links, no NaN.
        #expect(!html.contains("<script"))
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
}
