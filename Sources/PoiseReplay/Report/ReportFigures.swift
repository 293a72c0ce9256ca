import Foundation
import Poise
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

/// Builds the figures and the generated text of a ``RecordingReport``.
struct ReportFigures {
    let samples: [MotionSample]
    let rate: Double
    let filtered: [SIMD3<Double>]
    let still: [Range<Int>]
    let pipeline: String
    let pipelineStages: Pipeline
    let times: [Double]
    let axisColors = ["#1f77b4", "#d62728", "#2ca02c"]
    let lightColors = ["#a9c8e4", "#f0a8a8", "#a8d8a8"]

    init(samples: [MotionSample], rate: Double, filtered: [SIMD3<Double>], still: [Range<Int>], pipeline: String, pipelineStages: Pipeline) {
        self.samples = samples; self.rate = rate; self.filtered = filtered; self.still = still
        self.pipeline = pipeline; self.pipelineStages = pipelineStages
        let t0 = samples.first?.time ?? 0
        times = samples.map { $0.time - t0 }
    }

    var stillBands: [PlotBand] {
        still.map { PlotBand(from: times[$0.lowerBound], to: times[$0.upperBound - 1], color: "#e8f4e4") }
    }

    func summaryRows(metrics: StageMetrics) -> [[String]] {
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

    /// Raw and filtered acceleration over `range`; `centred` subtracts each raw axis's mean over
    /// the range from both (to show noise on a still segment).
    func accelerationSeries(range: Range<Int>? = nil, centred: Bool = false) -> [PlotSeries] {
        let r = range ?? samples.indices
        let t = Array(times[r])
        var mean = SIMD3<Double>.zero
        if centred && !r.isEmpty { mean = r.reduce(SIMD3<Double>.zero) { $0 + samples[$1].acceleration } / Double(r.count) }
        var series: [PlotSeries] = []
        for axis in 0..<3 {
            series.append(PlotSeries("raw \(["x", "y", "z"][axis])", x: t, y: r.map { samples[$0].acceleration[axis] - mean[axis] },
                                     color: lightColors[axis], width: 1))
        }
        for axis in 0..<3 {
            series.append(PlotSeries("filtered \(["x", "y", "z"][axis])", x: t, y: r.map { filtered[$0][axis] - mean[axis] },
                                     color: axisColors[axis], width: 1.6))
        }
        return series
    }

    func overview() -> String {
        LinePlot(title: "Acceleration: raw (light) and filtered (dark)", x: PlotAxis("time (s)"), y: PlotAxis("acceleration (g)"),
                 series: accelerationSeries(), bands: stillBands, frame: PlotFrame(height: 300)).svg()
    }

    func gyroscopeOverview() -> String {
        let series = (0..<3).map { axis in
            PlotSeries("\(["x", "y", "z"][axis])", x: times, y: samples.map { $0.rotationRate[axis] }, color: axisColors[axis], width: 1.2)
        }
        return LinePlot(title: "Rotation rate", x: PlotAxis("time (s)"), y: PlotAxis("rotation rate (rad/s)"),
                        series: series, bands: stillBands, frame: PlotFrame(height: 220)).svg()
    }

    /// Windows around movement onsets (the end of each still segment) and the longest still segment.
    func zoomPanels(maximum: Int) -> [(svg: String, caption: String)] {
        var windows: [(Range<Int>, String, Bool)] = []
        let before = Int(saturating: 0.5 * rate), after = Int(saturating: 2.0 * rate)
        for segment in still where segment.upperBound < samples.count {
            let onset = segment.upperBound
            let r = max(0, onset - before)..<min(samples.count, onset + after)
            windows.append((r, "Movement onset at \(fixed(times[onset], 2)) s: the end of a still segment, 0.5 s before to 2 s after.", false))
        }
        if windows.count > maximum - 1 {
            // Evenly spaced choice, always including the first and last onsets.
            let n = max(1, maximum - 1)
            windows = (0..<n).map { windows[n == 1 ? 0 : $0 * (windows.count - 1) / (n - 1)] }
        }
        if let longest = still.max(by: { $0.count < $1.count }) {
            let r = longest.lowerBound..<min(longest.upperBound, longest.lowerBound + Int(saturating: min(3 * rate, 1e12)))
            windows.append((r, "Still segment from \(fixed(times[longest.lowerBound], 2)) s (up to 3 s), each axis minus its raw mean there: the spread of the raw signal is the noise the filter has to calm; jitter compares the two.", true))
        }
        return windows.map { range, caption, centred in
            let lo = times[range.lowerBound], hi = times[range.upperBound - 1]
            let plot = LinePlot(title: centred ? "Still: acceleration minus its mean, \(fixed(lo, 2))–\(fixed(hi, 2)) s" : "Acceleration, \(fixed(lo, 2))–\(fixed(hi, 2)) s",
                                x: PlotAxis("time (s)", range: lo...hi),
                                y: PlotAxis(centred ? "acceleration − mean (g)" : "acceleration (g)"), series: accelerationSeries(range: range, centred: centred),
                                bands: stillBands, frame: PlotFrame(height: 220))
            return (plot.svg(), caption)
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
                        frame: PlotFrame(height: 300)).svg()
    }

    // MARK: Trade-off

    func sweepRows(_ sweep: SweepComparison) -> [[String]] {
        sweep.entries.enumerated().map { index, entry in
            guard let best = entry.best else {
                return [entry.kind.rawValue, "none meets \(sweep.target)", "–", "–", "–", "–", "–"]
            }
            let mark = sweep.recommendation == index ? "yes (recommended)" : sweep.front.contains(index) ? "yes" : "no"
            return [entry.kind.rawValue, best.setting.spec.description, best.latency.milliseconds.map { fixed($0, 0) } ?? "–",
                    significant(best.jitter), best.attenuation.map(significant) ?? "–", best.lagMilliseconds.map { fixed($0, 0) } ?? "–", mark]
        }
    }

    func sweepNarrative(_ sweep: SweepComparison, metrics: StageMetrics) -> String {
        let all = sweep.entries.flatMap(\.result.points)
        var text = "The sweep measured \(all.count) settings of \(sweep.entries.count) filter kinds (\(sweep.entries.map(\.kind.rawValue).joined(separator: ", ")); default grids of poise bench) on this recording. "
        let front = paretoFront(all.map(\.tradeoffMilliseconds))
        text += "\(front.count) of them \(front.count == 1 ? "is" : "are") on the Pareto front: no other setting is both at least as fast and at least as calm. "
        if let r = sweep.recommendation, let best = sweep.entries[r].best {
            let others = sweep.entries.enumerated().compactMap { i, e -> (String, Double)? in
                guard i != r, let b = e.best else { return nil }
                return (e.kind.rawValue, b.jitter / best.jitter)
            }.sorted { $0.1 < $1.1 }
            text += "Best for \(sweep.target): \(best.setting.spec.description), with \(best.latency.milliseconds.map { fixed($0, 0) } ?? "–") ms latency and \(significant(best.jitter)) g jitter"
            if best.rawJitter < 1e-9 {
                text += ". The raw input is still to numerical precision here (\(significant(best.rawJitter)) g jitter, a noise-free recording), so jitter differences are rounding only and the choice is about latency. "
            } else if let attenuation = best.attenuation, attenuation >= 1 {
                text += ", \(significant(attenuation)) × calmer than the raw input (\(significant(best.rawJitter)) g). "
            } else {
                text += ", noisier than the raw input (\(significant(best.rawJitter)) g): no setting within the target calms this recording. "
            }
            if let runnerUp = others.first {
                text += "The next best kind, \(runnerUp.0), leaves \(fixed(runnerUp.1, 2)) × as much jitter at its best setting within the same latency. "
            }
        } else {
            text += "No setting meets \(sweep.target). "
        }
        let w = metrics.whole
        if let tilt = w.latency90Samples.tilt, let shake = w.latency90Samples.shake, let j = w.jitter {
            let latency = Double(max(tilt, shake)) / rate * 1000
            let dominating = all.filter { ($0.latency.milliseconds ?? .infinity) <= latency && $0.jitter < j.output * 0.98 }
            text += "The pipeline (\(pipeline)) sits at \(fixed(latency, 0)) ms and \(significant(j.output)) g"
            if let better = dominating.min(by: { $0.jitter < $1.jitter }) {
                text += "; \(dominating.count) swept setting\(dominating.count == 1 ? " is" : "s are") at least as fast and calmer, e.g. \(better.setting.spec.description) (\(better.latency.milliseconds.map { fixed($0, 0) } ?? "–") ms, \(significant(better.jitter)) g)."
            } else {
                text += ", on or below the front: no swept setting is both as fast and calmer."
            }
        }
        return text
    }

    func tradeoffPlot(_ sweep: SweepComparison, metrics: StageMetrics) -> String {
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
        if let r = sweep.recommendation, let best = sweep.entries[r].best, let ms = best.latency.milliseconds {
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
    }

    func spectra() throws -> Spectra {
        let n = samples.count
        var segment = 512
        while segment > n && segment > 16 { segment /= 2 }
        guard segment >= 16, n >= segment else { throw ReportError("too short") }
        let welch = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: rate, segmentLength: segment))
        var series: [PlotSeries] = []
        var peaks: [(String, Double, Double)] = []
        var rawTotal = 0.0, filteredTotal = 0.0
        for axis in 0..<3 {
            let raw = try welch.estimate(samples.map { $0.acceleration[axis] })
            let out = try welch.estimate(filtered.map { $0[axis] })
            let keep = raw.frequencies.indices.filter { raw.frequencies[$0] > 0 }
            let name = ["x", "y", "z"][axis]
            series.append(PlotSeries("raw \(name)", x: keep.map { raw.frequencies[$0] }, y: keep.map { raw.values[$0] }, color: lightColors[axis], width: 1.2))
            series.append(PlotSeries("filtered \(name)", x: keep.map { out.frequencies[$0] }, y: keep.map { out.values[$0] }, color: axisColors[axis], width: 1.6))
            if let top = keep.max(by: { raw.values[$0] < raw.values[$1] }) { peaks.append((name, raw.frequencies[top], raw.values[top])) }
            // Power above 2 Hz (noise and shake band), raw and filtered.
            for i in keep where raw.frequencies[i] >= 2 { rawTotal += raw.values[i]; filteredTotal += out.values[i] }
        }
        let psd = LinePlot(title: "Power spectral density of the acceleration", x: PlotAxis("frequency (Hz)"),
                           y: PlotAxis("PSD (g²/Hz)", scale: .logarithmic), series: series, frame: PlotFrame(height: 320)).svg()
        // Spectrogram of the magnitude.
        var short = 128
        while short > n / 4 && short > 16 { short /= 2 }
        let magnitude = samples.map { ($0.acceleration * $0.acceleration).sum().squareRoot() }
        let configuration = SpectralConfiguration(sampleRate: rate, segmentLength: short, overlap: short * 3 / 4)
        let result = try Spectrogram(configuration: configuration).compute(magnitude)
        let db = result.power.map { column in column.map { 10 * log10(max($0, 1e-30)) } }
        let top = db.flatMap { $0 }.filter(\.isFinite).max() ?? 0
        let heat = HeatMap(title: "Spectrogram of |a|", x: PlotAxis("time (s)"), y: PlotAxis("frequency (Hz)"),
                           valueLabel: "PSD (dB re 1 g²/Hz)", xValues: result.times, yValues: result.frequencies,
                           values: db, valueRange: (top - 70)...top).svg()
        let strongest = peaks.max { $0.2 < $1.2 }
        var text = "Welch's method averages the spectra of overlapping windowed segments: it shows at which frequencies the signal carries power. "
        if let strongest {
            text += "The strongest component is on the \(strongest.0) axis at \(fixed(strongest.1, 2)) Hz. "
        }
        if rawTotal > 0 {
            text += "Above 2 Hz (sensor noise, shakes, hand tremor) the pipeline keeps \(significant(100 * filteredTotal / rawTotal)) % of the raw power (\(fixed(10 * log10(max(filteredTotal, 1e-300) / rawTotal), 1)) dB). "
        }
        text += "The spectrogram shows the same power over time for |a|: bright vertical bands are movements and shakes, dark stretches are rests."
        return Spectra(psd: psd, spectrogram: heat, narrative: text, segment: segment, spectrogramSegment: short)
    }

