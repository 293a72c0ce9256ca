/// One-pole (exponential) low-pass: `y ← α·x + (1 − α)·y`, computed as one fused multiply-add
/// `y = fma(1 − α, y, α·x)` per lane where the target has FMA. Without it (the portable x86-64
/// build, `POISE_NO_FMA`) every second output is computed two steps ahead from the one before the
/// last, `y[n+2] = α·x[n+2] + α(1 − α)·x[n+1] + (1 − α)²·y[n]`, so the dependent chain is one
/// multiply and one add per two samples (docs/filters.md); the outputs in between are the one-step
/// `α·x[n+1] + (1 − α)·y[n]`.
///
/// Two designs:
/// - **By cutoff** (`init(cutoffFrequency:sampleRate:)`): the discretised RC low-pass with
///   `RC = 1 / (2π·fc)` and `α = dt / (dt + RC)`. `α` is recomputed from the real period when
///   `process(_:dt:)` is used, so irregular timestamps are handled. DC gain is exactly 1; the
///   gain at `fc` approaches −3 dB as `fc / sampleRate → 0` (−3.14 dB at `fc = rate/100`,
///   −3.04 dB at `fc = rate/500`; use ``ButterworthFilter`` of order 1 for an exact −3 dB).
/// - **Fixed factor** (`init(factor:)`): the classic `y ← k·x + (1 − k)·y` of older code
///   (`kFilteringFactor`), the same `k` every sample whatever the period (`dt` is ignored).
///   At 60 Hz, `k = 0.1` takes 22 samples to reach 90 % of a step.
///
/// Units: the output has the input's unit. Recovery policy for non-finite input: see ``Filter``.
@frozen
public struct OnePoleLowPass<Value: SignalValue>: TimeAwareFilter {
    public typealias Scalar = Value.Scalar

    /// RC time constant in seconds (`1 / (2π·fc)`); zero for the fixed-factor form.
    public let timeConstant: Scalar
    /// The smoothing factor α used for one nominal period (the fixed `k` for the factor form).
    public let alpha: Scalar
    /// How the state is initialised.
    public let start: FilterStart
    @usableFromInline let oneMinusAlpha: Scalar
    public var samplePeriod: SamplePeriod<Scalar>
    @usableFromInline var state: Value = .zero
    @usableFromInline var started = false
    #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
    /// The two-step coefficients at the nominal period: `α(1 − α)` and `(1 − α)²`.
    @usableFromInline let pairInputFactor: Scalar, pairDecay: Scalar
    /// The output the next two-step update starts from (equal to `state` unless `halfway`).
    @usableFromInline var anchor: Value = .zero
    /// The input of the one-step output since `anchor`, when `halfway`.
    @usableFromInline var pendingInput: Value = .zero
    /// One nominal one-step output has been made since `anchor`; the next nominal step is the
    /// two-step update from `anchor`.
    @usableFromInline var halfway = false
    #endif

