import Foundation
import Poise
import PoiseRun
import PoiseSpectral

/// Progress (fraction, 1 = reached the new value) of a filter's output over `count` samples
/// after a standard step, after settling on the value before it (as `latency90`, but not
/// stopping at 90 %, so the whole response can be drawn).
func stepTrace<F: Filter>(_ filter: inout F, step: StandardStep, sampleRate: Double, count: Int) -> [Double]
where F.Value == SIMD3<Double> {
    let settle = max(1000, Int(min(20 * sampleRate, 1e6)))
    for _ in 0..<settle { _ = filter.process(step.before) }
    let d = step.after - step.before
    let denominator = (d * d).sum()
    return (0..<count).map { _ in
        let y = filter.process(step.after)
        return ((y - step.before) * d).sum() / denominator
    }
}

/// A step-response candidate: a name and its tilt and shake progress traces.
struct StepCandidate {
    var name: String
    var tilt: [Double]
    var shake: [Double]
}

/// A full-rate excerpt of the recording kept for a zoomed panel: times (s from the first
/// sample), raw and filtered acceleration (g).
struct ReportWindow {
    var range: Range<Int>
    var onset: MovementOnsets.Onset?
    var times: [Double] = []
    var raw: [SIMD3<Double>] = []
    var filtered: [SIMD3<Double>] = []
}

/// Builds the figures and the generated text of a ``RecordingReport`` from what its passes over
/// the recording kept (envelopes, excerpts, spectra, the attitude trace), never from the whole
/// recording.
struct ReportFigures {
    let rate: Double
    let count: Int
    let pipeline: String
    let pipelineStages: Pipeline
    /// Still segments, times in s from the first sample.
    let still: [StillSegment]
    let raw: [SeriesEnvelope]
    let filtered: [SeriesEnvelope]
    let gyroscope: [SeriesEnvelope]
    let windows: [ReportWindow]
    let axisColors = ["#1f77b4", "#d62728", "#2ca02c"]
    let lightColors = ["#a9c8e4", "#f0a8a8", "#a8d8a8"]

    var stillBands: [PlotBand] {
        still.map { PlotBand(from: $0.startTime, to: $0.endTime, color: "#e8f4e4") }
    }

    /// Buckets of the overview envelopes: the plots' width in pixels.
    static let buckets = Int(PlotFrame().plotWidth)

    func summaryRows(metrics: StageMetricsSummary) -> [[String]] {
        let w = metrics.whole
        var rows: [[String]] = []
        rows.append(["pipeline", pipeline])
        let tilt = w.latency90Samples.tilt, shake = w.latency90Samples.shake
        rows.append(["tilt latency to 90 %", tilt.map { "\($0) samples = \(fixed(Double($0) / rate * 1000, 0)) ms" } ?? "not reached"])
        rows.append(["shake latency to 90 %", shake.map { "\($0) samples = \(fixed(Double($0) / rate * 1000, 0)) ms" } ?? "not reached"])
        if let noisy = w.latency90NoisySamples {
            rows.append(["with the still noise added (tilt / shake)", "\(noisy.tilt.map(String.init) ?? "–") / \(noisy.shake.map(String.init) ?? "–") samples"])
        }
        if let j = w.jitter {
            rows.append(["jitter (filtered / raw)", "\(significant(j.output)) g / \(significant(j.input)) g"])
            rows.append(["attenuation", j.output > 0 ? "\(significant(j.input / j.output)) ×" : "–"])
            rows.append(["still time evaluated", "\(fixed(j.stillSeconds, 1)) s in \(j.segments) segments"])
        } else {
            rows.append(["jitter", "no still segment"])
        }
        rows.append(["lag on the moving segments", w.lagMilliseconds.map { "\(fixed($0, 0)) ms" } ?? "no moving segment long enough"])
        return rows
    }

    // MARK: Signals