    // MARK: Attitude

    struct Attitude {
        var angles: String
        var errorPlot: String?
        var errorCaption: String
        var narrative: String
        var error: OrientationError?
    }

    func attitude(hasMagnetometer: Bool, hasTruth: Bool) -> Attitude {
        var configuration = DeviceMotionConfiguration(sampleRate: rate)
        configuration.reference = hasMagnetometer ? .magneticNorthZVertical : .arbitraryZVertical
        var estimator = DeviceMotionEstimator(configuration: configuration)
        var estimate: [EulerAngles] = [], truth: [EulerAngles?] = [], errors: [Double] = []
        let nine = configuration.reference.usesMagnetometer
        for s in samples {
            estimator.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
            let q = estimator.attitudeEastNorthUp
            estimate.append(DeviceMotion.coreMotionAngles(q))
            if let t = s.truth, t.isFinite, t.lengthSquared > 0 {
                truth.append(DeviceMotion.coreMotionAngles(t.normalized))
                var e = q.normalized * t.normalized.conjugate
                if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
                // 9D: total error; 6D: inclination error (the heading is arbitrary).
                let value = nine ? 2 * acos(min(1, e.w)) : 2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot()))
                errors.append(value * 180 / .pi)
            } else {
                truth.append(nil)
                errors.append(.nan)
            }
        }
        let degrees = 180 / Double.pi
        func broken(_ values: [Double]) -> [Double] {
            var out = values
            for i in out.indices.dropFirst() where abs(values[i] - values[i - 1]) > 180 { out[i - 1] = .nan }
            return out
        }
        var series: [PlotSeries] = []
        let names = ["roll", "pitch", "yaw"]
        for k in 0..<3 {
            let est = estimate.map { [$0.roll, $0.pitch, $0.yaw][k] * degrees }
            series.append(PlotSeries(names[k], x: times, y: broken(est), color: axisColors[k], width: 1.5))
        }
        if hasTruth {
            for k in 0..<3 {
                let t = truth.map { $0.map { [$0.roll, $0.pitch, $0.yaw][k] * degrees } ?? .nan }
                series.append(PlotSeries("true \(names[k])", x: times, y: broken(t), color: lightColors[k], width: 1.5, dashed: true))
            }
        }
        let angles = LinePlot(title: "Attitude (\(nine ? "9D, magnetic north" : "6D, heading arbitrary"))", x: PlotAxis("time (s)"),
                              y: PlotAxis("angle (°)", range: -180...180), series: series, frame: PlotFrame(height: 300)).svg()
        var narrative = "The device-motion estimator (Sources/Poise/Fusion, the engine of poise evaluate) fuses \(nine ? "accelerometer, gyroscope and magnetometer (9D, heading to magnetic north)" : "accelerometer and gyroscope (6D, heading arbitrary)") at \(fixed(rate, 1)) Hz. Angles follow CoreMotion: roll about y, pitch about x, yaw about z, in degrees. "
        var errorPlot: String?
        var error: OrientationError?
        var caption = ""
        if hasTruth {
            var scorer = DeviceMotionEstimator(configuration: configuration)
            let score = scorer.evaluate(samples)
            error = score
            if score.count > 0 {
                narrative += "Against the file's ground truth (BROAD metric on the moving samples\(nine ? "" : ", heading aligned by one constant angle")): total RMSE \(fixed(score.total, 2))°, inclination \(fixed(score.inclination, 2))°, heading \(fixed(score.heading, 2))° over \(score.count) samples. "
            } else {
                narrative += "The file marks no sample as moving, so the BROAD score (moving samples only) is empty; the error plot below covers every sample. "
            }
            let finite = errors.filter(\.isFinite)
            if let worst = finite.indices.max(by: { finite[$0] < finite[$1] }), let index = errors.firstIndex(of: finite[worst]) {
                narrative += "The largest error, \(fixed(finite[worst], 2))°, is at \(fixed(times[index], 2)) s."
            }
            errorPlot = LinePlot(title: nine ? "Attitude error (total angle)" : "Inclination error", x: PlotAxis("time (s)"),
                                 y: PlotAxis("error (°)"), series: [PlotSeries(nine ? "total error" : "inclination error", x: times, y: errors, color: "#d62728")],
                                 bands: stillBands, frame: PlotFrame(height: 240)).svg()
            caption = nine ? "Angle of the rotation from the true to the estimated attitude, per sample (degrees); shaded: still segments."
                : "Inclination error per sample (degrees; the 6D heading is arbitrary so it is left out); shaded: still segments."
        } else {
            narrative += "The file has no ground truth (gt_q*), so no error is shown."
        }
        return Attitude(angles: angles, errorPlot: errorPlot, errorCaption: caption, narrative: narrative, error: error)
    }
}