    /// One-pole RC low-pass by cutoff frequency.
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
        alpha = Scalar(dt / (dt + rc))
        oneMinusAlpha = 1 - alpha
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        (pairInputFactor, pairDecay) = (alpha * oneMinusAlpha, oneMinusAlpha * oneMinusAlpha)
        #endif
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
        self.start = start
    }

    /// Fixed-factor low-pass `y ← k·x + (1 − k)·y` (independent of time).
    ///
    /// - Parameters:
    ///   - factor: `k` in (0, 1]; 1 passes the input through.
    ///   - start: state initialisation (default: steady state at the first input).
    /// - Throws: `FilterParameterError` when `k` is outside (0, 1].
    public init(factor: Double, start: FilterStart = .firstInput) throws(FilterParameterError) {
        guard factor > 0, factor <= 1 else {
            throw FilterParameterError(parameter: "k", message: "must be in (0, 1], got \(factor)")
        }
        timeConstant = 0
        alpha = Scalar(factor)
        oneMinusAlpha = 1 - alpha
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        (pairInputFactor, pairDecay) = (alpha * oneMinusAlpha, oneMinusAlpha * oneMinusAlpha)
        #endif
        samplePeriod = SamplePeriod(sampleRate: 1)
        self.start = start
    }

    /// One step `y = α·x + (1 − α)·y` from the last output; the first input and an overflow
    /// restart as the recovery policy of ``Filter`` says.
    @inlinable @inline(__always)
    mutating func step(_ input: Value, alpha a: Scalar, oneMinusAlpha b: Scalar) -> Value {
        if _slowPath(!started) {
            started = true
            if start == .firstInput {
                state = input
                #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
                (anchor, halfway) = (input, false)
                #endif
                return input
            }
        }
        let output = (a * input).addingProductFast(b, state)
        guard output.isFinite else { return restart(input) }
        state = output
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        (anchor, halfway) = (output, false)
        #endif
        return output
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        state = input.isFinite ? input : .zero
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        (anchor, halfway) = (state, false)
        #endif
        return state
    }

    /// One step of one nominal period.
    @inlinable @inline(__always)
    mutating func nominalStep(_ input: Value) -> Value {
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        guard _fastPath(started) else { return step(input, alpha: alpha, oneMinusAlpha: oneMinusAlpha) }
        let output = halfway ? pairStep(from: anchor, pendingInput, input) : (alpha * input).addingProductFast(oneMinusAlpha, anchor)
        guard output.isFinite else { return restart(input) }
        if halfway { anchor = output } else { pendingInput = input }
        halfway.toggle()
        state = output
        return output
        #else
        return step(input, alpha: alpha, oneMinusAlpha: oneMinusAlpha)
        #endif
    }

    #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
    /// `y[n+2] = α·x[n+2] + α(1 − α)·x[n+1] + (1 − α)²·y[n]`: two nominal steps at once, with one
    /// multiply and one add between `y[n]` and `y[n+2]`.
    @inlinable @inline(__always)
    func pairStep(from y: Value, _ x1: Value, _ x2: Value) -> Value {
        (alpha * x2).addingProductFast(pairInputFactor, x1).addingProductFast(pairDecay, y)
    }
    #endif

    @inlinable @inline(__always)
    func coefficient(_ dt: Scalar) -> Scalar {
        timeConstant == 0 ? alpha : dt / (dt + timeConstant)
    }

    @inlinable
    public var lastOutput: Value { state }

    @inlinable
    public mutating func advance(_ input: Value, dt: Scalar) -> Value {
        if _fastPath(dt == samplePeriod.nominal) { return nominalStep(input) }
        let a = coefficient(dt)
        return step(input, alpha: a, oneMinusAlpha: 1 - a)
    }

    /// Batch form with the state in a register: same results as the per-sample loop, bit for bit.
    ///
    /// Works in blocks of 256 samples with no branch per sample: once `y` is non-finite it stays
    /// so (`fma(1−α, ±∞ or NaN, ·)` is never finite, and a non-finite input makes `y`
    /// non-finite since α > 0), so checking the block's last output is enough. A block that
    /// fails is redone with the per-sample loop from its starting state, so the recovery policy
    /// is unchanged. In the portable x86-64 build the block runs in pairs of samples (the
    /// two-step update, as the per-sample form does); the outputs between the pairs are off
    /// the chain, so their sum is checked as well.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, into output: UnsafeMutableBufferPointer<Value>) {
        precondition(output.count >= input.count, "output buffer shorter than input")
        process(count: input.count, row: { input[$0] }, into: { output[$0] = $1 })
    }

    /// The batch form over samples kept in any layout (interleaved scalars, another precision):
    /// `row(i)` gives sample `i` and `output(i, y)` takes its output, for i = 0..<count in
    /// order; the outputs are those of `count` calls of `process(_:)`, bit for bit. A block
    /// holding a non-finite value is read again (`row` is called twice for its indices), so
    /// `output` must not write where `row` reads.
    @inlinable @inline(__always)
    public mutating func process(count: Int, row: (Int) -> Value, into output: (Int, Value) -> Void) {
        var index = 0
        while index < count {
            guard started && samplePeriod.carried == 0 else {
                output(index, process(row(index)))
                index += 1
                continue
            }
            let end = Swift.min(index + 256, count)
            let a = alpha, b = oneMinusAlpha
            #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
            var i = index
            var y0 = anchor, pending = pendingInput, half = halfway
            if half {
                y0 = pairStep(from: y0, pending, row(i))
                output(i, y0)
                i += 1
                half = false
            }
            var between = Value.zero   // the sum of the one-step outputs: non-finite if one is
            while i + 1 < end {
                let x1 = row(i), x2 = row(i + 1)
                let y1 = (a * x1).addingProductFast(b, y0)
                y0 = pairStep(from: y0, x1, x2)
                output(i, y1)
                output(i + 1, y0)
                between = between + y1
                i += 2
            }
            var y = y0
            if i < end {
                pending = row(i)
                y = (a * pending).addingProductFast(b, y0)
                output(i, y)
                half = true
            }
            if y.isFinite && between.isFinite {
                (state, anchor, pendingInput, halfway) = (y, y0, pending, half)
            } else {
                for i in index..<end { output(i, process(row(i))) }
            }
            #else
            var y = state
            for i in index..<end {
                y = (a * row(i)).addingProductFast(b, y)
                output(i, y)
            }
            if y.isFinite {
                state = y
            } else {
                for i in index..<end { output(i, process(row(i))) }
            }
            #endif
            index = end
        }
    }

    @inlinable
    public mutating func reset() {
        state = .zero
        started = false
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        (anchor, pendingInput, halfway) = (.zero, .zero, false)
        #endif
        samplePeriod.reset()
    }
}
