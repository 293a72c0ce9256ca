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
