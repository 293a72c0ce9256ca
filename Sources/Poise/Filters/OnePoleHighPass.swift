/// One-pole high-pass, in two classic forms.
///
/// - **By cutoff** (`init(cutoffFrequency:sampleRate:)`): the discretised RC high-pass
///   `y ← α·(y + x − x_previous)` with `RC = 1 / (2π·fc)` and `α = RC / (RC + dt)`, `α`
///   recomputed from the real period in `process(_:dt:)`. Gain 0 at DC, → 1 toward Nyquist.
/// - **Fixed factor** (`init(factor:)`): the complement of the fixed-factor low-pass,
///   `g ← k·x + (1 − k)·g; y = x − g` — what older code did to remove gravity
///   (`kFilteringFactor`). `dt` is ignored.
///
/// With `start: .firstInput` the first input is taken as the steady state (output 0); with
/// `.zero` the memory starts at zero (the first output is `α·x` for the RC form, `(1 − k)·x`
/// for the factor form). Recovery policy for non-finite input: see ``Filter``.
@frozen
public struct OnePoleHighPass<Value: SignalValue>: TimeAwareFilter {
    public typealias Scalar = Value.Scalar

    /// RC time constant in seconds (`1 / (2π·fc)`); zero for the fixed-factor form.
    public let timeConstant: Scalar
    /// For the RC form, α = RC / (RC + dt) at the nominal period; for the factor form, `k`.
    public let alpha: Scalar
    /// How the state is initialised.
    public let start: FilterStart
    public var samplePeriod: SamplePeriod<Scalar>
    /// RC form: the previous output. Factor form: the low-passed (gravity) estimate.
    @usableFromInline var state: Value = .zero
    @usableFromInline var previousInput: Value = .zero
    @usableFromInline var output: Value = .zero
    @usableFromInline var started = false

    /// One-pole RC high-pass by cutoff frequency.
    ///
    /// - Parameters:
    ///   - cutoffFrequency: cutoff `fc` in Hz (> 0).
    ///   - sampleRate: nominal sample rate in Hz (> 0).
    ///   - start: state initialisation (default: steady state at the first input).
    /// - Throws: `FilterParameterError` for a non-positive or non-finite parameter.
    public init(cutoffFrequency: Double, sampleRate: Double, start: FilterStart = .firstInput) throws(FilterParameterError) {
        try requirePositive(cutoffFrequency, "cutoff")
        try requirePositive(sampleRate, "rate")
        let rc = 1 / (2 * Double.pi * cutoffFrequency)
        let dt = 1 / sampleRate
        timeConstant = Scalar(rc)
        alpha = Scalar(rc / (rc + dt))
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
        self.start = start
    }

    /// Fixed-factor high-pass `y = x − lowpass_k(x)`.
    ///
    /// - Parameters:
    ///   - factor: the low-pass factor `k` in (0, 1].
    ///   - start: state initialisation (default: steady state at the first input).
    /// - Throws: `FilterParameterError` when `k` is outside (0, 1].
    public init(factor: Double, start: FilterStart = .firstInput) throws(FilterParameterError) {
        guard factor > 0, factor <= 1 else {
            throw FilterParameterError(parameter: "k", message: "must be in (0, 1], got \(factor)")
        }
        timeConstant = 0
        alpha = Scalar(factor)
        samplePeriod = SamplePeriod(sampleRate: 1)
        self.start = start
    }

    @inlinable @inline(__always)
    public mutating func advance(_ input: Value, dt: Scalar) -> Value {
        if _slowPath(!started) {
            started = true
            if start == .firstInput {
                state = timeConstant == 0 ? input : .zero
                previousInput = input
                output = .zero
                return output
            }
        }
        let next: Value
        let nextState: Value
        if timeConstant == 0 {
            nextState = (alpha * input).addingProductFast(1 - alpha, state)
            next = input - nextState
        } else {
            let a = dt == samplePeriod.nominal ? alpha : timeConstant / (timeConstant + dt)
            nextState = a * (state + input - previousInput)
            next = nextState
        }
        guard next.isFinite, nextState.isFinite else { return restart(input) }
        state = nextState
        previousInput = input
        output = next
        return next
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        state = timeConstant == 0 ? input : .zero
        previousInput = input
        output = .zero
        return output
    }

    @inlinable
    public var lastOutput: Value { output }

    @inlinable
    public mutating func reset() {
        state = .zero
        previousInput = .zero
        output = .zero
        started = false
        samplePeriod.reset()
    }
}
