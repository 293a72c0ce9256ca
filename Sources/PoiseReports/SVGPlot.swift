import Foundation
import PoiseRun

/// How an axis maps values to positions.
public enum AxisScale: Sendable, Equatable {
    /// Evenly spaced values.
    case linear
    /// Evenly spaced decades (values ≤ 0 are not drawn).
    case logarithmic
}

/// One axis of a plot: its label (with the unit, e.g. "time (s)"), its scale and an optional
/// fixed range (by default the data range, widened to whole tick steps).
public struct PlotAxis: Sendable, Equatable {
    public var label: String
    public var scale: AxisScale
    public var range: ClosedRange<Double>?
    /// Tick positions for a linear axis with a fixed `range` (e.g. every 90° on a ±180° angle
    /// axis); `nil`: "nice" steps.
    public var ticks: [Double]?

    public init(_ label: String, scale: AxisScale = .linear, range: ClosedRange<Double>? = nil, ticks: [Double]? = nil) {
        self.label = label; self.scale = scale; self.range = range; self.ticks = ticks
    }
}

/// One data series of a plot, in data units.
public struct PlotSeries: Sendable {
    /// How a series is drawn.
    public enum Style: Sendable, Equatable {
        /// A polyline (long series are reduced to the minimum and maximum per pixel column).
        case line
        /// One circle per point, radius in pixels.
        case markers(radius: Double)
        /// A histogram: bar i spans x[i] ..< x[i + 1] (so `x` holds one more value than `y`,
        /// the bin edges) and rises from the bottom of the plot to y[i]. Bars whose height is
        /// not drawable (not finite, or ≤ 0 on a log axis) are left out.
        case bars
    }

    public var name: String
    public var x: [Double]
    public var y: [Double]
    /// A CSS colour, e.g. `#1f77b4`.
    public var color: String
    public var style: Style
    /// Line width in pixels.
    public var width: Double
    public var dashed: Bool
    /// Shown in the legend (`false` for helper series such as guide lines).
    public var inLegend: Bool

    public init(_ name: String, x: [Double], y: [Double], color: String, style: Style = .line,
                width: Double = 1.5, dashed: Bool = false, inLegend: Bool = true) {
        self.name = name; self.x = x; self.y = y; self.color = color; self.style = style
        self.width = width; self.dashed = dashed; self.inLegend = inLegend
    }
}

/// A vertical band or line marking a time span or instant on a plot (e.g. a still segment).
public struct PlotBand: Sendable, Equatable {
    public var from: Double
    public var to: Double
    public var color: String
    public init(from: Double, to: Double, color: String) { self.from = from; self.to = to; self.color = color }
}

/// A categorical colour palette (Tableau 10), readable on white.
public enum PlotPalette {
    public static let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
    /// The colour for index `i` (cycles).
    public static func color(_ i: Int) -> String { colors[((i % colors.count) + colors.count) % colors.count] }
}

/// Pixel layout shared by plots: outer size and the margins around the data area.
public struct PlotFrame: Sendable, Equatable {
    public var width: Double = 920
    public var height: Double = 260
    public var left: Double = 72
    public var right: Double = 18
    public var top: Double = 28
    public var bottom: Double = 64
    public init(width: Double = 920, height: Double = 260) { self.width = width; self.height = height }
    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
}

/// Tick positions for axes.
public enum AxisTicks {
    /// "Nice" linear ticks (steps of 1, 2, 2.5 or 5 × 10ⁿ) whose first tick is ≤ `lower` and
    /// last tick ≥ `upper`, about `count` of them. A zero-width range is widened around its value.
    public static func linear(_ lower: Double, _ upper: Double, count: Int = 6) -> [Double] {
        guard lower.isFinite, upper.isFinite else { return [0, 1] }
        var lo = min(lower, upper), hi = max(lower, upper)
        if hi - lo < 1e-12 * max(1, abs(lo)) {
            let pad = max(abs(lo) * 0.1, 1e-9)
            lo -= pad; hi += pad
        }
        let raw = (hi - lo) / Double(max(1, count - 1))
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let first = floor(lo / step + 1e-9), last = ceil(hi / step - 1e-9)
        guard last - first < 1000 else { return [lo, hi] }
        return stride(from: first, through: last, by: 1).map { cleaned($0 * step, step: step) }
    }

    /// Decade ticks 10ᵏ covering the positive values in `lower…upper`.
    public static func logarithmic(_ lower: Double, _ upper: Double) -> [Double] {
        guard lower > 0, upper > 0, lower.isFinite, upper.isFinite else { return [1, 10] }
        let first = floor(log10(min(lower, upper)) + 1e-9), last = ceil(log10(max(lower, upper)) - 1e-9)
        let top = max(last, first + 1)
        return stride(from: first, through: top, by: 1).map { pow(10, $0) }
    }

