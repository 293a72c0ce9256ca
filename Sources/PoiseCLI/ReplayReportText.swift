import Foundation
import Poise
import PoiseRun

/// The human-readable replay report (a few aligned tables).
enum ReplayReportText {
    static func render(_ report: ReplayReport) -> String {
        var out = ""
        func line(_ text: String = "") { out += text + "\n" }
        func number(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

        line("replay \(report.file)")
        line("  pipeline  \(report.pipeline)")
        var delivery = "\(report.samples) samples at \(number(report.sampleRate)) Hz"
        if report.resampled {
            delivery += " (resampled from \(report.recordedRate.map { number($0) } ?? "?") Hz"
            delivery += report.antiAliasCutoff.map { ", anti-alias low-pass \(number($0)) Hz)" } ?? ")"
        } else if report.recordedRate == nil {
            delivery += " (no timestamps in the file)"
        } else {
            delivery += " (recorded timestamps)"
        }
        delivery += report.speed.map { ", speed \(number($0, 2).replacingOccurrences(of: ".00", with: ""))×" } ?? ", speed max"
        if report.realTimeScheduling { delivery += ", real-time priority" }
        if report.loops > 1 { delivery += ", \(report.loops) passes" }
        line("  delivery  \(delivery)")
        if report.stopped { line("  stopped   by Ctrl-C or SIGTERM; the figures cover the samples delivered") }
        if report.gapCount > 0, let limit = report.gapLimit {
            let listed = report.gaps.prefix(5).map { "\(number($0.start, 3))–\(number($0.end, 3)) s" }.joined(separator: ", ")
            line("  gaps      \(report.gapCount) longer than \(number(limit, 3)) s skipped (\(number(report.skippedSeconds, 3)) s of recording time, each replayed as one period; --keep-gaps to wait them out): \(listed)\(report.gapCount > 5 ? ", …" : "")")
        }

        line()
        line("Filtering (latency to 90 % in samples at \(number(report.sampleRate)) Hz, stage outputs in the chain)")
        var notes: [String] = []
        notes.append(report.stillSegments == 0 ? "no still segment found: no jitter, no noisy step"
                     : "\(report.stillSegments) still segment\(report.stillSegments == 1 ? "" : "s") for jitter")
        if let noise = report.noiseSegment {
            notes.append("step noise from the still segment \(number(noise.lowerBound, 2))–\(number(noise.upperBound, 2)) s")
        }
        line("  " + notes.joined(separator: "; "))
        let header = ["stage", "tilt", "ms", "shake", "tilt+noise", "jitter g", "input g", "attenuation", "lag ms"]
        var rows = [header]
        for stage in report.stages.isEmpty ? [report.whole] : report.stages {
            func steps(_ value: Int?) -> String { value.map(String.init) ?? "never" }
            rows.append([
                stage.stage,
                steps(stage.latency90Samples.tilt),
                stage.latency90Samples.tilt.map { number(Double($0) / report.sampleRate * 1000, 0) } ?? "-",
                steps(stage.latency90Samples.shake),
                stage.latency90NoisySamples.map { steps($0.tilt) } ?? "-",
                stage.jitter.map { String(format: "%.5f", $0.output) } ?? "-",
                stage.jitter.map { String(format: "%.5f", $0.input) } ?? "-",
                stage.jitter.map { number($0.attenuation) + "×" } ?? "-",
                stage.lagMilliseconds.map { number($0, 0) } ?? "-",
            ])
        }
        out += table(rows)

        line()
        line("Delivery timing")
        let t = report.timing
        if let lateness = t.latenessMicroseconds {
            line("  lateness µs     median \(number(lateness.p50))  p90 \(number(lateness.p90))  p99 \(number(lateness.p99))  max \(number(lateness.max))  mean \(number(lateness.mean))")
            line("  period jitter   \(number(t.periodJitterMicroseconds ?? 0)) µs")
            line("  drift           \(number(t.driftMicroseconds ?? 0)) µs (last − first lateness); trend \(number(t.driftTrendMicroseconds ?? 0)) µs (least-squares slope × span)")
            line("  late samples    \(t.lateSamples) (later than one period, \(number(t.lateThresholdMicroseconds / 1000, 2)) ms); none dropped")
        } else {
            line("  not paced (--speed max): no lateness")
        }
        if let cost = t.processingNanoseconds {
            line("  processing      median \(number(cost.p50, 0)) ns  p99 \(number(cost.p99, 0)) ns per sample")
        }
        line("  CPU             \(number(100 * t.cpuFraction)) % of one core (\(number(t.cpuSeconds, 2)) s CPU in \(number(t.wallSeconds, 2)) s)")
        if let send = report.send {
            var text = "  sent            \(send.sent) \(send.format) datagrams to \(send.target)"
            if let cost = send.costNanoseconds { text += ", send median \(number(cost.p50, 0)) ns, p99 \(number(cost.p99, 0)) ns" }
            line(text)
            if send.failed > 0 {
                line("  not sent        \(send.failed) datagrams (\(send.firstError ?? "refused"); nothing was listening, or the socket buffer was full)")
            }
        }
        if let frames = report.frames {
            line()
            line("Game loop at \(number(frames.frameRate)) Hz")
            line("  frames          \(frames.frames), samples per frame mean \(number(frames.meanStackedSamples, 2)), max \(frames.maximumStackedSamples)")
            if let lateness = frames.latenessMicroseconds {
                line("  frame lateness  median \(number(lateness.p50)) µs  p99 \(number(lateness.p99)) µs")
            }
            var rows = [["smoothing", "tilt 90 % ms", "jitter g", "input g", "attenuation"]]
            for (name, variant) in [("in the sensor callback", frames.comparison.callback),
                                    ("at frame time", frames.comparison.frameTime)] {
                rows.append([name,
                             variant.latency90Milliseconds.map { number($0) } ?? "never",
                             variant.jitter.map { String(format: "%.5f", $0.output) } ?? "-",
                             variant.jitter.map { String(format: "%.5f", $0.input) } ?? "-",
                             variant.jitter.map { number($0.attenuation) + "×" } ?? "-"])
            }
            out += table(rows)
        }
        return out
    }

    /// Left-aligned first column, right-aligned others, two spaces apart.
    static func table(_ rows: [[String]]) -> String {
        let widths = (0 ..< (rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            "  " + row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