    /// Raw and filtered acceleration over the whole recording (envelopes).
    func overview() -> String {
        var series: [PlotSeries] = []
        for axis in 0..<3 {
            let v = raw[axis].values()
            series.append(PlotSeries("raw \(["x", "y", "z"][axis])", x: v.x, y: v.y, color: lightColors[axis], width: 1))
        }
        for axis in 0..<3 {
            let v = filtered[axis].values()
            series.append(PlotSeries("filtered \(["x", "y", "z"][axis])", x: v.x, y: v.y, color: axisColors[axis], width: 1.6))
        }
        return LinePlot(title: "Acceleration: raw (light) and filtered (dark)", x: PlotAxis("time (s)"), y: PlotAxis("acceleration (g)"),
                        series: series, bands: stillBands, frame: PlotFrame(height: 300), zoomable: true).svg()
    }

    func gyroscopeOverview() -> String {
        let series = (0..<3).map { axis in
            let v = gyroscope[axis].values()
            return PlotSeries("\(["x", "y", "z"][axis])", x: v.x, y: v.y, color: axisColors[axis], width: 1.2)
        }
        return LinePlot(title: "Rotation rate", x: PlotAxis("time (s)"), y: PlotAxis("rotation rate (rad/s)"),
                        series: series, bands: stillBands, frame: PlotFrame(height: 220), zoomable: true).svg()
    }

    /// Raw and filtered acceleration of `window` over `part` (its indices), each axis minus the raw
    /// mean over `reference` (indices into the window).
    func windowSeries(_ window: ReportWindow, part: Range<Int>, reference: Range<Int>) -> [PlotSeries] {
        let t = Array(window.times[part])
        var mean = SIMD3<Double>.zero
        if !part.isEmpty {
            mean = reference.reduce(SIMD3<Double>.zero) { $0 + window.raw[$1] } / Double(max(1, reference.count))
        }
        var series: [PlotSeries] = []
        for axis in 0..<3 {
            series.append(PlotSeries("raw \(["x", "y", "z"][axis])", x: t, y: part.map { window.raw[$0][axis] - mean[axis] },
                                     color: lightColors[axis], width: 1))
        }
        for axis in 0..<3 {
            series.append(PlotSeries("filtered \(["x", "y", "z"][axis])", x: t, y: part.map { window.filtered[$0][axis] - mean[axis] },
                                     color: axisColors[axis], width: 1.6))
        }
        return series
    }

    /// The excerpts a report keeps for its zoomed panels: windows around movement onsets (0.5 s
    /// before to 2 s after, at most `maximum − 1`, evenly chosen, always including the first and
    /// last) and the longest still segment (up to 3 s).
    static func windows(onsets: [MovementOnsets.Onset], still: [Range<Int>], count: Int, rate: Double, maximum: Int) -> [ReportWindow] {
        var windows: [ReportWindow] = []
        let before = Int(0.5 * rate), after = Int(2.0 * rate)
        for onset in onsets {
            windows.append(ReportWindow(range: max(0, onset.index - before)..<min(count, onset.index + after), onset: onset))
        }
        if windows.count > maximum - 1 {
            let n = max(1, maximum - 1)
            windows = (0..<n).map { windows[n == 1 ? 0 : $0 * (windows.count - 1) / (n - 1)] }
        }
        if let longest = still.max(by: { $0.count < $1.count }) {
            windows.append(ReportWindow(range: longest.lowerBound..<min(longest.upperBound, longest.lowerBound + Int(3 * rate)), onset: nil))
        }
        return windows
    }

