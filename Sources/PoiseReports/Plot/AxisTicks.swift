import Foundation
import PoiseRun

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
