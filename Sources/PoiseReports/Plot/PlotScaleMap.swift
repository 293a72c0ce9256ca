import Foundation
import PoiseRun

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
