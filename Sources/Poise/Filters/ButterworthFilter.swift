/// Butterworth low-pass, high-pass or band-pass of order 1…8, run as a cascade of biquads in
/// transposed direct form II — the recurrence of `scipy.signal.sosfilt` on the sections of
/// `scipy.signal.butter(..., output="sos")` (see ``ButterworthDesign``), with fused
/// multiply-adds (the internal `BiquadCascade` kernels). `init(sections:)` runs any SOS cascade.
///
/// Fixed-rate design: `dt` is ignored (resample irregular data first). Low-pass DC gain is 1,
/// the gain at each band edge is exactly −3.01 dB (1/√2).
///
/// `start: .zero` gives scipy's default zero initial state; `.firstInput` gives the steady state
/// for the first input held forever (scipy: `sosfilt_zi(sos) * x[0]`). Recovery policy for
/// non-finite input: see ``Filter``.
///
/// Storage: the coefficients and state live in arrays made at initialisation; `process`
/// allocates nothing (the first `process` after copying a filter copies its state once).
public struct ButterworthFilter<Value: SignalValue>: Filter {
    public typealias Scalar = Value.Scalar

    /// The design in Double precision.
    public let sections: [Biquad]
    /// How the state is initialised.
    public let start: FilterStart
    /// Coefficients per section: b0, b1, b2, a1, a2.
    @usableFromInline let coefficients: [Scalar]
    /// Transposed direct form II state: two values per section.
    @usableFromInline var state: [Value]
    /// Copy of `state` taken at the start of each block of the buffer form (so the block can be
    /// redone with the per-sample loop).
    @usableFromInline var snapshot: [Value]
    @usableFromInline var output: Value = .zero
    @usableFromInline var started = false
    /// False keeps the buffer form on the Swift kernels where the portable build would hand its
    /// blocks to the AVX kernel (`BiquadAVXKernel`); tests compare the two.
    @usableFromInline var dispatches = true

    /// Designs and makes the filter.
    ///
    /// - Parameters:
    ///   - band: pass band with edges in Hz.
    ///   - order: 1…8.
    ///   - sampleRate: Hz.
    ///   - start: state initialisation (default: steady state at the first input).
    /// - Throws: `FilterParameterError` naming the bad parameter.
    public init(band: ButterworthBand, order: Int, sampleRate: Double, start: FilterStart = .firstInput) throws(FilterParameterError) {
        try self.init(sections: ButterworthDesign.sections(band: band, order: order, sampleRate: sampleRate), start: start)
    }

    /// Runs given second-order sections (for example from scipy) as a cascade.
    public init(sections: [Biquad], start: FilterStart = .zero) {
        self.sections = sections
        self.start = start
        coefficients = sections.flatMap { [Scalar($0.b0), Scalar($0.b1), Scalar($0.b2), Scalar($0.a1), Scalar($0.a2)] }
        state = Array(repeating: .zero, count: 2 * sections.count)
        snapshot = state
    }

    /// Filters one sample; allocates nothing. Same arithmetic as the buffer form
    /// (the `BiquadCascade` kernels), so the two give bit-identical outputs.
    @inlinable
    public mutating func process(_ input: Value) -> Value {
        guard input.isFinite else { return output }
        if _slowPath(!started) {
            started = true
            if start == .firstInput { return settle(at: input) }
        }
        let count = coefficients.count / 5
        var x = input
        let finite: Bool = coefficients.withUnsafeBufferPointer { c in
            state.withUnsafeMutableBufferPointer { s in
                // Any NaN or infinity in the state makes this sum NaN (∞·0 = NaN, finite·0 = 0).
                var probe = Value.zero
                for k in 0..<count {
                    x = BiquadCascade<Value>.Section(c.baseAddress! + 5 * k).step(x, &s[2 * k], &s[2 * k + 1])
                    probe = probe + (0 * s[2 * k] + 0 * s[2 * k + 1])
                }
                return (probe + x).isFinite
            }
        }
        guard finite else { return restart(input) }
        output = x
        return x
    }

    /// Samples per block of the buffer form: the unit that is checked for non-finite values and
    /// redone sample by sample when it holds one.
    @usableFromInline static var blockLength: Int { 1024 }

