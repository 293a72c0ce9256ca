import Foundation
import PoiseRun

/// A vertical band or line marking a time span or instant on a plot (e.g. a still segment).
public struct PlotBand: Sendable, Equatable {
    public var from: Double
    public var to: Double
    public var color: String
    public init(from: Double, to: Double, color: String) { self.from = from; self.to = to; self.color = color }
}
