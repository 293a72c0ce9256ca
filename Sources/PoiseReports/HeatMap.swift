import Foundation
import PoiseRun

/// A heat map (e.g. a spectrogram) rendered as inline SVG: cells coloured on a perceptual scale
/// (dark blue → yellow, like viridis) with a colour bar, axes and labels.
///
/// The matrix is pooled (mean) down to at most `maximumColumns` × `maximumRows` cells and its
/// values quantised to `levels` colours; horizontally adjacent cells of one colour are merged, and
/// each colour is one `<path>`, so a long recording stays a few hundred kilobytes.
public struct HeatMap: Sendable {
    public var title: String
    public var xAxis: PlotAxis
    public var yAxis: PlotAxis
    /// Label of the colour scale, with unit (e.g. "PSD (dB re 1 g²/Hz)").
    public var valueLabel: String
    /// Column coordinates (x), increasing.
    public var x: [Double]
    /// Row coordinates (y), increasing.
    public var y: [Double]
    /// `values[column][row]`; non-finite cells are left blank.
    public var values: [[Double]]
    /// Colour-scale range; default: the finite values' range.
    public var valueRange: ClosedRange<Double>?
    public var frame: PlotFrame
    public var maximumColumns = 220
    public var maximumRows = 80
    public var levels = 24

    public init(title: String, x: PlotAxis, y: PlotAxis, valueLabel: String, xValues: [Double], yValues: [Double],
                values: [[Double]], valueRange: ClosedRange<Double>? = nil, frame: PlotFrame = PlotFrame(height: 300)) {
        self.title = title; xAxis = x; yAxis = y; self.valueLabel = valueLabel
        self.x = xValues; self.y = yValues; self.values = values; self.valueRange = valueRange; self.frame = frame
        self.frame.right = 90
    }