    /// Zoomed panels of `windows` (see ``windows(onsets:still:count:rate:maximum:)``).
    func zoomPanels() -> [(svg: String, caption: String, range: Range<Int>, onset: Int?)] {
        windows.compactMap { window in
            guard let lo = window.times.first, let hi = window.times.last else { return nil }
            let all = 0..<window.times.count
            guard let onset = window.onset else {
                let plot = LinePlot(title: "Still: acceleration minus its mean, \(fixed(lo, 2))–\(fixed(hi, 2)) s",
                                    x: PlotAxis("time (s)", range: lo...hi), y: PlotAxis("acceleration − mean (g)"),
                                    series: windowSeries(window, part: all, reference: all), bands: stillBands,
                                    frame: PlotFrame(height: 220), zoomable: true)
                return (plot.svg(), "Still segment from \(fixed(lo, 2)) s (up to 3 s), each axis minus its raw mean there: the spread of the raw signal is the noise the filter has to calm; jitter compares the two.", window.range, nil)
            }
            let end = still.first { $0.indices == onset.after }?.endTime ?? onset.time
            let gap = onset.time - end
            let caption = "Movement onset at \(fixed(onset.time, 2)) s (dashed line): the device starts moving \(gap < 0.05 ? "as the still segment ends" : "\(fixed(gap, 2)) s after the still segment ending at \(fixed(end, 2)) s"); 0.5 s before to 2 s after, each axis minus its raw mean over the 0.5 s before the onset."
            // Each axis minus its mean over the 0.5 s before the onset: the change is what matters,
            // and a fraction of a g on one axis would be flat on a 0–1 g axis.
            let local = onset.index - window.range.lowerBound
            let reference = max(0, local - Int(0.5 * rate))..<max(local, 1)
            var series = windowSeries(window, part: all, reference: reference)
            let values = series.flatMap(\.y).filter(\.isFinite)
            if let low = values.min(), let high = values.max() {
                series.append(PlotSeries("onset", x: [onset.time, onset.time], y: [low, high], color: "#555555", width: 1, dashed: true, inLegend: false))
            }
            let plot = LinePlot(title: "Movement onset: acceleration change, \(fixed(lo, 2))–\(fixed(hi, 2)) s",
                                x: PlotAxis("time (s)", range: lo...hi), y: PlotAxis("acceleration − mean before (g)"),
                                series: series, bands: stillBands, frame: PlotFrame(height: 220), zoomable: true)
            return (plot.svg(), caption, window.range, onset.index)
        }
    }

    // MARK: Steps

    func stepCandidates(sweep: SweepComparison?) -> [StepCandidate] {
        let count = max(20, Int(saturating: 1.5 * rate))
        var candidates: [StepCandidate] = []
        let signal = pipelineStages.stages.last { $0.measuredSignal != nil }?.measuredSignal ?? .acceleration
        var tilt = PipelineProbe(pipeline: pipelineStages, signal: signal, sampleRate: rate)
        var shake = tilt
        candidates.append(StepCandidate(name: "pipeline: \(pipeline)",
                                        tilt: stepTrace(&tilt, step: .tilt, sampleRate: rate, count: count),
                                        shake: stepTrace(&shake, step: .shake, sampleRate: rate, count: count)))
        for entry in sweep?.entries ?? [] {
            guard let best = entry.best, best.setting.spec.description != pipeline,
                  let made: AnyFilter<SIMD3<Double>> = try? best.setting.spec.makeFilter(sampleRate: rate) else { continue }
            var a = made, b = made
            candidates.append(StepCandidate(name: best.setting.spec.description,
                                            tilt: stepTrace(&a, step: .tilt, sampleRate: rate, count: count),
                                            shake: stepTrace(&b, step: .shake, sampleRate: rate, count: count)))
        }
        return candidates
    }

    func stepPlot(_ step: StandardStep, candidates: [StepCandidate]) -> String {
        var series: [PlotSeries] = []
        for (i, c) in candidates.enumerated() {
            let trace = step == .tilt ? c.tilt : c.shake
            let x = (0..<trace.count).map { Double($0 + 1) / rate * 1000 }
            series.append(PlotSeries(c.name, x: x, y: trace.map { $0 * 100 }, color: i == 0 ? "#000000" : PlotPalette.color(i - 1),
                                     width: i == 0 ? 2.4 : 1.4))
        }
        // Show until four times the slowest candidate's latency to 90 % (at least 200 ms).
        let slowest = candidates.map { c in
            (step == .tilt ? c.tilt : c.shake).firstIndex { $0 >= 0.9 }.map { $0 + 1 } ?? (step == .tilt ? c.tilt : c.shake).count
        }.max() ?? 1
        let total = Double(candidates.first?.tilt.count ?? 1) / rate * 1000
        let end = min(total, max(200, 4 * Double(slowest) / rate * 1000))
        series.append(PlotSeries("90 %", x: [0, end], y: [90, 90], color: "#888888", width: 1, dashed: true))
        return LinePlot(title: "\(step.rawValue.capitalized) step (\(step == .tilt ? "0,0,1 g → 0,1 g,0" : "0,0,1 g → 0,0,1.5 g"))",
                        x: PlotAxis("time after the step (ms)", range: 0...end), y: PlotAxis("progress (%)"), series: series,
                        frame: PlotFrame(height: 300), zoomable: true).svg()
    }

