import Foundation
import PoiseRun

/// An x–y plot rendered as standalone inline SVG: axes with tick labels, axis labels with units,
/// grid lines, optional shaded bands, and a legend of the named series.
public struct LinePlot: Sendable {
    public var title: String
    public var xAxis: PlotAxis
    public var yAxis: PlotAxis
    public var series: [PlotSeries]
    public var bands: [PlotBand]
    public var frame: PlotFrame
    /// Marks the plot for the page's inline script (``HTMLReport/script``): drag to zoom on the
    /// x axis, double-click to reset, hover for values. Only plots with two linear axes take it;
    /// the SVG itself stays static (the script reads the drawn paths and the axis ranges from
    /// `data-x` and `data-y`).
    public var zoomable: Bool

    public init(title: String, x: PlotAxis, y: PlotAxis, series: [PlotSeries], bands: [PlotBand] = [],
                frame: PlotFrame = PlotFrame(), zoomable: Bool = false) {
        self.title = title; xAxis = x; yAxis = y; self.series = series; self.bands = bands; self.frame = frame
        self.zoomable = zoomable
    }

    /// The SVG element (`<svg …>…</svg>`), with no scripts or external references.
    public func svg() -> String {
        let f = frame
        let xValues = xAxis.range == nil ? series.flatMap(\.x) : []
        let yValues: [Double]
        if xAxis.range != nil {
            let r = xAxis.range!
            yValues = series.flatMap { s in zip(s.x, s.y).filter { r.contains($0.0) }.map(\.1) }
        } else {
            yValues = series.flatMap(\.y)
        }
        let xm = PlotScaleMap(axis: xAxis, values: xValues, start: f.left, length: f.plotWidth, flipped: false, tickCount: 10)
        let ym = PlotScaleMap(axis: yAxis, values: yValues, start: f.top, length: f.plotHeight, flipped: true, tickCount: 6)
        let totalHeight = f.height + legendExtraHeight
        let interactive = zoomable && xAxis.scale == .linear && yAxis.scale == .linear
        // Axis ranges (data units) and plot area (pixels) for the inline script.
        let zoomData = interactive ? " data-x=\"\(xm.lower) \(xm.upper) \(pixels(f.left)) \(pixels(f.plotWidth))\" data-y=\"\(ym.lower) \(ym.upper) \(pixels(f.top)) \(pixels(f.plotHeight))\"" : ""
        var s = "<svg class=\"plot\(interactive ? " zoomable" : "")\"\(zoomData) width=\"\(pixels(f.width))\" height=\"\(pixels(totalHeight))\" viewBox=\"0 0 \(pixels(f.width)) \(pixels(totalHeight))\" role=\"img\" aria-label=\"\(escapeXML(title))\">\n"
        s += "<title>\(escapeXML(title))</title>\n"
        s += "<text class=\"title\" x=\"\(pixels(f.left))\" y=\"18\">\(escapeXML(title))</text>\n"
        let clipID = "c\(stableHash(title))_\(Int(f.width))x\(Int(f.height))"
        s += "<defs><clipPath id=\"\(clipID)\"><rect x=\"\(pixels(f.left))\" y=\"\(pixels(f.top))\" width=\"\(pixels(f.plotWidth))\" height=\"\(pixels(f.plotHeight))\"/></clipPath></defs>\n"
        s += "<rect class=\"area\" x=\"\(pixels(f.left))\" y=\"\(pixels(f.top))\" width=\"\(pixels(f.plotWidth))\" height=\"\(pixels(f.plotHeight))\"/>\n"
        // Bands.
        var bandsSVG = ""
        for band in bands {
            guard let a = xm.position(band.from), let b = xm.position(band.to) else { continue }
            let lo = max(f.left, min(a, b)), hi = min(f.left + f.plotWidth, max(a, b))
            guard hi > lo else { continue }
            bandsSVG += "<rect x=\"\(pixels(lo))\" y=\"\(pixels(f.top))\" width=\"\(pixels(hi - lo))\" height=\"\(pixels(f.plotHeight))\" fill=\"\(band.color)\"/>\n"
        }
        if !bandsSVG.isEmpty { s += "<g clip-path=\"url(#\(clipID))\"><g class=\"bands\">\n\(bandsSVG)</g></g>\n" }
        s += axesSVG(xm: xm, ym: ym)
        // Series.
        s += "<g clip-path=\"url(#\(clipID))\"><g class=\"data\">\n"
        let buckets = Int(f.plotWidth)
        for item in series {
            switch item.style {
            case .line:
                let indices = minMaxDownsample(x: item.x, y: item.y, buckets: buckets, range: xAxis.range)
                // Non-finite samples between two kept points are a gap: the line breaks there.
                var gaps = [Int](repeating: 0, count: min(item.x.count, item.y.count) + 1)
                for k in 0..<(gaps.count - 1) {
                    gaps[k + 1] = gaps[k] + (item.x[k].isFinite && item.y[k].isFinite ? 0 : 1)
                }
                var d = ""
                var pen = false
                var previous = -1
                for i in indices {
                    defer { previous = i }
                    if previous >= 0 && gaps[i] - gaps[previous + 1] > 0 { pen = false }
                    if let r = xAxis.range, !r.contains(item.x[i]) { pen = false; continue }
                    guard let px0 = xm.position(item.x[i]), let py0 = ym.position(item.y[i]) else { pen = false; continue }
                    d += (pen ? "L" : "M") + pixels(px0) + " " + pixels(py0)
                    pen = true
                }
                guard !d.isEmpty else { continue }
                s += "<path class=\"series\" d=\"\(d)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"\(pixels(item.width))\"\(item.dashed ? " stroke-dasharray=\"5 3\"" : "") data-name=\"\(escapeXML(item.name))\" data-points=\"\(indices.count)\"/>\n"
            case .markers(let radius):
                s += "<g fill=\"\(item.color)\" data-name=\"\(escapeXML(item.name))\">"
                for i in 0..<min(item.x.count, item.y.count) {
                    guard let cx = xm.position(item.x[i]), let cy = ym.position(item.y[i]) else { continue }
                    s += "<circle cx=\"\(pixels(cx))\" cy=\"\(pixels(cy))\" r=\"\(pixels(radius))\"/>"
                }
                s += "</g>\n"
            case .bars:
                let bottom = f.top + f.plotHeight
                var drawn = 0
                var bars = ""
                for i in 0..<min(item.y.count, max(0, item.x.count - 1)) {
                    guard let a = xm.position(item.x[i]), let b = xm.position(item.x[i + 1]),
                          let top = ym.position(item.y[i]), top < bottom else { continue }
                    let lo = min(a, b), width = max(abs(b - a) - 0.5, 0.5)
                    bars += "<rect x=\"\(pixels(lo))\" y=\"\(pixels(top))\" width=\"\(pixels(width))\" height=\"\(pixels(bottom - top))\"/>"
                    drawn += 1
                }
                s += "<g class=\"bars\" fill=\"\(item.color)\" data-name=\"\(escapeXML(item.name))\" data-bars=\"\(drawn)\">\(bars)</g>\n"
            }
        }
        s += "</g></g>\n"
        s += legendSVG()
        s += "</svg>"
        return s
    }

    func axesSVG(xm: PlotScaleMap, ym: PlotScaleMap) -> String {
        let f = frame
        var s = "<g class=\"axes\">\n<g class=\"xticks\">"
        let bottom = f.top + f.plotHeight
        for t in xm.ticks {
            guard let x = xm.position(t) else { continue }
            s += "<line class=\"grid\" x1=\"\(pixels(x))\" y1=\"\(pixels(f.top))\" x2=\"\(pixels(x))\" y2=\"\(pixels(bottom))\"/>"
            s += "<text class=\"tick xt\" x=\"\(pixels(x))\" y=\"\(pixels(bottom + 15))\" text-anchor=\"middle\">\(AxisTicks.label(t))</text>\n"
        }
        s += "</g><g class=\"yticks\">"
        for t in ym.ticks {
            guard let y = ym.position(t) else { continue }
            s += "<line class=\"grid\" x1=\"\(pixels(f.left))\" y1=\"\(pixels(y))\" x2=\"\(pixels(f.left + f.plotWidth))\" y2=\"\(pixels(y))\"/>"
            s += "<text class=\"tick yt\" x=\"\(pixels(f.left - 6))\" y=\"\(pixels(y + 4))\" text-anchor=\"end\">\(AxisTicks.label(t))</text>\n"
        }
        s += "</g>\n<rect class=\"frame\" x=\"\(pixels(f.left))\" y=\"\(pixels(f.top))\" width=\"\(pixels(f.plotWidth))\" height=\"\(pixels(f.plotHeight))\"/>\n"
        s += "<text class=\"axis-label\" x=\"\(pixels(f.left + f.plotWidth / 2))\" y=\"\(pixels(bottom + 32))\" text-anchor=\"middle\">\(escapeXML(xAxis.label))</text>\n"
        let cy = f.top + f.plotHeight / 2
        s += "<text class=\"axis-label\" x=\"14\" y=\"\(pixels(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(pixels(cy)))\">\(escapeXML(yAxis.label))</text>\n"
        s += "</g>\n"
        return s
    }

    /// Legend entries laid out left to right, wrapping to new rows: (entry, x, row).
    func legendLayout() -> [(PlotSeries, Double, Int)] {
        var out: [(PlotSeries, Double, Int)] = []
        var x = frame.left, row = 0
        for entry in series where entry.inLegend {
            let width = 30 + Double(entry.name.count) * 6.4
            if x + width > frame.width - 4 && x > frame.left { x = frame.left; row += 1 }
            out.append((entry, x, row))
            x += width
        }
        return out
    }

    /// Extra height (pixels) the legend's additional rows need.
    var legendExtraHeight: Double { Double(legendLayout().map(\.2).max() ?? 0) * 16 }

    func legendSVG() -> String {
        let layout = legendLayout()
        guard !layout.isEmpty else { return "" }
        var s = "<g class=\"legend\">"
        for (entry, x, row) in layout {
            let y = frame.height - 12 + Double(row) * 16
            switch entry.style {
            case .line:
                s += "<line x1=\"\(pixels(x))\" y1=\"\(pixels(y - 4))\" x2=\"\(pixels(x + 18))\" y2=\"\(pixels(y - 4))\" stroke=\"\(entry.color)\" stroke-width=\"\(pixels(max(2, entry.width)))\"\(entry.dashed ? " stroke-dasharray=\"5 3\"" : "")/>"
            case .bars:
                s += "<rect x=\"\(pixels(x + 3))\" y=\"\(pixels(y - 10))\" width=\"12\" height=\"12\" fill=\"\(entry.color)\"/>"
            case .markers:
                s += "<circle cx=\"\(pixels(x + 9))\" cy=\"\(pixels(y - 4))\" r=\"4\" fill=\"\(entry.color)\"/>"
            }
            s += "<text class=\"legend-text\" x=\"\(pixels(x + 22))\" y=\"\(pixels(y))\">\(escapeXML(entry.name))</text>"
        }
        s += "</g>\n"
        return s
    }
}