    /// Rounds away binary noise (0.30000000000000004 → 0.3).
    static func cleaned(_ value: Double, step: Double) -> Double {
        let digits = max(0, -Int(saturating: floor(log10(step))) + 2)
        let scale = pow(10, Double(min(digits, 15)))
        let rounded = (value * scale).rounded() / scale
        return rounded == 0 ? 0 : rounded
    }

    /// A tick label: short, no trailing zeros, exponent form for very small or large values.
    public static func label(_ value: Double) -> String {
        if value == 0 { return "0" }
        let a = abs(value)
        if a >= 1e5 || a < 1e-3 {
            let exponent = Int(saturating: floor(log10(a)))
            let mantissa = value / pow(10, Double(exponent))
            let m = abs(mantissa - mantissa.rounded()) < 1e-6 ? String(Int(saturating: mantissa.rounded())) : String(format: "%.1f", mantissa)
            return m == "1" ? "1e\(exponent)" : "\(m)e\(exponent)"
        }
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// Reduces a series for drawing: for each of `buckets` equal x-ranges, keeps the samples with the
/// smallest and the largest y (in their original order; one point when they coincide), so peaks
/// survive at any zoom. Series of at most 2 × `buckets` points and non-finite points are kept as
/// they are / dropped respectively.
///
/// - Returns: indices into `x`/`y` of the points to draw, increasing.
public func minMaxDownsample(x: [Double], y: [Double], buckets: Int, range: ClosedRange<Double>? = nil) -> [Int] {
    let n = min(x.count, y.count)
    let finite = (0..<n).filter { x[$0].isFinite && y[$0].isFinite }
    guard finite.count > 2 * buckets, buckets > 0, let first = finite.first, let last = finite.last else { return finite }
    let lo = range?.lowerBound ?? x[first], hi = range?.upperBound ?? x[last]
    let width = hi - lo
    guard width > 0 else { return finite }
    var kept: [Int] = []
    kept.reserveCapacity(2 * buckets)
    var current = -1, minIndex = -1, maxIndex = -1
    func flush() {
        guard current >= 0 else { return }
        if minIndex == maxIndex { kept.append(minIndex) } else { kept.append(min(minIndex, maxIndex)); kept.append(max(minIndex, maxIndex)) }
    }
    for i in finite {
        let bucket = min(buckets - 1, max(0, Int(saturating: (x[i] - lo) / width * Double(buckets))))
        if bucket != current {
            flush()
            current = bucket; minIndex = i; maxIndex = i
        } else {
            if y[i] < y[minIndex] { minIndex = i }
            if y[i] > y[maxIndex] { maxIndex = i }
        }
    }
    flush()
    return kept
}

/// Maps data values to pixels along one axis.
struct PlotScaleMap {
    let scale: AxisScale
    let lower: Double, upper: Double
    let start: Double, length: Double
    let flipped: Bool
    let ticks: [Double]

    init(axis: PlotAxis, values: [Double], start: Double, length: Double, flipped: Bool, tickCount: Int) {
        scale = axis.scale
        var usable = values.filter { $0.isFinite && (axis.scale == .linear || $0 > 0) }
        if let range = axis.range { usable = [range.lowerBound, range.upperBound] }
        let lo = usable.min() ?? (axis.scale == .linear ? 0 : 1)
        let hi = usable.max() ?? (axis.scale == .linear ? 1 : 10)
        switch axis.scale {
        case .linear:
            let t = axis.range != nil ? (axis.ticks ?? AxisTicks.linear(lo, hi, count: tickCount)) : AxisTicks.linear(lo, hi, count: tickCount)
            ticks = axis.range == nil ? t : t.filter { $0 >= lo - 1e-12 * max(1, abs(lo)) && $0 <= hi + 1e-12 * max(1, abs(hi)) }
            lower = axis.range?.lowerBound ?? t.first!
            upper = axis.range?.upperBound ?? t.last!
        case .logarithmic:
            let t = AxisTicks.logarithmic(lo, hi)
            ticks = t
            lower = t.first!; upper = t.last!
        }
        self.start = start; self.length = length; self.flipped = flipped
    }

    func position(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        let fraction: Double
        switch scale {
        case .linear: fraction = (value - lower) / (upper - lower)
        case .logarithmic:
            guard value > 0 else { return nil }
            fraction = (log10(value) - log10(lower)) / (log10(upper) - log10(lower))
        }
        guard fraction.isFinite else { return nil }
        let clamped = min(1.5, max(-0.5, fraction))
        return flipped ? start + length * (1 - clamped) : start + length * clamped
    }
}

/// FNV-1a hash of a string in hexadecimal: stable across runs (Swift's `hashValue` is seeded).
func stableHash(_ text: String) -> String {
    var h: UInt64 = 0xcbf29ce484222325
    for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
    return String(h & 0xffff_ffff, radix: 16)
}

/// Formats a pixel coordinate with one decimal.
func pixels(_ value: Double) -> String { String(format: "%.1f", value) }

/// Escapes text for XML/HTML content and attributes.
public func escapeXML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for c in text {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(c)
        }
    }
    return out
}

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
