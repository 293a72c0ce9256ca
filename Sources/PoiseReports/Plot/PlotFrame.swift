import Foundation
import PoiseRun

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