    // MARK: Trade-off

    func sweepRows(_ sweep: SweepComparison, recommendation: ReportRecommendation) -> [[String]] {
        recommendation.choices.enumerated().map { index, choice in
            guard let best = choice.point else {
                let reason = choice.passedOver.isEmpty ? "none meets \(sweep.target)"
                    : "each of its \(choice.passedOver.count) best-ranked settings within \(sweep.target) adds power above 2 Hz or keeps \(fixed(100 * recommendation.maximumShare, 0)) % or more of the noise band"
                return [choice.kind.rawValue, reason, "–", "–", "–", "–", "–", "–", "–"]
            }
            let onFront = sweep.entries.indices.contains(index) && sweep.front.contains(index) && sweep.entries[index].best == best
            let mark = recommendation.overall == index ? "yes (recommended)" : onFront ? "yes" : "no"
            return [choice.kind.rawValue, best.setting.spec.description, best.latency.milliseconds.map { fixed($0, 0) } ?? "–",
                    significant(best.jitter), best.attenuation.map(significant) ?? "–", best.lagMilliseconds.map { fixed($0, 0) } ?? "–",
                    choice.shares.map { significant(100 * $0.aboveTwoHertz) } ?? "–", choice.shares.map { significant(100 * $0.noiseBand) } ?? "–", mark]
        }
    }

