/// Butterworth low-pass, high-pass or band-pass of order 1…8, run as a cascade of biquads in
/// transposed direct form II — the same computation as `scipy.signal.sosfilt` on the sections of
/// `scipy.signal.butter(..., output="sos")` (see ``ButterworthDesign``).
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
    @usableFromInline var output: Value = .zero
    @usableFromInline var started = false

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
    }

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
                // Any NaN or infinity in the state makes this sum non-finite.
                var probe = Value.zero
                for k in 0..<count {
                    let b0 = c[5 * k], b1 = c[5 * k + 1], b2 = c[5 * k + 2], a1 = c[5 * k + 3], a2 = c[5 * k + 4]
                    let y = s[2 * k].addingProduct(b0, x)
                    s[2 * k] = (b1 * x - a1 * y) + s[2 * k + 1]
                    s[2 * k + 1] = b2 * x - a2 * y
                    probe = probe + s[2 * k] + s[2 * k + 1]
                    x = y
                }
                return (probe + x).isFinite
            }
        }
        guard finite else { return restart(input) }
        output = x
        return x
    }

    /// Ignores `dt` (fixed-rate design); equals `process(input)`.
    @inlinable
    public mutating func process(_ input: Value, dt: Double) -> Value { process(input) }

    /// Sets every section to the steady state for `input` held constant; returns the output.
    @usableFromInline
    mutating func settle(at input: Value) -> Value {
        var x = input
        for k in 0..<(coefficients.count / 5) {
            let b0 = coefficients[5 * k], b1 = coefficients[5 * k + 1], b2 = coefficients[5 * k + 2]
            let a1 = coefficients[5 * k + 3], a2 = coefficients[5 * k + 4]
            let gain = (b0 + b1 + b2) / (1 + a1 + a2)
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
        for i in state.indices { state[i] = .zero }
        output = .zero
        started = false
    }
}
