/// Soft tiered smoothing: full smoothing for small inputs, none for large ones, blended between.
///
/// After J. Smart, "Tight and Smooth: Soft Tiered Smoothing" (GyroWiki, 2019), as used for gyro
/// aiming and flick-stick rotation by JoyShockMapper. With the input's Euclidean norm `|x|` and
/// a threshold `T`, the direct weight is
/// ```
/// w = clamp((|x| − T) / (2T − T), 0, 1)        (0 below T, 1 above 2T)
/// s ← s + α·((1 − w)·x − s),  α = dt / (dt + τ)
/// y = w·x + s
/// ```
/// so a slow input (hand shake, sensor noise: |x| ≤ T) goes entirely through the one-pole
/// low-pass `s` (the RC form of ``OnePoleLowPass`` with time constant τ, started at zero), and
/// a fast one (a deliberate turn: |x| ≥ 2T) passes unchanged, with no lag, plus whatever the
/// low-pass still holds from before (it decays with τ). The article averages a buffer of the
/// last samples instead of the one-pole; the one-pole makes τ independent of the sample rate and
/// exact under irregular timing.
///
/// Units: `threshold` in the input's unit (°/s for gyro aiming); `timeConstant` in seconds.
/// `threshold` 0 or `timeConstant` 0 disable the smoothing (output = input).
/// Recovery policy for non-finite input: see ``Filter``.
public struct TieredSmoothing<Value: SignalValue>: TimeAwareFilter where Value.Scalar == Double {
    /// Below this input norm the input is fully smoothed; above twice it, not at all. Input unit.
    public let threshold: Double
    /// Time constant τ of the low-pass of the smoothed share, seconds.
    public let timeConstant: Double
    public var samplePeriod: SamplePeriod<Double>
    @usableFromInline var smoothed: Value = .zero
    @usableFromInline var output: Value = .zero

    /// - Parameters:
    ///   - threshold: input norm below which everything is smoothed (≥ 0, input unit).
    ///   - timeConstant: τ of the low-pass, seconds (≥ 0).
    ///   - sampleRate: nominal rate in Hz (> 0), for `process(_:)` without a period.
    /// - Throws: `FilterParameterError` naming the bad parameter.
    public init(threshold: Double, timeConstant: Double, sampleRate: Double) throws(FilterParameterError) {
        guard threshold >= 0, threshold.isFinite else {
            throw FilterParameterError(parameter: "threshold", message: "must be a finite number ≥ 0, got \(threshold)")
        }
        guard timeConstant >= 0, timeConstant.isFinite else {
            throw FilterParameterError(parameter: "tau", message: "must be a finite number ≥ 0 s, got \(timeConstant)")
        }
        try requirePositive(sampleRate, "rate")
        self.threshold = threshold
        self.timeConstant = timeConstant
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
    }

    /// The share of `input` passed directly, in [0, 1].
    @inlinable
    public func directWeight(_ input: Value) -> Double {
        guard threshold > 0, timeConstant > 0 else { return 1 }
        let w = (input.lengthSquared.squareRoot() - threshold) / threshold
        return Swift.min(Swift.max(w, 0), 1)
    }

    @inlinable
    public mutating func advance(_ input: Value, dt: Double) -> Value {
        let w = directWeight(input)
        if w < 1 || smoothed != .zero {
            let alpha = dt / (dt + timeConstant)
            smoothed = smoothed.addingProductFast(alpha, (1 - w) * input - smoothed)
        }
        output = (w * input) + smoothed
        return output
    }

    @inlinable
    public var lastOutput: Value { output }

    public mutating func reset() {
        smoothed = .zero
        output = .zero
        samplePeriod.reset()
    }
}