    func sweepNarrative(_ sweep: SweepComparison, recommendation: ReportRecommendation, metrics: StageMetricsSummary) -> String {
        let all = sweep.entries.flatMap(\.result.points)
        var text = "The sweep measured \(all.count) settings of \(sweep.entries.count) filter kinds (\(sweep.entries.map(\.kind.rawValue).joined(separator: ", ")); default grids of poise bench) on this recording. "
        let front = paretoFront(all.map(\.tradeoffMilliseconds))
        text += "\(front.count) of them \(front.count == 1 ? "is" : "are") on the Pareto front: no other setting is both at least as fast and at least as calm. "
        let passedOver = recommendation.choices.flatMap(\.passedOver).sorted { $0.point.jitter < $1.point.jitter }
        let edge = fixed(HighFrequencyMeter.noiseEdge(rate: rate), 0)
        if let first = passedOver.first {
            text += "Jitter is measured at rest only, so each candidate is also checked over the whole recording: it must not add power above 2 Hz and must remove more than half of the power above \(edge) Hz, where movement has little power and noise, tremor and vibration dominate. \(passedOver.count) setting\(passedOver.count == 1 ? "" : "s") ranked higher fail\(passedOver.count == 1 ? "s" : "") this (e.g. \(first.point.setting.spec.description) keeps \(significant(100 * first.shares.aboveTwoHertz)) % of the raw power above 2 Hz and \(significant(100 * first.shares.noiseBand)) % above \(edge) Hz) — calm at rest, but not filtering, or adding noise, while the device moves — and \(passedOver.count == 1 ? "is" : "are") not recommended. "
        }
        if let r = recommendation.overall, let best = recommendation.choices[r].point {
            let others = recommendation.choices.enumerated().compactMap { i, c -> (String, Double)? in
                guard i != r, let b = c.point else { return nil }
                return (c.kind.rawValue, b.jitter / best.jitter)
            }.sorted { $0.1 < $1.1 }
            text += "Best for \(sweep.target): \(best.setting.spec.description), with \(best.latency.milliseconds.map { fixed($0, 0) } ?? "–") ms latency and \(significant(best.jitter)) g jitter"
            if best.rawJitter < 1e-9 {
                text += ". The raw input is still to numerical precision here (\(significant(best.rawJitter)) g jitter, a noise-free recording), so jitter differences are rounding only and the choice is about latency"
            } else if let attenuation = best.attenuation, attenuation >= 1 {
                text += ", \(significant(attenuation)) × calmer than the raw input (\(significant(best.rawJitter)) g)"
            } else {
                text += ", noisier than the raw input (\(significant(best.rawJitter)) g): no setting within the target calms this recording"
            }
            if let shares = recommendation.choices[r].shares {
                text += "; it keeps \(significant(100 * shares.aboveTwoHertz)) % of the raw power above 2 Hz and \(significant(100 * shares.noiseBand)) % above \(edge) Hz"
            }
            text += ". "
            if let runnerUp = others.first {
                text += "The next best kind, \(runnerUp.0), leaves \(fixed(runnerUp.1, 2)) × as much jitter at its best setting within the same latency. "
            }
        } else {
            text += "No setting meets \(sweep.target)\(passedOver.isEmpty ? "" : " while filtering the noise band"). "
        }
        let w = metrics.whole
        if let tilt = w.latency90Samples.tilt, let shake = w.latency90Samples.shake, let j = w.jitter {
            let latency = Double(max(tilt, shake)) / rate * 1000
            if recommendation.point?.setting.spec.description == pipeline {
                text += "The pipeline shown is this recommendation."
            } else {
                // Compared with the table's settings (each kind's choice), which passed the noise-band check.
                let dominating = recommendation.choices.compactMap(\.point).filter { ($0.latency.milliseconds ?? .infinity) <= latency && $0.jitter < j.output * 0.98 }
                text += "The pipeline (\(pipeline)) sits at \(fixed(latency, 0)) ms and \(significant(j.output)) g"
                if let better = dominating.min(by: { $0.jitter < $1.jitter }) {
                    text += "; \(dominating.count) of the table's settings \(dominating.count == 1 ? "is" : "are") at least as fast and calmer at rest, e.g. \(better.setting.spec.description) (\(better.latency.milliseconds.map { fixed($0, 0) } ?? "–") ms, \(significant(better.jitter)) g)."
                } else {
                    text += "; none of the table's settings is both as fast and calmer at rest."
                }
            }
        }
        return text
    }

    func tradeoffPlot(_ sweep: SweepComparison, recommendation: ReportRecommendation, metrics: StageMetricsSummary) -> String {
        var series: [PlotSeries] = []
        let all = sweep.entries.flatMap(\.result.points)
        for (i, entry) in sweep.entries.enumerated() {
            let points = entry.result.points.filter { $0.latency.milliseconds != nil && $0.jitter > 0 }
            series.append(PlotSeries(entry.kind.rawValue, x: points.map { $0.latency.milliseconds! }, y: points.map(\.jitter),
                                     color: PlotPalette.color(i), style: .markers(radius: 3)))
        }
        let front = paretoFront(all.map(\.tradeoffMilliseconds)).map { all[$0] }
        series.append(PlotSeries("Pareto front", x: front.map { $0.latency.milliseconds ?? .nan }, y: front.map(\.jitter),
                                 color: "#444444", width: 1.4))
        if let raw = all.first?.rawJitter, let maxLatency = all.compactMap(\.latency.milliseconds).max() {
            series.append(PlotSeries("raw input jitter", x: [1, maxLatency], y: [raw, raw], color: "#999999", width: 1, dashed: true))
        }
        let passedOver = recommendation.choices.flatMap(\.passedOver).map(\.point).filter { $0.latency.milliseconds != nil && $0.jitter > 0 }
        if !passedOver.isEmpty {
            series.append(PlotSeries("fails the check above 2 and \(fixed(HighFrequencyMeter.noiseEdge(rate: rate), 0)) Hz (not recommended)", x: passedOver.map { $0.latency.milliseconds! }, y: passedOver.map(\.jitter),
                                     color: "#000000", style: .markers(radius: 1.5)))
        }
        if let best = recommendation.point, let ms = best.latency.milliseconds {
            series.append(PlotSeries("recommended: \(best.setting.spec.description)", x: [ms], y: [best.jitter],
                                     color: "#d62728", style: .markers(radius: 7)))
        }
        let w = metrics.whole
        if let tilt = w.latency90Samples.tilt, let shake = w.latency90Samples.shake, let j = w.jitter, j.output > 0 {
            series.append(PlotSeries("pipeline", x: [Double(max(tilt, shake)) / rate * 1000], y: [j.output],
                                     color: "#000000", style: .markers(radius: 5)))
        }
        return LinePlot(title: "Latency–jitter plane", x: PlotAxis("latency to 90 %, worse of tilt and shake (ms, log scale)", scale: .logarithmic),
                        y: PlotAxis("jitter (g)", scale: .logarithmic), series: series, frame: PlotFrame(height: 380)).svg()
    }

