import Foundation
import Poise

/// The attitude section's series, built while the fused attitude streams past: roll, pitch and
/// yaw of the estimate and the ground truth (degrees, CoreMotion convention), prepared as
/// ``AngleSeries`` prepares whole series, and the per-sample error, each reduced to a
/// ``SeriesEnvelope``.
///
/// Roll and yaw are unwrapped across ±180° (masked where |pitch| > ``AngleSeries/gimbalLockPitch``)
/// and centred by the multiple of 360° that puts their median within 180° of 0 (the truth: of the
/// estimate's median); the medians come from 0.01° histograms, so the centring differs from the
/// exact median's only when it lies within 0.01° of a rounding edge. When an unwrapped series spans
/// more than 360° the wrapped series, broken at the wraps, is drawn instead; both are kept.
///
/// Memory: the envelopes and four histograms of 108,000 bins.
struct AttitudeTrace {
    /// One roll or yaw series (estimate or truth).
    struct WrappingAngle {
        var unwrapped: SeriesEnvelope
        var wrapped: SeriesEnvelope
        var histogram = [Int32](repeating: 0, count: AttitudeTrace.histogramBins)
        var counted = 0
        var previousUnwrapped: Double?
        var pending: (x: Double, value: Double)?
        var low = Double.infinity, high = -Double.infinity

        init(range: ClosedRange<Double>, buckets: Int) {
            unwrapped = SeriesEnvelope(range: range, buckets: buckets)
            wrapped = unwrapped
        }

        /// Adds an angle (degrees, NaN where undefined or masked).
        mutating func add(x: Double, degrees value: Double) {
            var u = value
            if value.isFinite {
                if let p = previousUnwrapped { u -= 360 * ((u - p) / 360).rounded() }
                previousUnwrapped = u
                low = min(low, u); high = max(high, u)
                let bin = Int(((u + 540) * 100).rounded(.down))
                if bin >= 0 && bin < AttitudeTrace.histogramBins { histogram[bin] += 1; counted += 1 }
            }
            unwrapped.add(x: x, y: u)
            // Broken at wraps: a value is left out when the next one jumps by more than 180°.
            if let p = pending { wrapped.add(x: p.x, y: abs(value - p.value) > 180 ? .nan : p.value) }
            pending = (x, value)
        }

        mutating func finish() {
            if let p = pending { wrapped.add(x: p.x, y: p.value); pending = nil }
        }

        /// Span of the unwrapped finite values, degrees.
        var span: Double { high >= low ? high - low : 0 }

        /// The median of the unwrapped values to 0.01° (the centre of its histogram bin).
        var median: Double? {
            guard counted > 0 else { return nil }
            var rank = counted / 2
            for (bin, n) in histogram.enumerated() {
                if rank < Int(n) { return (Double(bin) + 0.5) / 100 - 540 }
                rank -= Int(n)
            }
            return nil
        }
    }

    static let histogramBins = 108_000

    let nine: Bool
    let hasTruth: Bool
    var roll: WrappingAngle
    var yaw: WrappingAngle
    var pitch: SeriesEnvelope
    var truthRoll: WrappingAngle
    var truthYaw: WrappingAngle
    var truthPitch: SeriesEnvelope
    var error: SeriesEnvelope
    /// The largest error (degrees) and its time (s from the first sample).
    var worst: (degrees: Double, time: Double)?

    /// - Parameters:
    ///   - duration: the recording's duration, s (the x range of every series).
    ///   - nine: 9D fusion (total error) rather than 6D (inclination error).
    init(duration: Double, buckets: Int, nine: Bool, hasTruth: Bool) {
        self.nine = nine
        self.hasTruth = hasTruth
        let range = 0...max(duration, 0)
        roll = WrappingAngle(range: range, buckets: buckets)
        yaw = roll; truthRoll = roll; truthYaw = roll
        pitch = SeriesEnvelope(range: range, buckets: buckets)
        truthPitch = pitch; error = pitch
    }

    /// Adds the estimate `q` and the truth `truth` (nil or non-finite: none) at `x` s.
    mutating func add(x: Double, estimate q: Quaternion<Double>, truth: Quaternion<Double>?) {
        let degrees = 180 / Double.pi
        let e = DeviceMotion.coreMotionAngles(q)
        let estimate = SIMD3(e.roll, e.pitch, e.yaw) * degrees
        guard hasTruth, let t = truth, t.isFinite, t.lengthSquared > 0 else {
            add(x: x, estimate: estimate, truth: nil, error: .nan)
            return
        }
        let a = DeviceMotion.coreMotionAngles(t.normalized)
        var d = q.normalized * t.normalized.conjugate
        if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
        // 9D: total error; 6D: inclination error (the heading is arbitrary).
        let error = (nine ? 2 * acos(min(1, d.w)) : 2 * acos(min(1, (d.w * d.w + d.z * d.z).squareRoot()))) * degrees
        add(x: x, estimate: estimate, truth: SIMD3(a.roll, a.pitch, a.yaw) * degrees, error: error)
    }

    /// Adds roll, pitch and yaw of the estimate and the truth (degrees, CoreMotion convention;
    /// `truth` nil where the file has none) and the error (degrees, NaN without truth) at `x` s.
    mutating func add(x: Double, estimate e: SIMD3<Double>, truth: SIMD3<Double>?, error value: Double) {
        let masked = abs(e.y) > AngleSeries.gimbalLockPitch
        roll.add(x: x, degrees: masked ? .nan : e.x)
        yaw.add(x: x, degrees: masked ? .nan : e.z)
        pitch.add(x: x, y: e.y)
        guard hasTruth else { return }
        if let t = truth {
            let truthMasked = abs(t.y) > AngleSeries.gimbalLockPitch
            truthRoll.add(x: x, degrees: truthMasked ? .nan : t.x)
            truthYaw.add(x: x, degrees: truthMasked ? .nan : t.z)
            truthPitch.add(x: x, y: t.y)
        } else {
            truthRoll.add(x: x, degrees: .nan)
            truthYaw.add(x: x, degrees: .nan)
            truthPitch.add(x: x, y: .nan)
        }
        error.add(x: x, y: value)
        if value.isFinite, value > (worst?.degrees ?? -.infinity) { worst = (value, x) }
    }

    mutating func finish() {
        roll.finish(); yaw.finish(); truthRoll.finish(); truthYaw.finish()
    }
}
