import Foundation
import PoiseRun

/// Prepares attitude angles (degrees) for plotting: unwrapping across ±180°, gaps where roll and
/// yaw are undefined (pitch near ±90°, gimbal lock), and an axis range taken from the data.
enum AngleSeries {
    /// |pitch| (degrees) above which roll and yaw are left out: at ±90° they are undefined (only
    /// their sum or difference is), and near it they swing through large angles on tiny changes.
    static let gimbalLockPitch = 85.0

    /// A continuous version of an angle that wraps at ±180°: each value is moved by a multiple of
    /// 360° to within 180° of the previous finite one. Non-finite values stay (gaps).
    static func unwrapped(_ degrees: [Double]) -> [Double] {
        var out = degrees
        var previous: Double?
        for i in out.indices where out[i].isFinite {
            if let p = previous { out[i] -= 360 * ((out[i] - p) / 360).rounded() }
            previous = out[i]
        }
        return out
    }

    /// `values` moved by the multiple of 360° that puts their median within 180° of `reference`
    /// (0 by default).
    static func centred(_ values: [Double], near reference: Double = 0) -> [Double] {
        guard let median = median(values) else { return values }
        let shift = 360 * ((median - reference) / 360).rounded()
        return values.map { $0 - shift }
    }

    /// The median of the finite values.
    static func median(_ values: [Double]) -> Double? {
        let finite = values.filter(\.isFinite).sorted()
        return finite.isEmpty ? nil : finite[finite.count / 2]
    }

    /// A wrapped series with a gap wherever consecutive values jump by more than 180° (a wrap),
    /// so no line crosses the plot.
    static func brokenAtWraps(_ values: [Double]) -> [Double] {
        var out = values
        for i in values.indices.dropFirst() where abs(values[i] - values[i - 1]) > 180 { out[i - 1] = .nan }
        return out
    }

    /// `values` with a gap wherever |pitch| > ``gimbalLockPitch``.
    static func maskedAtGimbalLock(_ values: [Double], pitch: [Double]) -> [Double] {
        zip(values, pitch).map { value, p in abs(p) > gimbalLockPitch ? .nan : value }
    }

    /// Roll or yaw ready to plot: unwrapped and centred when the unwrapped series spans at most
    /// 360° (so ±20° about 180° is a 40° band, not two lines at ±180°), wrapped and broken at
    /// the wraps otherwise (many full turns). `truth` follows the same choice, centred near the
    /// estimate. Both are masked at gimbal lock by their own pitch.
    static func wrappingAngle(estimate: [Double], estimatePitch: [Double], truth: [Double]?, truthPitch: [Double]?)
        -> (estimate: [Double], truth: [Double]?, wraps: Bool) {
        let e = maskedAtGimbalLock(estimate, pitch: estimatePitch)
        let t = truth.map { maskedAtGimbalLock($0, pitch: truthPitch ?? $0.map { _ in 0 }) }
        let unwrappedEstimate = unwrapped(e)
        let finite = unwrappedEstimate.filter(\.isFinite)
        let span = (finite.max() ?? 0) - (finite.min() ?? 0)
        if span <= 360 {
            let centredEstimate = centred(unwrappedEstimate)
            let reference = median(centredEstimate) ?? 0
            return (centredEstimate, t.map { centred(unwrapped($0), near: reference) }, false)
        }
        return (brokenAtWraps(e), t.map(brokenAtWraps), true)
    }

    /// An axis range (degrees) covering the finite values of `series`, widened to whole tick
    /// steps with a margin of 4 % each side, at least `minimumSpan` wide (so sensor noise on a
    /// still angle is not magnified).
    static func axisRange(_ series: [[Double]], minimumSpan: Double = 10) -> ClosedRange<Double> {
        let finite = series.flatMap { $0 }.filter(\.isFinite)
        guard var lo = finite.min(), var hi = finite.max() else { return -minimumSpan / 2...minimumSpan / 2 }
        if hi - lo < minimumSpan {
            let middle = (lo + hi) / 2
            lo = middle - minimumSpan / 2; hi = middle + minimumSpan / 2
        }
        let pad = 0.04 * (hi - lo)
        lo -= pad; hi += pad
        let ticks = AxisTicks.linear(lo, hi, count: 6)
        return ticks.first!...ticks.last!
    }
}