    // MARK: Spectra

    struct Spectra {
        var psd: String
        var spectrogram: String
        var narrative: String
        var segment: Int
        var spectrogramSegment: Int
        /// Share of the raw power at or above 2 Hz that the pipeline keeps.
        var highFrequencyShare: Double?
        /// Share of the raw power in the noise band (``HighFrequencyMeter/noiseEdge(rate:)``).
        var noiseBandShare: Double?
    }

    /// Welch segment length for `count` samples: 512, halved until it fits (at least 16).
    static func welchSegment(count: Int) -> Int {
        var segment = 512
        while segment > count && segment > 16 { segment /= 2 }
        return segment
    }


    /// The spectra section from the Welch PSDs of the raw and filtered acceleration (three axes
    /// each) and the spectrogram of |a|.
    func spectra(raw rawSpectra: [PowerSpectrum], filtered filteredSpectra: [PowerSpectrum], spectrogram: SpectrogramResult,
                 segment: Int, spectrogramSegment short: Int) -> Spectra {
        var series: [PlotSeries] = []
        var peaks: [(String, Double, Double)] = []
        var rawTotal = 0.0, filteredTotal = 0.0, rawNoise = 0.0, filteredNoise = 0.0
        let edge = HighFrequencyMeter.noiseEdge(rate: rate)
        var rawTop = 0.0
        for axis in 0..<3 {
            let raw = rawSpectra[axis], out = filteredSpectra[axis]
            let keep = raw.frequencies.indices.filter { raw.frequencies[$0] > 0 }
            let name = ["x", "y", "z"][axis]
            series.append(PlotSeries("raw \(name)", x: keep.map { raw.frequencies[$0] }, y: keep.map { raw.values[$0] }, color: lightColors[axis], width: 1.2))
            series.append(PlotSeries("filtered \(name)", x: keep.map { out.frequencies[$0] }, y: keep.map { out.values[$0] }, color: axisColors[axis], width: 1.6))
            if let top = keep.max(by: { raw.values[$0] < raw.values[$1] }) { peaks.append((name, raw.frequencies[top], raw.values[top])) }
            rawTop = max(rawTop, keep.map { raw.values[$0] }.max() ?? 0)
            // Power above 2 Hz (noise and shake band), raw and filtered.
            for i in keep where raw.frequencies[i] >= 2 { rawTotal += raw.values[i]; filteredTotal += out.values[i] }
            for i in keep where raw.frequencies[i] >= edge { rawNoise += raw.values[i]; filteredNoise += out.values[i] }
        }
        // Frequency axis: 0 to the Nyquist frequency (the last bin). PSD axis: the decades from
        // the strongest raw value down to 10⁻⁹ of it at most (a filter's output can fall to
        // rounding noise, which would squeeze the raw spectrum into a band at the top).
        let nyquist = rate / 2
        let values = series.flatMap(\.y).filter { $0 > 0 && $0.isFinite }
        let floor = max(values.min() ?? 1e-12, rawTop * 1e-9)
        let psd = LinePlot(title: "Power spectral density of the acceleration", x: PlotAxis("frequency (Hz)", range: 0...nyquist),
                           y: PlotAxis("PSD (g²/Hz)", scale: .logarithmic, range: rawTop > 0 ? floor...rawTop : nil),
                           series: series, frame: PlotFrame(height: 320)).svg()
        let db = spectrogram.power.map { column in column.map { 10 * log10(max($0, 1e-30)) } }
        let top = db.flatMap { $0 }.filter(\.isFinite).max() ?? 0
        let heat = HeatMap(title: "Spectrogram of |a|", x: PlotAxis("time (s)"), y: PlotAxis("frequency (Hz)"),
                           valueLabel: "PSD (dB re 1 g²/Hz)", xValues: spectrogram.times, yValues: spectrogram.frequencies,
                           values: db, valueRange: (top - 70)...top).svg()
        let strongest = peaks.max { $0.2 < $1.2 }
        var text = "Welch's method averages the spectra of overlapping windowed segments: it shows at which frequencies the signal carries power, up to the Nyquist frequency (\(fixed(nyquist, 1)) Hz, half the sample rate). "
        if let strongest {
            text += "The strongest component is on the \(strongest.0) axis at \(fixed(strongest.1, 2)) Hz. "
        }
        if rawTotal > 0 {
            let share = filteredTotal / rawTotal
            text += "Above 2 Hz (quick movements and shakes, and sensor noise, tremor, vibration) the pipeline keeps \(significant(100 * share)) % of the raw power (\(fixed(10 * log10(max(filteredTotal, 1e-300) / rawTotal), 1)) dB)"
            text += share >= 1 ? ": it adds high-frequency power instead of removing it" : ""
            if rawNoise > 0 {
                text += "; above \(fixed(edge, 0)) Hz, where movement has little power and noise, tremor and vibration dominate, it keeps \(significant(100 * filteredNoise / rawNoise)) %"
            }
            text += ". "
        }
        text += "The spectrogram shows the same power over time for |a|: bright vertical bands are movements and shakes, dark stretches are rests."
        return Spectra(psd: psd, spectrogram: heat, narrative: text, segment: segment, spectrogramSegment: short,
                       highFrequencyShare: rawTotal > 0 ? filteredTotal / rawTotal : nil,
                       noiseBandShare: rawNoise > 0 ? filteredNoise / rawNoise : nil)
    }

