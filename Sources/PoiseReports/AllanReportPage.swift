/// The HTML page of `poise allan --report`: per sensor a log-log plot of the overlapping Allan
/// deviation of each axis (SI units: rad/s, m/s²) with its fitted lines — white noise
/// σ = N/√τ (slope −1/2), the bias-instability floor 0.664·B, rate random walk σ = K·√(τ/3)
/// (slope +1/2), dashed in the axis's colour — and a table of the noise parameters.
public struct AllanReportPage: Sendable {
    /// One axis: deviations at the page's cluster times and its parameters (SI, nil when not
    /// determined) and the table rows (label, display unit, display value, SI unit, SI value,
    /// reason when not determined).
    public struct Axis: Sendable {
        public var name: String
        public var isGyroscope: Bool
        public var deviations: [Double]
        public var noiseDensity: Double?
        public var biasInstability: Double?
        public var biasInstabilityClusterTime: Double?
        public var randomWalk: Double?
        public var rows: [(String, String, Double?, String, Double?, String?)]

        public init(name: String, isGyroscope: Bool, deviations: [Double], noiseDensity: Double?, biasInstability: Double?,
                    biasInstabilityClusterTime: Double?, randomWalk: Double?,
                    rows: [(String, String, Double?, String, Double?, String?)]) {
            self.name = name; self.isGyroscope = isGyroscope; self.deviations = deviations
            self.noiseDensity = noiseDensity; self.biasInstability = biasInstability
            self.biasInstabilityClusterTime = biasInstabilityClusterTime; self.randomWalk = randomWalk; self.rows = rows
        }
    }

    public var title: String
    /// Lines shown above the plots.
    public var summary: [String]
    /// τ per point, s.
    public var clusterTimes: [Double]
    public var axes: [Axis]

    public init(title: String, summary: [String], clusterTimes: [Double], axes: [Axis]) {
        self.title = title; self.summary = summary; self.clusterTimes = clusterTimes; self.axes = axes
    }

    /// The whole page (self-contained HTML).
    public func html() -> String {
        var page = HTMLReport(title: title)
        page.heading(title)
        for line in summary { page.paragraph(line) }
        for gyroscope in [true, false] {
            let group = axes.filter { $0.isGyroscope == gyroscope }
            guard !group.isEmpty, let low = clusterTimes.first, let high = clusterTimes.last, high > low else { continue }
            var series: [PlotSeries] = []
            let lineTimes = [low, high]
            for (i, axis) in group.enumerated() {
                let color = PlotPalette.color(i)
                series.append(PlotSeries(axis.name, x: clusterTimes, y: axis.deviations, color: color))
                series.append(PlotSeries(axis.name, x: clusterTimes, y: axis.deviations, color: color, style: .markers(radius: 2.5), inLegend: false))
                if let n = axis.noiseDensity {
                    series.append(PlotSeries("N", x: lineTimes, y: lineTimes.map { n / $0.squareRoot() }, color: color, width: 1, dashed: true, inLegend: false))
                }
                if let b = axis.biasInstability {
                    series.append(PlotSeries("B", x: lineTimes, y: [b * 0.664, b * 0.664], color: color, width: 1, dashed: true, inLegend: false))
                }
                if let k = axis.randomWalk {
                    series.append(PlotSeries("K", x: lineTimes, y: lineTimes.map { k * ($0 / 3).squareRoot() }, color: color, width: 1, dashed: true, inLegend: false))
                }
            }
            let values = group.flatMap(\.deviations).filter { $0 > 0 && $0.isFinite }
            let range = (values.min() ?? 1e-6) / 2...(values.max() ?? 1) * 2
            let unit = gyroscope ? "rad/s" : "m/s²"
            let plot = LinePlot(title: "\(gyroscope ? "Gyroscope" : "Accelerometer") overlapping Allan deviation",
                                x: PlotAxis("cluster time τ (s)", scale: .logarithmic),
                                y: PlotAxis("σ(τ) (\(unit))", scale: .logarithmic, range: range), series: series)
            page.figure(plot.svg(), caption: "Allan deviation per axis (markers); dashed: the fitted white-noise line N/√τ, the bias-instability floor 0.664·B and the random-walk line K·√(τ/3) of each axis that determines them.")
            var rows: [[String]] = []
            for axis in group {
                for row in axis.rows {
                    rows.append([axis.name, row.0, row.2.map(format) ?? "not determined", row.1, row.4.map(format) ?? "–", row.3, row.5 ?? ""])
                }
            }
            page.table(header: ["axis", "parameter", "value", "unit", "SI value", "SI unit", "why not determined"], rows: rows)
        }
        return page.render()
    }

    private func format(_ x: Double) -> String { String(format: "%.3g", x) }
}

import Foundation
