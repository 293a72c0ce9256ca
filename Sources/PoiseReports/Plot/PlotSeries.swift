import Foundation
import PoiseRun

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
