import Foundation
import Poise
@testable import PoiseRecording
import Testing
@testable import PoiseRun
@testable import PoiseReports

/// The numbers in `<text class="tick" …>LABEL</text>` elements, in document order.
func tickLabels(_ svg: String, axis: String = "") -> [Double] {
    var values: [Double] = []
    var rest = Substring(svg)
    while let start = rest.range(of: "<text class=\"tick" + (axis.isEmpty ? "" : " " + axis + "t\"")) {
        rest = rest[start.upperBound...]
        guard let close = rest.firstIndex(of: ">"), let end = rest.range(of: "</text>") else { break }
        let label = String(rest[rest.index(after: close)..<end.lowerBound])
        if let v = Double(label) { values.append(v) }
        rest = rest[end.upperBound...]
    }
    return values
}

/// Number of M/L commands in every `d="…"` of paths with class "series".
func pathPointCounts(_ svg: String) -> [(commands: Int, declared: Int)] {
    var out: [(Int, Int)] = []
    var rest = Substring(svg)
    while let start = rest.range(of: "<path class=\"series\" d=\"") {
        rest = rest[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { break }
        let d = rest[..<end]
        let commands = d.filter { $0 == "M" || $0 == "L" }.count
        var declared = -1
        if let p = rest.range(of: "data-points=\"") {
            let tail = rest[p.upperBound...]
            declared = Int(tail.prefix { $0.isNumber }) ?? -1
        }
        out.append((commands, declared))
        rest = rest[end...]
    }
    return out
}

@Suite struct AxisTickTests {
    @Test(arguments: [(0.0, 1.0), (-0.013, 0.021), (0.97, 1.52), (-3.3, 181.0), (5.0, 5.0), (1e-4, 3e-4), (-250.0, -10.0), (0.0, 60.24)])
    func linearTicksCoverTheRangeWithEqualSteps(lower: Double, upper: Double) {
        let ticks = AxisTicks.linear(lower, upper, count: 6)
        #expect(ticks.count >= 3 && ticks.count <= 12, "\(ticks)")
        #expect(ticks.first! <= lower && ticks.last! >= upper, "\(ticks) vs \(lower)…\(upper)")
        let steps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        for s in steps { #expect(abs(s - steps[0]) <= 1e-9 * max(1, abs(steps[0])), "\(ticks)") }
    }

    @Test func logarithmicTicksAreDecadesCoveringTheRange() {
        let ticks = AxisTicks.logarithmic(0.00037, 0.021)
        #expect(ticks == [1e-4, 1e-3, 1e-2, 1e-1])
    }

    @Test func labelsAreShort() {
        #expect(AxisTicks.label(0.30000000000000004) == "0.3")
        #expect(AxisTicks.label(2.5) == "2.5")
        #expect(AxisTicks.label(-10) == "-10")
        #expect(AxisTicks.label(1e-5) == "1e-5")
        #expect(AxisTicks.label(2e-4) == "2e-4")
    }
}

@Suite struct DownsampleTests {
    @Test func monotoneSeriesKeepsTwoPointsPerBucket() {
        let n = 10_000
        let x = (0..<n).map(Double.init), y = x.map { $0 * 0.5 }
        let kept = minMaxDownsample(x: x, y: y, buckets: 100)
        #expect(kept.count == 200)
        #expect(kept == kept.sorted())
        // Each bucket of 100 samples keeps its first (min) and last (max) sample.
        #expect(kept[0] == 0 && kept[1] == 99 && kept[198] == 9900 && kept[199] == 9999)
    }

    @Test func peaksSurvive() {
        let n = 20_000
        let x = (0..<n).map { Double($0) / 100 }
        var y = x.map { sin($0) * 0.01 }
        y[12_345] = 5; y[777] = -4
        let kept = minMaxDownsample(x: x, y: y, buckets: 300)
        #expect(kept.contains(12_345) && kept.contains(777))
        #expect(kept.count <= 600 && kept.count >= 300)
    }

    @Test func shortSeriesAreKeptAndNonFiniteDropped() {
        let x: [Double] = [0, 1, 2, 3, 4], y: [Double] = [1, .nan, 3, .infinity, 5]
        #expect(minMaxDownsample(x: x, y: y, buckets: 100) == [0, 2, 4])
    }
}

@Suite struct LinePlotTests {
    func longPlot() -> (LinePlot, [Double], [Double]) {
        let n = 30_000
        let x = (0..<n).map { Double($0) / 100 + 2.3 }
        var y = x.map { 0.8 * sin($0 * 3) + 0.1 }
        y[100] = .nan; y[5000] = -.infinity
        let plot = LinePlot(title: "test <plot> & co", x: PlotAxis("time (s)"), y: PlotAxis("acceleration (g)"),
                            series: [PlotSeries("first", x: x, y: y, color: "#1f77b4"),
                                     PlotSeries("second", x: [3, 200], y: [-1.3, 1.7], color: "#ff7f0e", dashed: true)])
        return (plot, x, y)
    }

    @Test func pathsAreDownsampledToTheDeclaredPointCount() {
        let (plot, _, _) = longPlot()
        let svg = plot.svg()
        let counts = pathPointCounts(svg)
        #expect(counts.count == 2)
        // One point per min and max per pixel column at most; every kept point is drawn.
        #expect(counts[0].commands == counts[0].declared)
        #expect(counts[0].declared <= 2 * Int(plot.frame.plotWidth) && counts[0].declared >= Int(plot.frame.plotWidth) / 2)
        #expect(counts[1].commands == 2 && counts[1].declared == 2)
    }

    @Test func ticksCoverTheDataRange() {
        let (plot, x, _) = longPlot()
        let svg = plot.svg()
        let xTicks = tickLabels(svg, axis: "x"), yTicks = tickLabels(svg, axis: "y")
        #expect(xTicks.count >= 3 && yTicks.count >= 3)
        #expect(xTicks.min()! <= x.first! && xTicks.max()! >= 200)
        // The y ticks cover −1.3 … 1.7 (the second series) and the sine.
        #expect(yTicks.min()! <= -1.3 && yTicks.max()! >= 1.7)
    }

    @Test func outputHasNoNaNAndEscapesText() {
        let (plot, _, _) = longPlot()
        let svg = plot.svg()
        for bad in ["nan", "NaN", "inf"] { #expect(!svg.contains(bad), "found \(bad)") }
        #expect(svg.contains("test &lt;plot&gt; &amp; co"))
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
    }

    /// Non-finite values break the line (an undefined angle must not be bridged by a straight
    /// segment), for short series and for downsampled long ones.
    @Test func nonFiniteValuesBreakTheLine() {
        for n in [100, 20_000] {
            let x = (0..<n).map(Double.init)
            var y = x.map { sin($0 / 7) }
            for i in (n / 3)..<(n / 2) { y[i] = .nan }
            let svg = LinePlot(title: "gap", x: PlotAxis("t"), y: PlotAxis("v"), series: [PlotSeries("s", x: x, y: y, color: "#000")]).svg()
            let path = seriesPaths(svg)[0]
            #expect(path.filter(\.move).count == 2, "n = \(n)")
        }
    }

    @Test func legendNamesEverySeries() {
        let (plot, _, _) = longPlot()
        let svg = plot.svg()
        #expect(svg.contains("<g class=\"legend\">"))
        #expect(svg.contains(">first</text>") && svg.contains(">second</text>"))
        #expect(svg.contains("time (s)") && svg.contains("acceleration (g)"))
    }

    @Test func logarithmicAxisSkipsNonPositiveValues() {
        let plot = LinePlot(title: "psd", x: PlotAxis("frequency (Hz)"), y: PlotAxis("PSD (g²/Hz)", scale: .logarithmic),
                            series: [PlotSeries("p", x: [1, 2, 3, 4], y: [1e-6, 0, 1e-3, 2e-2], color: "#000")])
        let svg = plot.svg()
        let counts = pathPointCounts(svg)
        #expect(counts.first?.commands == 3)
        #expect(tickLabels(svg, axis: "y") == [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1])
    }
}

@Suite struct HeatMapTests {
    @Test func heatMapHasCellsColourBarAndNoNaN() {
        let columns = 500, rows = 129
        var values = (0..<columns).map { i in (0..<rows).map { j in -60 + Double(j % 40) + Double(i % 7) } }
        values[3][4] = .nan
        let map = HeatMap(title: "spectrogram", x: PlotAxis("time (s)"), y: PlotAxis("frequency (Hz)"), valueLabel: "PSD (dB)",
                          xValues: (0..<columns).map { Double($0) * 0.1 }, yValues: (0..<rows).map { Double($0) * 50 / 128 },
                          values: values)
        let svg = map.svg()
        #expect(!svg.contains("nan") && !svg.contains("NaN"))
        #expect(svg.contains("PSD (dB)"))
        let fills = svg.components(separatedBy: "<path d=\"M").count - 1
        #expect(fills >= 2 && fills <= map.levels)
        #expect(svg.utf8.count < 400_000, "\(svg.utf8.count) bytes")
        let yTicks = tickLabels(svg, axis: "y")
        // A fixed axis range (the cell edges, 0 … 50.2 Hz): ticks inside it, the last within one step of its end.
        #expect(yTicks.count >= 3 && yTicks.first == 0 && yTicks.max()! <= 50.2)
        #expect(yTicks.max()! + (yTicks[1] - yTicks[0]) >= 50.19)
    }

    @Test func poolingAveragesBlocks() {
        let values: [[Double]] = [[1, 3], [5, 7], [9, 11], [13, 15]]
        let pooled = HeatMap.pool(values, columns: 2, rows: 1)
        #expect(pooled == [[4], [12]])
    }
}

@Suite struct HTMLReportTests {
    @Test func pageIsSelfContainedAndEscaped() {
        var page = HTMLReport(title: "a < b")
        page.heading("Signals & more")
        page.paragraph("x > y")
        page.table(header: ["k", "v"], rows: [["<1>", "2"]])
        let html = page.render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>a &lt; b</title>") && html.contains("Signals &amp; more") && html.contains("&lt;1&gt;"))
        #expect(html.contains("<a href=\"#s1\">"))
        // No zoomable figure: no script at all.
        #expect(!html.contains("<script") && !html.contains("http"))
    }

    /// A zoomable plot brings one inline script (no src, no network address) and the data the
    /// script reads: the axis ranges, and groups for the series, bands and ticks.
    @Test func zoomablePlotBringsOneInlineScript() {
        let plot = LinePlot(title: "t", x: PlotAxis("time (s)"), y: PlotAxis("a (g)"),
                            series: [PlotSeries("s", x: [0, 1, 2], y: [0, 1, 0], color: "#000")],
                            bands: [PlotBand(from: 0.5, to: 1, color: "#eee")], zoomable: true)
        let svg = plot.svg()
        #expect(svg.hasPrefix("<svg class=\"plot zoomable\" data-x=\"0.0 2.0 72.0 830.0\" data-y=\"0.0 1.0 28.0 168.0\""), "\(svg.prefix(160))")
        for group in ["<g class=\"data\">", "<g class=\"bands\">", "<g class=\"xticks\">", "<g class=\"yticks\">"] {
            #expect(svg.contains(group), "missing \(group)")
        }
        var page = HTMLReport(title: "p")
        page.figure(svg, caption: "c")
        page.figure(plot.svg(), caption: "again")
        let html = page.render()
        #expect(html.components(separatedBy: "<script").count == 2, "one script element")
        #expect(html.contains("<script>\n") && !html.contains("<script src") && !html.contains("http") && !html.contains("//www"))
        #expect(html.contains("dblclick") && html.contains("mousemove"))
        // A log axis is not zoomable (the script maps linearly).
        let log = LinePlot(title: "l", x: PlotAxis("f (Hz)"), y: PlotAxis("p", scale: .logarithmic),
                           series: [PlotSeries("s", x: [1, 2], y: [1, 10], color: "#000")], zoomable: true)
        #expect(log.svg().hasPrefix("<svg class=\"plot\" width"))
    }
}

/// Samples at `rate` Hz: still (1 g on z, small noise) except where `moving` says the device
/// rotates at 1 rad/s about x with its acceleration swinging by 0.3 g.
private func synthetic(rate: Double, seconds: Double, moving: (Double) -> Bool) -> [MotionSample] {
    var state: UInt64 = 12345
    func noise() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.004
    }
    return (0..<Int(seconds * rate)).map { i in
        let t = Double(i) / rate
        let move = moving(t)
        let swing = move ? 0.3 * sin(2 * .pi * 1.5 * t) : 0
        return MotionSample(time: t, acceleration: SIMD3(noise(), swing + noise(), 1 + noise()),
                            rotationRate: SIMD3(move ? 1 : 0.001, 0, 0))
    }
}

/// The raw pass of a report over `samples` (still segments, envelopes, spectra, attitude).
private func rawPass(_ samples: [MotionSample], rate: Double, hasGyroscope: Bool = true, hasMagnetometer: Bool = true,
                     hasTruth: Bool = true) throws -> RawPass {
    var raw = try RawPass(count: samples.count, rate: rate, t0: samples[0].time, duration: samples.last!.time - samples[0].time,
                          hasGyroscope: hasGyroscope, hasMagnetometer: hasMagnetometer, hasTruth: hasTruth, detector: RestDetector())
    let source = ArraySource(path: "test", schema: RecordingSchema(format: .poise, columns: []), samples: samples)
    var run = Run(source: source, pipeline: raw.pipeline, clock: AsFastAsPossible())
    return try run.run(into: &raw).summary
}

/// The onsets found in `samples` after the still segments `still`.
private func onsets(_ samples: [MotionSample], rate: Double, still: [Range<Int>]) -> [MovementOnsets.Onset] {
    var finder = MovementOnsets(still: still, count: samples.count, rate: rate)
    for s in samples { finder.add(time: s.time - samples[0].time, acceleration: s.acceleration, rotationRate: s.rotationRate) }
    return finder.onsets
}

/// Figures of `samples` with the raw signal as "filtered" and the zoom windows of `still`.
private func figures(_ samples: [MotionSample], rate: Double, still: [Range<Int>]) throws -> ReportFigures {
    let pipeline = try StageCatalog.standard.pipeline("lowpass:cutoff=5", context: StageContext(sampleRate: rate, hasMagnetometer: false))
    let t0 = samples[0].time
    var windows = ReportFigures.windows(onsets: onsets(samples, rate: rate, still: still), still: still, count: samples.count,
                                        rate: rate, maximum: 6)
    for k in windows.indices {
        for i in windows[k].range {
            windows[k].times.append(samples[i].time - t0)
            windows[k].raw.append(samples[i].acceleration)
            windows[k].filtered.append(samples[i].acceleration)
        }
    }
    let segments = still.map { StillSegment(indices: $0, startTime: samples[$0.lowerBound].time - t0, endTime: samples[$0.upperBound - 1].time - t0) }
    let envelope = SeriesEnvelope(range: 0...(samples.last!.time - t0), buckets: ReportFigures.buckets)
    return ReportFigures(rate: rate, count: samples.count, pipeline: "lowpass:cutoff=5", pipelineStages: pipeline, still: segments,
                         raw: Array(repeating: envelope, count: 3), filtered: Array(repeating: envelope, count: 3),
                         gyroscope: [], windows: windows)
}

/// Shared recordings for the report tests (nil when ../shared/data is absent).
private enum ReportData {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }()
    static let broad27 = root.appendingPathComponent("../shared/data/broad/27_disturbed_phone_vibration_B.csv").standardized.path
    static var broad27Present: Bool { FileManager.default.fileExists(atPath: broad27) }
    static let tiltSteps = root.appendingPathComponent("data/tilt-steps.csv").path
}

/// The largest rotation rate (rad/s) and the range of the acceleration (g, any axis) in `range`.
private func movement(in samples: [MotionSample], _ range: Range<Int>) -> (rotation: Double, acceleration: Double) {
    let slice = samples[range]
    let rotation = slice.map { ($0.rotationRate * $0.rotationRate).sum().squareRoot() }.max() ?? 0
    let spread = (0..<3).map { k in (slice.map { $0.acceleration[k] }.max() ?? 0) - (slice.map { $0.acceleration[k] }.min() ?? 0) }.max() ?? 0
    return (rotation, spread)
}

@Suite struct ReportFigureTests {
    /// A still segment followed by a quiet gap and another still segment (the detector's
    /// threshold crossed by noise) is no movement onset; the onset panel is where the device moves.
    @Test func onsetPanelsShowMovementNotQuietGaps() throws {
        let rate = 100.0
        let samples = synthetic(rate: rate, seconds: 12) { $0 >= 6.5 && $0 < 8.5 }
        let still = [0..<300, 330..<600, 900..<1200]     // quiet gap 3.0–3.3 s; movement 6.5–8.5 s
        let found = onsets(samples, rate: rate, still: still)
        #expect(found.map(\.index) == [650], "\(found.map(\.index))")
        let panels = try figures(samples, rate: rate, still: still).zoomPanels()
        let onsetPanels = panels.filter { $0.onset != nil }
        #expect(onsetPanels.count == 1)
        for panel in onsetPanels {
            let after = panel.onset!..<panel.range.upperBound
            #expect(movement(in: samples, after).rotation > 0.5)
        }
        #expect(panels.last?.onset == nil)   // the still panel
    }

    /// BROAD trial 27: every onset panel shows movement after its onset (the first three ends of
    /// still segments on this trial are followed by quiet gaps, not by movement).
    @Test(.enabled(if: ReportData.broad27Present, "../shared/data/broad is absent"))
    func broadOnsetPanelsContainMovement() throws {
        let recording = try Recording.load(path: ReportData.broad27)
        let samples = recording.samples
        let rate = try #require(nominalSampleRate(of: samples))
        let still = RestDetector().stillSegments(in: samples)
        let panels = try figures(samples, rate: rate, still: still).zoomPanels().filter { $0.onset != nil }
        #expect(!panels.isEmpty)
        for panel in panels {
            let after = panel.onset!..<panel.range.upperBound
            let m = movement(in: samples, after)
            #expect(m.rotation > MovementOnsets.onsetRotationRate || m.acceleration > MovementOnsets.onsetAcceleration,
                    "flat panel after \(samples[panel.onset!].time) s: \(m)")
        }
    }

    /// BROAD trial 27 turns the device by about ±20–30°: each attitude axis spans less than 120°
    /// (not the ±180° an angle can take).
    @Test(.enabled(if: ReportData.broad27Present, "../shared/data/broad is absent"))
    func broadAttitudeAxesFollowTheData() throws {
        let recording = try Recording.load(path: ReportData.broad27)
        let samples = recording.samples
        let rate = try #require(nominalSampleRate(of: samples))
        let raw = try rawPass(samples, rate: rate)
        let attitude = try figures(samples, rate: rate, still: []).attitude(try #require(raw.attitude), score: raw.score?.result)
        #expect(attitude.angles.count == 3)
        for panel in attitude.angles {
            let ticks = tickLabels(panel.svg, axis: "y")
            #expect(ticks.count >= 3 && ticks.max()! - ticks.min()! < 120, "\(ticks) for \(panel.caption.prefix(5))")
        }
    }

    /// The frequency axis ends at the Nyquist frequency (BROAD's 285.714 Hz: 142.9 Hz, not 160).
    @Test func spectrumAxisEndsAtNyquist() throws {
        let rate = 285.714
        let samples = synthetic(rate: rate, seconds: 12) { $0 > 4 && $0 < 6 }
        let raw = try rawPass(samples, rate: rate, hasGyroscope: false)
        let psd = try #require(raw.welch).finish()
        let spectra = try figures(samples, rate: rate, still: [0..<1000])
            .spectra(raw: psd, filtered: psd, spectrogram: try #require(raw.spectrogram()), segment: raw.welchSegment,
                     spectrogramSegment: raw.spectrogramSegment)
        let ticks = tickLabels(spectra.psd, axis: "x")
        #expect(ticks.count >= 4 && ticks.max()! <= rate / 2, "\(ticks)")
        #expect(ticks.max()! >= rate / 2 - 25)
    }

    /// ±20° of yaw about 180° (where CoreMotion's yaw wraps) is drawn as one band about 180°
    /// on an axis a little wider than the motion, not as two lines at ±180° on a ±180° axis;
    /// roll and pitch of a few degrees get a narrow axis too.
    @Test func attitudeAxesFollowTheData() throws {
        let rate = 100.0
        let samples = synthetic(rate: rate, seconds: 20) { _ in false }
        let builder = try figures(samples, rate: rate, still: [])
        var trace = AttitudeTrace(duration: samples.last!.time, buckets: ReportFigures.buckets, nine: true, hasTruth: true)
        for s in samples {
            let t = s.time
            var yaw = 180 + 20 * sin(2 * .pi * 0.2 * t)
            if yaw > 180 { yaw -= 360 }
            let angles = SIMD3(3 * sin(t), 2 * cos(t), yaw)
            trace.add(x: t, estimate: angles, truth: angles, error: 0)
        }
        trace.finish()
        let panels = builder.attitudePanels(trace, title: "test")
        #expect(panels.count == 3)
        for (k, panel) in panels.enumerated() {
            let ticks = tickLabels(panel.svg, axis: "y")
            let span = ticks.max()! - ticks.min()!
            #expect(span <= (k == 2 ? 60 : 15), "axis \(k): \(ticks)")
        }
        let yawTicks = tickLabels(panels[2].svg, axis: "y")
        // The band about 180° (drawn as 160…200° or, equally, −200…−160°).
        #expect((yawTicks.min()! <= 160 && yawTicks.max()! >= 200) || (yawTicks.min()! <= -200 && yawTicks.max()! >= -160), "\(yawTicks)")
    }

    /// At pitch ±90° roll and yaw are undefined: the exact ground truth of tilt-steps passes
    /// through 90° and its roll and yaw jump by up to 180° in one sample there (spikes). Near gimbal
    /// lock they are left out, so no drawn roll or yaw line jumps by more than 30°.
    @Test func noSpikeAtNinetyDegreesPitch() throws {
        let recording = try Recording.load(path: ReportData.tiltSteps)
        let samples = recording.samples
        let rate = try #require(nominalSampleRate(of: samples))
        let raw = try rawPass(samples, rate: rate)
        let builder = try figures(samples, rate: rate, still: raw.still.map(\.indices))
        let attitude = builder.attitude(try #require(raw.attitude), score: raw.score?.result)
        #expect(attitude.angles.count == 3)
        for panel in [attitude.angles[0], attitude.angles[2]] {
            let yTicks = tickLabels(panel.svg, axis: "y")
            let degreesPerPixel = (yTicks.max()! - yTicks.min()!) / PlotFrame(height: 200).plotHeight
            for path in seriesPaths(panel.svg) {
                for (a, b) in zip(path, path.dropFirst()) where a.move == false || b.move == false {
                    guard !b.move else { continue }
                    #expect(abs(b.y - a.y) * degreesPerPixel < 30, "jump of \(abs(b.y - a.y) * degreesPerPixel)° in \(panel.caption.prefix(20))")
                }
            }
        }
        // The truth's pitch does reach 90° (the case that spiked).
        let truthPitch = samples.compactMap(\.truth).map { DeviceMotion.coreMotionAngles($0.normalized).pitch * 180 / .pi }
        #expect(truthPitch.max()! > 89.9)
    }

    /// On tilt-steps the sweep's calmest setting within 100 ms (adaptive, threshold 0.01 g)
    /// keeps 103 % of the raw power above 2 Hz: it adds noise while the device moves. The
    /// report recommends a setting that removes power above 2 Hz and at least half of it in the
    /// noise band (above 10 Hz), and names the setting it passed over.
    @Test func recommendationDoesNotAddHighFrequencyPower() throws {
        let recording = try Recording.load(path: ReportData.tiltSteps)
        var options = ReportOptions()
        options.threads = 2
        let report = try RecordingReport(recording: recording, options: options)
        let share = try #require(report.highFrequencyShare), noise = try #require(report.noiseBandShare)
        #expect(share < 1 && noise < 0.5, "pipeline \(report.pipeline) keeps \(share) above 2 Hz, \(noise) above 10 Hz")
        #expect(!report.pipeline.hasPrefix("adaptive:cutoff=0.1,threshold=0.01"))
        let html = report.html()
        #expect(html.contains("(e.g. adaptive:cutoff=0.1,threshold=0.01 keeps 103 % of the raw power above 2 Hz"), "the passed-over setting is named")
    }
}

/// The points of every `path.series` (pixels), each flagged when it starts a subpath (M).
private func seriesPaths(_ svg: String) -> [[(move: Bool, x: Double, y: Double)]] {
    var out: [[(Bool, Double, Double)]] = []
    var rest = Substring(svg)
    while let start = rest.range(of: "<path class=\"series\" d=\"") {
        rest = rest[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { break }
        var points: [(Bool, Double, Double)] = []
        var command: Character = "M"
        var numbers: [Double] = []
        var token = ""
        func flushToken() { if let v = Double(token) { numbers.append(v) }; token = "" }
        for c in rest[..<end] {
            if c == "M" || c == "L" {
                flushToken()
                if numbers.count == 2 { points.append((command == "M", numbers[0], numbers[1])) }
                numbers = []; command = c
            } else if c == " " {
                flushToken()
            } else {
                token.append(c)
            }
        }
        flushToken()
        if numbers.count == 2 { points.append((command == "M", numbers[0], numbers[1])) }
        out.append(points)
        rest = rest[end...]
    }
    return out
}