    // MARK: Attitude

    struct Attitude {
        /// Roll, pitch and yaw panels with their captions.
        var angles: [(svg: String, caption: String)]
        var errorPlot: String?
        var errorCaption: String
        var narrative: String
        var error: OrientationError?
    }

    /// The attitude section from the fused attitude's trace and its score against the truth.
    func attitude(_ trace: AttitudeTrace, score: OrientationError?) -> Attitude {
        let nine = trace.nine
        let panels = attitudePanels(trace, title: nine ? "9D, magnetic north" : "6D, heading arbitrary")
        var narrative = "The device-motion estimator (Sources/Poise/Fusion, the engine of poise evaluate) fuses \(nine ? "accelerometer, gyroscope and magnetometer (9D, heading to magnetic north)" : "accelerometer and gyroscope (6D, heading arbitrary)") at \(fixed(rate, 1)) Hz. Angles follow CoreMotion: roll about y, pitch about x, yaw about z, in degrees. "
        var errorPlot: String?
        var caption = ""
        if trace.hasTruth, let score {
            if score.count > 0 {
                narrative += "Against the file's ground truth (BROAD metric on the moving samples\(nine ? "" : ", heading aligned by one constant angle")): total RMSE \(fixed(score.total, 2))°, inclination \(fixed(score.inclination, 2))°, heading \(fixed(score.heading, 2))° over \(score.count) samples. "
            } else {
                narrative += "The file marks no sample as moving, so the BROAD score (moving samples only) is empty; the error plot below covers every sample. "
            }
            if let worst = trace.worst {
                narrative += "The largest error, \(fixed(worst.degrees, 2))°, is at \(fixed(worst.time, 2)) s."
            }
            let v = trace.error.values()
            errorPlot = LinePlot(title: nine ? "Attitude error (total angle)" : "Inclination error", x: PlotAxis("time (s)"),
                                 y: PlotAxis("error (°)"), series: [PlotSeries(nine ? "total error" : "inclination error", x: v.x, y: v.y, color: "#d62728")],
                                 bands: stillBands, frame: PlotFrame(height: 240), zoomable: true).svg()
            caption = nine ? "Angle of the rotation from the true to the estimated attitude, per sample (degrees); shaded: still segments."
                : "Inclination error per sample (degrees; the 6D heading is arbitrary so it is left out); shaded: still segments."
        } else {
            narrative += "The file has no ground truth (gt_q*), so no error is shown."
        }
        return Attitude(angles: panels, errorPlot: errorPlot, errorCaption: caption, narrative: narrative, error: trace.hasTruth ? score : nil)
    }