    /// Buffer form: blocks of 1,024 samples (`blockLength`), each run through `BiquadCascade`'s
    /// kernels (up to four sections per pass, interleaved sample by sample, state in registers).
    /// Same arithmetic per sample as `process(_:)`, so bit-identical output (the portable
    /// x86-64 build runs Double vectors through the same arithmetic compiled for AVX when the
    /// CPU has it, `BiquadAVXKernel`). A non-finite value
    /// cannot become finite again in the recurrence (`0·∞` is NaN, `∞ − ∞` is NaN), so a block
    /// that met a non-finite input or overflowed ends with a non-finite state; that block is
    /// then redone from its starting state with the per-sample loop, which applies the recovery
    /// policy of ``Filter``.
    ///
    /// - Precondition: `output.count >= input.count`; `output` does not overlap `input` (a
    ///   block with a non-finite value is redone from its input).
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, into output: UnsafeMutableBufferPointer<Value>) {
        precondition(output.count >= input.count, "output buffer shorter than input")
        let n = input.count
        var i = 0
        while i < n && !started {
            output[i] = process(input[i])
            i += 1
        }
        guard i < n, let x = input.baseAddress, let y = output.baseAddress else { return }
        while i < n {
            let m = Swift.min(Self.blockLength, n - i)
            if !runBlock(x + i, y + i, count: m) {
                for j in i..<(i + m) { y[j] = process(x[j]) }
            }
            i += m
        }
    }

    /// Runs one block through the kernels; on a non-finite state restores the state the block
    /// started from and returns false.
    @inlinable
    mutating func runBlock(_ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, count m: Int) -> Bool {
        let count = coefficients.count / 5
        let finite: Bool = coefficients.withUnsafeBufferPointer { c in
            state.withUnsafeMutableBufferPointer { s in
                snapshot.withUnsafeMutableBufferPointer { saved in
                    for k in s.indices { saved[k] = s[k] }
                }
                if let coefficients = c.baseAddress, let state = s.baseAddress {
                    BiquadCascade<Value>.run(coefficients, sections: count, state: state, x, y, count: m,
                                             dispatch: dispatches)
                } else {
                    y.update(from: x, count: m)   // no sections
                }
                var probe = 0 * y[m - 1]
                for k in s.indices { probe = probe + 0 * s[k] }
                return probe.isFinite
            }
        }
        if finite {
            output = y[m - 1]
        } else {
            for k in state.indices { state[k] = snapshot[k] }
        }
        return finite
    }

    /// Ignores `dt` (fixed-rate design); equals `process(input)`.
    @inlinable
    public mutating func process(_ input: Value, dt: Double) -> Value { process(input) }

    /// Ignores `dt` (fixed-rate design): the buffer form ``process(_:into:)``, which equals
    /// `process(input[i], dt: dt[i])` in a loop.
    ///
    /// - Precondition: `dt.count >= input.count`, `output.count >= input.count`, no overlap.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, dt: UnsafeBufferPointer<Double>,
                                 into output: UnsafeMutableBufferPointer<Value>) {
        precondition(dt.count >= input.count, "buffer shorter than input")
        process(input, into: output)
    }

    /// Sets every section to the steady state for `input` held constant; returns the output.
    @usableFromInline
    mutating func settle(at input: Value) -> Value {
        var x = input
        for k in 0..<(coefficients.count / 5) {
            let b1 = coefficients[5 * k + 1], b2 = coefficients[5 * k + 2]
            let a1 = coefficients[5 * k + 3], a2 = coefficients[5 * k + 4]
            // The DC gain from the design's Double coefficients: in Float, 1 + a1 + a2 rounds to
            // 0 for a cutoff far below the rate (5 Hz at 1 MHz) and the gain became ±inf or NaN.
            let d = sections[k]
            let gain = Scalar((d.b0 + d.b1 + d.b2) / (1 + d.a1 + d.a2))
            let y = gain * x
            state[2 * k + 1] = b2 * x - a2 * y
            state[2 * k] = (b1 * x - a1 * y) + state[2 * k + 1]
            x = y
        }
        output = x
        return x
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        let y = settle(at: input)
        if y.isFinite && state.allSatisfy(\.isFinite) { return y }
        for i in state.indices { state[i] = .zero }
        output = .zero
        return output
    }

    public mutating func reset() {
        for i in state.indices { state[i] = .zero; snapshot[i] = .zero }
        output = .zero
        started = false
    }
}
