/// The One Euro filter: a low-pass whose cutoff rises with the signal's speed.
///
/// G. Casiez, N. Roussel, D. Vogel, "1 € Filter: A Simple Speed-based Low-pass Filter for Noisy
/// Input in Interactive Systems", CHI 2012. Per lane, with `τ(f) = 1/(2π·f)` and
/// `α(f) = 1 / (1 + τ(f)/dt)`:
/// ```
/// dx  = (x − y_previous) / dt                   (0 for the first sample)
/// ėx ← α(dcutoff)·dx + (1 − α(dcutoff))·ėx      (starts at the first dx, i.e. 0)
/// fc  = mincutoff + beta·|ėx|
/// y  ← α(fc)·x + (1 − α(fc))·y                  (starts at the first x)
/// ```
/// as in the paper and the authors' reference implementation (`OneEuroFilter` 0.2.1 on PyPI,
/// which differentiates against the previous *filtered* value; tested against it). Units: `mincutoff` and `dcutoff` in Hz; `beta` in 1/(input unit) — for
/// accelerometer data in g, `beta` is per g/s of speed. Vector values are filtered lane by lane
/// (each axis has its own cutoff). `dt` from `process(_:dt:)` is used directly.
///
/// The filter always starts at its first input (there is no steady state to choose). Recovery
/// policy: see ``Filter``.
public struct OneEuroFilter<Value: SignalValue>: TimeAwareFilter {
    public typealias Scalar = Value.Scalar

    /// Minimum cutoff in Hz (the cutoff at rest).
    public let minimumCutoff: Scalar
    /// Speed coefficient: Hz of cutoff per (input unit per second).
    public let beta: Scalar
    /// Cutoff in Hz of the speed's low-pass.
    public let derivativeCutoff: Scalar
    public var samplePeriod: SamplePeriod<Scalar>
    @usableFromInline var output: Value = .zero
    @usableFromInline var speed: Value = .zero
    @usableFromInline var started = false

    /// - Parameters:
    ///   - minimumCutoff: `mincutoff`, Hz (> 0).
    ///   - beta: `beta` (≥ 0).
    ///   - derivativeCutoff: `dcutoff`, Hz (> 0).
    ///   - sampleRate: nominal rate in Hz (> 0).
    /// - Throws: `FilterParameterError` naming the bad parameter.
    public init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double = 1, sampleRate: Double) throws(FilterParameterError) {
        try requirePositive(minimumCutoff, "mincutoff")
        try requirePositive(derivativeCutoff, "dcutoff")
        try requirePositive(sampleRate, "rate")
        guard beta >= 0, beta.isFinite else {
            throw FilterParameterError(parameter: "beta", message: "must be a finite number ≥ 0, got \(beta)")
        }
        self.minimumCutoff = Scalar(minimumCutoff)
        self.beta = Scalar(beta)
        self.derivativeCutoff = Scalar(derivativeCutoff)
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
    }

    @inlinable
    public mutating func advance(_ input: Value, dt: Scalar) -> Value {
        if _slowPath(!started) {
            started = true
            output = input
            speed = .zero
            return input
        }
        let twoPiDt = 2 * Scalar.pi * dt
        // α(f) = 1/(1 + τ/dt) = 2π·f·dt / (2π·f·dt + 1)
        let derivativeAlpha = twoPiDt * derivativeCutoff / (twoPiDt * derivativeCutoff + 1)
        let rawSpeed = (1 / dt) * (input - output)
        let nextSpeed = derivativeAlpha * rawSpeed + (1 - derivativeAlpha) * speed
        let cutoff = Value(repeating: minimumCutoff) + beta * nextSpeed.laneMagnitudes
        let scaled = twoPiDt * cutoff
        let alpha = scaled / (scaled + Value(repeating: 1))
        let next = alpha * input + (Value(repeating: 1) - alpha) * output
        guard next.isFinite, nextSpeed.isFinite else { return restart(input) }
        output = next
        speed = nextSpeed
        return next
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        output = input
        speed = .zero
        return input
    }

    @inlinable
    public var lastOutput: Value { output }

    public mutating func reset() {
        output = .zero
        speed = .zero
        started = false
        samplePeriod.reset()
    }
}