    /// One plot per angle (degrees): the estimate (solid) and the truth (dashed) when given.
    /// Roll and yaw are unwrapped across ±180° unless they turn more than a full circle, left out
    /// where |pitch| > ``AngleSeries/gimbalLockPitch``; every axis range comes from its data.
    func attitudePanels(_ trace: AttitudeTrace, title: String) -> [(svg: String, caption: String)] {
        let names = ["roll", "pitch", "yaw"]
        var panels: [(svg: String, caption: String)] = []
        for k in 0..<3 {
            var shownEstimate: (x: [Double], y: [Double])
            var shownTruth: (x: [Double], y: [Double])?
            var wraps = false
            if k == 1 {
                shownEstimate = trace.pitch.values()
                shownTruth = trace.hasTruth ? trace.truthPitch.values() : nil
            } else {
                let estimate = k == 0 ? trace.roll : trace.yaw
                let truth = k == 0 ? trace.truthRoll : trace.truthYaw
                if estimate.span <= 360 {
                    // Unwrapped and centred: the estimate's median within 180° of 0, the truth's
                    // within 180° of the estimate's.
                    let median = estimate.median ?? 0
                    let shift = 360 * (median / 360).rounded()
                    let e = estimate.unwrapped.values()
                    shownEstimate = (e.x, e.y.map { $0 - shift })
                    if trace.hasTruth {
                        let reference = median - shift
                        let truthShift = truth.median.map { 360 * (($0 - reference) / 360).rounded() } ?? 0
                        let t = truth.unwrapped.values()
                        shownTruth = (t.x, t.y.map { $0 - truthShift })
                    }
                } else {
                    wraps = true
                    shownEstimate = estimate.wrapped.values()
                    shownTruth = trace.hasTruth ? truth.wrapped.values() : nil
                }
            }
            var series = [PlotSeries("\(names[k]), estimate", x: shownEstimate.x, y: shownEstimate.y, color: axisColors[k], width: 1.5)]
            if let shownTruth {
                series.append(PlotSeries("\(names[k]), ground truth", x: shownTruth.x, y: shownTruth.y, color: "#555555", width: 1.2, dashed: true))
            }
            let range = wraps ? -180.0...180.0 : AngleSeries.axisRange([shownEstimate.y] + (shownTruth.map { [$0.y] } ?? []))
            let plot = LinePlot(title: "\(names[k].capitalized) (\(title))", x: PlotAxis("time (s)"), y: PlotAxis("\(names[k]) (°)", range: range, ticks: wraps ? [-180, -90, 0, 90, 180] : nil),
                                series: series, bands: stillBands, frame: PlotFrame(height: 200), zoomable: true)
            var caption = "\(names[k].capitalized) in degrees (CoreMotion convention) of the estimate (solid)\(shownTruth != nil ? " and the ground truth (dashed)" : "")"
            if k == 1 {
                caption += "."
            } else {
                caption += wraps ? ", wrapped to ±180° (unwrapped it would span more than 360°)" : ", unwrapped (continuous across ±180°), the axis fitted to the data"
                caption += "; left out where |pitch| > \(fixed(AngleSeries.gimbalLockPitch, 0))°, where \(names[k]) is undefined (gimbal lock)."
            }
            panels.append((plot.svg(), caption))
        }
        return panels
    }
}
