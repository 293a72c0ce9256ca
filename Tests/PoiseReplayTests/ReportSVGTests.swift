import Foundation
import Testing
@testable import PoiseReplay

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
        #expect(!html.contains("<script") && !html.contains("http"))
    }
}