    /// Anchor colours of the scale (viridis samples).
    static let anchors: [(Double, Double, Double)] = [
        (68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]

    /// The colour for a fraction 0…1 of the scale.
    public static func color(_ fraction: Double) -> String {
        let t = min(1, max(0, fraction.isFinite ? fraction : 0)) * Double(anchors.count - 1)
        let i = min(anchors.count - 2, Int(t))
        let u = t - Double(i)
        let a = anchors[i], b = anchors[i + 1]
        func mix(_ p: Double, _ q: Double) -> Int { Int((p + (q - p) * u).rounded()) }
        return String(format: "#%02x%02x%02x", mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// Mean-pools `values` into at most `columns` × `rows` cells; returns the pooled matrix and
    /// the coordinate edges of each pooled column and row.
    static func pool(_ values: [[Double]], columns: Int, rows: Int) -> [[Double]] {
        let nx = values.count, ny = values.first?.count ?? 0
        guard nx > 0, ny > 0 else { return [] }
        let cx = min(nx, columns), cy = min(ny, rows)
        var out = Array(repeating: Array(repeating: Double.nan, count: cy), count: cx)
        for i in 0..<cx {
            let i0 = i * nx / cx, i1 = max(i0 + 1, (i + 1) * nx / cx)
            for j in 0..<cy {
                let j0 = j * ny / cy, j1 = max(j0 + 1, (j + 1) * ny / cy)
                var sum = 0.0, n = 0
                for a in i0..<i1 where a < values.count {
                    let column = values[a]
                    for b in j0..<j1 where b < column.count && column[b].isFinite { sum += column[b]; n += 1 }
                }
                if n > 0 { out[i][j] = sum / Double(n) }
            }
        }
        return out
    }

    public func svg() -> String {
        var f = frame
        f.right = max(f.right, 90)
        let pooled = Self.pool(values, columns: maximumColumns, rows: maximumRows)
        let finite = pooled.flatMap { $0 }.filter(\.isFinite)
        let lo = valueRange?.lowerBound ?? finite.min() ?? 0
        let hi = valueRange?.upperBound ?? finite.max() ?? 1
        let span = hi - lo > 0 ? hi - lo : 1
        // The plot's axes come from the coordinates (cell edges extend half a step beyond them).
        let x0 = x.first ?? 0, x1 = x.last ?? 1, y0 = y.first ?? 0, y1 = y.last ?? 1
        let dx = x.count > 1 ? (x1 - x0) / Double(x.count - 1) : 1
        let dy = y.count > 1 ? (y1 - y0) / Double(y.count - 1) : 1
        let xr = (x0 - dx / 2)...(x1 + dx / 2), yr = max(0, y0 - dy / 2)...(y1 + dy / 2)
        let axes = LinePlot(title: title, x: PlotAxis(xAxis.label, range: xAxis.range ?? xr),
                            y: PlotAxis(yAxis.label, range: yAxis.range ?? yr), series: [], frame: f)
        let xm = PlotScaleMap(axis: axes.xAxis, values: [], start: f.left, length: f.plotWidth, flipped: false, tickCount: 10)
        let ym = PlotScaleMap(axis: axes.yAxis, values: [], start: f.top, length: f.plotHeight, flipped: true, tickCount: 6)
        var s = "<svg class=\"plot heatmap\" width=\"\(pixels(f.width))\" height=\"\(pixels(f.height))\" viewBox=\"0 0 \(pixels(f.width)) \(pixels(f.height))\" role=\"img\" aria-label=\"\(escapeXML(title))\">\n"
        s += "<title>\(escapeXML(title))</title>\n"
        s += "<text class=\"title\" x=\"\(pixels(f.left))\" y=\"18\">\(escapeXML(title))</text>\n"
        s += "<rect class=\"area\" x=\"\(pixels(f.left))\" y=\"\(pixels(f.top))\" width=\"\(pixels(f.plotWidth))\" height=\"\(pixels(f.plotHeight))\"/>\n"
        // Axes first: the cells cover the grid lines (white lines across a spectrogram read as events).
        s += axes.axesSVG(xm: xm, ym: ym)
        // Cells: one path per colour level.
        let columns = pooled.count, rows = pooled.first?.count ?? 0
        if columns > 0 && rows > 0 {
            let cellWidth = f.plotWidth / Double(columns), cellHeight = f.plotHeight / Double(rows)
            var paths = Array(repeating: "", count: levels)
            for j in 0..<rows {
                var i = 0
                while i < columns {
                    let v = pooled[i][j]
                    guard v.isFinite else { i += 1; continue }
                    let level = min(levels - 1, max(0, Int(saturating: (v - lo) / span * Double(levels))))
                    var k = i + 1
                    while k < columns, pooled[k][j].isFinite,
                          min(levels - 1, max(0, Int(saturating: (pooled[k][j] - lo) / span * Double(levels)))) == level { k += 1 }
                    let left = f.left + Double(i) * cellWidth
                    let top = f.top + f.plotHeight - Double(j + 1) * cellHeight
                    paths[level] += "M\(pixels(left)) \(pixels(top))h\(pixels(Double(k - i) * cellWidth + 0.3))v\(pixels(cellHeight + 0.3))h\(pixels(-(Double(k - i) * cellWidth + 0.3)))z"
                    i = k
                }
            }
            for (level, d) in paths.enumerated() where !d.isEmpty {
                s += "<path d=\"\(d)\" fill=\"\(Self.color((Double(level) + 0.5) / Double(levels)))\"/>\n"
            }
        }
        s += "<rect class=\"frame\" x=\"\(pixels(f.left))\" y=\"\(pixels(f.top))\" width=\"\(pixels(f.plotWidth))\" height=\"\(pixels(f.plotHeight))\"/>\n"
        // Colour bar with ticks.
        let barX = f.left + f.plotWidth + 14, barWidth = 14.0
        let steps = 32
        for k in 0..<steps {
            let top = f.top + f.plotHeight * (1 - Double(k + 1) / Double(steps))
            s += "<rect x=\"\(pixels(barX))\" y=\"\(pixels(top))\" width=\"\(pixels(barWidth))\" height=\"\(pixels(f.plotHeight / Double(steps) + 0.5))\" fill=\"\(Self.color((Double(k) + 0.5) / Double(steps)))\"/>"
        }
        s += "\n"
        for t in AxisTicks.linear(lo, hi, count: 5) where t >= lo - 1e-9 && t <= hi + 1e-9 {
            let yy = f.top + f.plotHeight * (1 - (t - lo) / span)
            s += "<text class=\"tick\" x=\"\(pixels(barX + barWidth + 4))\" y=\"\(pixels(yy + 4))\">\(AxisTicks.label(t))</text>"
        }
        let cy = f.top + f.plotHeight / 2, lx = f.width - 6
        s += "\n<text class=\"axis-label\" x=\"\(pixels(lx))\" y=\"\(pixels(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 \(pixels(lx)) \(pixels(cy)))\">\(escapeXML(valueLabel))</text>\n"
        s += "<g class=\"legend\"><text class=\"legend-text\" x=\"\(pixels(f.left))\" y=\"\(pixels(f.height - 12))\">colour: \(escapeXML(valueLabel)), \(fixed(lo, 1)) … \(fixed(hi, 1))</text></g>\n"
        s += "</svg>"
        return s
    }
}
