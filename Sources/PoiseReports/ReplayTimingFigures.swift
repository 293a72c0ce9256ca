import Foundation
import PoiseRun

/// The "Replay timing" section of a ``RecordingReport``: delivery timing of a real-time replay
/// (conventions.md "Replay timing") from the JSON of `poise replay --json`.
///
/// The report itself never replays in real time — its pages must not depend on the machine's
/// load — so the timing comes from a replay the user ran: `poise replay FILE --pipeline SPEC
/// --json > replay.json`, then `poise report FILE --replay replay.json`.
struct ReplayTimingFigures {
    let replay: ReplayReport

    /// Bars of a histogram on a log x axis: bins with a lower edge ≤ 0 (values ≤ 0, only seen
    /// with a simulated clock) are drawn from half their upper edge.
    static func bars(_ bins: [HistogramBin]) -> (edges: [Double], counts: [Double]) {
        var edges: [Double] = [], counts: [Double] = []
        for bin in bins {
            let from = bin.from > 0 ? bin.from : bin.to / 2
            if let last = edges.last, last < from {
                // A gap between non-empty bins: an empty bar keeps the edges in order.
                counts.append(0)
                edges.append(from)
            } else if edges.isEmpty {
                edges.append(from)
            }
            counts.append(Double(bin.count))
            edges.append(bin.to)
        }
        return (edges, counts)
    }

    /// A log–log histogram with vertical guide lines (value, label, colour, dashed).
    static func histogram(title: String, unit: String, bins: [HistogramBin], color: String, name: String,
                          guides: [(Double, String, String, Bool)]) -> String {
        let (edges, counts) = bars(bins)
        let top = max(10, pow(10, ceil(log10(max(counts.max() ?? 1, 1)) + 1e-9)))
        var series = [PlotSeries(name, x: edges, y: counts, color: color, style: .bars)]
        for (value, label, guideColor, dashed) in guides where value > 0 && value.isFinite {
            series.append(PlotSeries(label, x: [value, value], y: [0.2, top], color: guideColor, width: 1.5, dashed: dashed))
        }
        let marks = guides.map(\.0).filter { $0 > 0 && $0.isFinite }
        let lower = max(min(edges.first ?? 1, marks.min() ?? .infinity), 1e-3)
        let upper = max(edges.last ?? 10, 1.5 * (marks.max() ?? 0), lower * 10)
        let x = PlotAxis(unit, scale: .logarithmic, range: lower...upper)
        let y = PlotAxis("samples (log scale)", scale: .logarithmic, range: 0.5...top)
        return LinePlot(title: title, x: x, y: y, series: series).svg()
    }

    /// Narrative, figures (svg, caption) and the table rows.
    func build(recordingName: String, pipeline: String) -> (narrative: String, figures: [(String, String)], rows: [[String]]) {
        let t = replay.timing
        let replayName = (replay.file as NSString).lastPathComponent
        var text = "A replay of \(replayName) through \u{201C}\(replay.pipeline)\u{201D}"
        if let speed = replay.speed {
            text += " at \(AxisTicks.label(speed))× real time (\(fixed(replay.sampleRate, 1)) Hz\(replay.resampled ? ", resampled" : ""))"
        } else {
            text += " at --speed max (nothing scheduled)"
        }
        text += " delivered \(t.samples) samples in \(fixed(t.wallSeconds, 1)) s of wall time\(replay.stopped ? " (stopped early)" : "")\(replay.realTimeScheduling ? ", at real-time priority" : ", at normal priority")."
        if replay.pipeline != pipeline {
            text += " (The replay ran \u{201C}\(replay.pipeline)\u{201D}, not this page’s pipeline; its processing cost is that pipeline’s.)"
        }
        var figures: [(String, String)] = []
        var rows: [[String]] = []
        if let lateness = t.latenessMicroseconds {
            let lateShare = 100 * Double(t.lateSamples) / Double(max(t.samples, 1))
            text += " Lateness — how long after its scheduled time a sample was delivered — has a median of \(significant(lateness.p50)) µs, p99 \(significant(lateness.p99)) µs and a maximum of \(significant(lateness.max)) µs; \(t.lateSamples) sample\(t.lateSamples == 1 ? " was" : "s were") later than one sample period (\(significant(t.lateThresholdMicroseconds)) µs, \(fixed(lateShare, 2)) %)."
            if let drift = t.driftMicroseconds {
                text += " Drift (last minus first lateness) is \(significant(drift)) µs: the schedule is kept from absolute deadlines, so lateness does not accumulate."
            }
            rows.append(["lateness median / p90 / p99 / max", "\(significant(lateness.p50)) / \(significant(lateness.p90)) / \(significant(lateness.p99)) / \(significant(lateness.max)) µs"])
            rows.append(["late samples (> \(significant(t.lateThresholdMicroseconds)) µs)", "\(t.lateSamples) of \(t.samples)"])
            if let jitter = t.periodJitterMicroseconds { rows.append(["period jitter", "\(significant(jitter)) µs"]) }
            if let drift = t.driftMicroseconds { rows.append(["drift (last − first lateness)", "\(significant(drift)) µs"]) }
            if let trend = t.driftTrendMicroseconds { rows.append(["drift (least-squares trend over the replay)", "\(significant(trend)) µs"]) }
            if let bins = t.latenessHistogram, !bins.isEmpty {
                let svg = Self.histogram(title: "Delivery lateness", unit: "lateness (µs, log scale)", bins: bins, color: "#1f77b4",
                                         name: "samples per bin",
                                         guides: [(lateness.p50, "median", "#2ca02c", false), (lateness.p99, "p99", "#ff7f0e", false),
                                                  (lateness.max, "max", "#d62728", false),
                                                  (t.lateThresholdMicroseconds, "late threshold (one period)", "#000000", true)])
                figures.append((svg, "Histogram of the lateness e = a − s of every delivered sample (µs, log–log; bins a quarter octave wide, exact counts). Lines: median, p99, maximum, and the dashed late threshold of one sample period."))
            } else {
                text += " The JSON has no lateness histogram (written by an older poise); only the percentiles are shown."
            }
        }
        if let cost = t.processingNanoseconds {
            rows.append(["processing cost median / p99 / max", "\(significant(cost.p50)) / \(significant(cost.p99)) / \(significant(cost.max)) ns per sample"])
            text += " The pipeline took \(significant(cost.p50)) ns per sample (median; p99 \(significant(cost.p99)) ns), \(fixed(100 * cost.p50 / max(1e9 / replay.sampleRate, 1), 3)) % of a sample period."
            if let bins = t.processingHistogram, !bins.isEmpty {
                let svg = Self.histogram(title: "Processing cost per sample", unit: "cost (ns, log scale)", bins: bins, color: "#9467bd",
                                         name: "samples per bin",
                                         guides: [(cost.p50, "median", "#2ca02c", false), (cost.p99, "p99", "#ff7f0e", false)])
                figures.append((svg, "Histogram of the wall time spent in the pipeline per sample (ns, log–log)."))
            }
        }
        rows.append(["CPU", "\(fixed(t.cpuSeconds, 2)) s of \(fixed(t.wallSeconds, 1)) s wall (\(fixed(100 * t.cpuFraction, 1)) % of one core)"])
        return (text, figures, rows)
    }
}
