/// The arithmetic of a cascade of biquads in transposed direct form II, shared by the per-sample
/// and block forms of ``ButterworthFilter`` so both give bit-identical results.
///
/// One section, one sample (`x` in, `y` out, state `s0`, `s1`), every step a fused multiply-add
/// (one rounding):
///
///     y  = fma(b0, x, s0)
///     s0 = fma(−a1, y, fma(b1, x, s1))
///     s1 = fma(−a2, y, b2·x)
///
/// Only `fma(b0, x, s0)` and `fma(−a1, y, ·)` depend on the previous sample, so the recurrence
/// is a chain of two fused multiply-adds per section per sample (8 cycles on Zen 3/4). Fused
/// operations also keep the compiler's code for `SIMD4<Float>` at one vector instruction per
/// step when it targets AVX-512: separate multiplies and adds were split into scalar lanes and
/// shuffles there (docs/filters.md has the numbers). Without FMA in the target (the portable
/// x86-64 build, `POISE_NO_FMA`), where a fused step would be a call to libm, `Section.step`
/// is `stepUnfused`: separate multiplies and adds with y substituted into the state update,
/// which keeps the chain at one multiply and one add; its values differ from the fused form's
/// in rounding.
///
/// That build has no AVX either, so a Double vector of 4 or more lanes is split into SSE halves.
/// There `run` hands such blocks to the same unfused arithmetic compiled for AVX
/// (`BiquadAVXKernel`) when the CPU has AVX: the same operations in the same order, so the
/// same bits as the Swift kernels.
///
/// The block kernels run up to four sections per pass over a block, interleaved sample by
/// sample, with every section's state in registers: the sections' chains are independent from
/// one sample to the next, so the processor overlaps them and a block costs about one chain per
/// sample rather than one chain per section per sample.
@usableFromInline
enum BiquadCascade<Value: SignalValue> {
    @usableFromInline typealias Scalar = Value.Scalar

    /// One section's coefficients, read from five consecutive scalars `b0, b1, b2, a1, a2`
    /// (the feedback coefficients are kept negated; negation is exact).
    @usableFromInline @frozen
    struct Section {
        @usableFromInline let b0: Scalar, b1: Scalar, b2: Scalar, minusA1: Scalar, minusA2: Scalar
        /// b1 − a1·b0 and b2 − a2·b0: the state update with y substituted (`stepUnfused`).
        @usableFromInline let c1: Scalar, c2: Scalar

        @inlinable @inline(__always)
        init(_ c: UnsafePointer<Scalar>) {
            b0 = c[0]; b1 = c[1]; b2 = c[2]; minusA1 = -c[3]; minusA2 = -c[4]
            c1 = b1 + minusA1 * b0; c2 = b2 + minusA2 * b0
        }

        /// Filters one sample `x`, updating the state `s0`, `s1`; returns the output. Fused
        /// where the target has FMA, `stepUnfused` where it does not.
        @inlinable @inline(__always)
        func step(_ x: Value, _ s0: inout Value, _ s1: inout Value) -> Value {
            #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
            return stepUnfused(x, &s0, &s1)
            #else
            // Two dependent fused multiply-adds per section: a chain of 8 cycles.
            let y = s0.addingProduct(b0, x)
            s0 = s1.addingProduct(b1, x).addingProduct(minusA1, y)
            s1 = (b2 * x).addingProduct(minusA2, y)
            return y
            #endif
        }

        /// `step` without fused operations (the portable x86-64 build's; `BiquadAVXKernel`
        /// repeats it operation for operation): y substituted into the state update
        /// (s0 = s1 + (b1 − a1·b0)·x − a1·s0, s1 = (b2 − a2·b0)·x − a2·s0), so the chain from one
        /// s0 to the next is one multiply and one add (8 cycles, as the fused form) instead of
        /// add, multiply, add (12).
        @inlinable @inline(__always)
        func stepUnfused(_ x: Value, _ s0: inout Value, _ s1: inout Value) -> Value {
            let previous = s0
            let y = previous + b0 * x
            s0 = (s1 + c1 * x) + minusA1 * previous
            s1 = c2 * x + minusA2 * previous
            return y
        }
    }

    /// Runs `sections` sections (coefficients `c`, 5 per section; state `s`, 2 per section) over
    /// `n` samples from `x` into `y` (`y` may be `x`). No check for non-finite values: the
    /// caller inspects the state afterwards (a non-finite value anywhere in the block leaves
    /// some section's `s0` non-finite, see ``ButterworthFilter``). `dispatch: false` keeps the
    /// Swift kernels where `BiquadAVXKernel` would be selected (tests compare the two).
    @inlinable
    static func run(_ c: UnsafePointer<Scalar>, sections: Int, state s: UnsafeMutablePointer<Value>,
                    _ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, count n: Int,
                    dispatch: Bool = true) {
        guard sections > 0 else {
            if UnsafePointer(y) != x { y.update(from: x, count: n) }
            return
        }
        #if POISE_NO_FMA && arch(x86_64)
        if dispatch && BiquadAVXKernel.runs(Value.self) && BiquadAVXKernel.isSelected {
            BiquadAVXKernel.run(c, sections: sections, state: s, x, y, count: n)
            return
        }
        #endif
        // Four sections keep 8 state vectors in registers; a value wider than one AVX register
        // (SIMD16<Float>, SIMD8<Double>) needs two per vector, so take two sections at a time.
        let group = MemoryLayout<Value>.size > 32 ? 2 : 4
        var source = x
        var k = 0
        while k < sections {
            let g = Swift.min(group, sections - k)
            switch g {
            case 1: run1(c + 5 * k, s + 2 * k, source, y, n)
            case 2: run2(c + 5 * k, s + 2 * k, source, y, n)
            case 3: run3(c + 5 * k, s + 2 * k, source, y, n)
            default: run4(c + 5 * k, s + 2 * k, source, y, n)
            }
            source = UnsafePointer(y)
            k += g
        }
    }

    @inlinable
    static func run1(_ c: UnsafePointer<Scalar>, _ s: UnsafeMutablePointer<Value>,
                     _ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, _ n: Int) {
        let p = Section(c)
        var p0 = s[0], p1 = s[1]
        for i in 0..<n {
            y[i] = p.step(x[i], &p0, &p1)
        }
        s[0] = p0; s[1] = p1
    }

    @inlinable
    static func run2(_ c: UnsafePointer<Scalar>, _ s: UnsafeMutablePointer<Value>,
                     _ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, _ n: Int) {
        let p = Section(c), q = Section(c + 5)
        var p0 = s[0], p1 = s[1], q0 = s[2], q1 = s[3]
        for i in 0..<n {
            y[i] = q.step(p.step(x[i], &p0, &p1), &q0, &q1)
        }
        s[0] = p0; s[1] = p1; s[2] = q0; s[3] = q1
    }

    @inlinable
    static func run3(_ c: UnsafePointer<Scalar>, _ s: UnsafeMutablePointer<Value>,
                     _ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, _ n: Int) {
        let p = Section(c), q = Section(c + 5), r = Section(c + 10)
        var p0 = s[0], p1 = s[1], q0 = s[2], q1 = s[3], r0 = s[4], r1 = s[5]
        for i in 0..<n {
            y[i] = r.step(q.step(p.step(x[i], &p0, &p1), &q0, &q1), &r0, &r1)
        }
        s[0] = p0; s[1] = p1; s[2] = q0; s[3] = q1; s[4] = r0; s[5] = r1
    }

    @inlinable
    static func run4(_ c: UnsafePointer<Scalar>, _ s: UnsafeMutablePointer<Value>,
                     _ x: UnsafePointer<Value>, _ y: UnsafeMutablePointer<Value>, _ n: Int) {
        let p = Section(c), q = Section(c + 5), r = Section(c + 10), t = Section(c + 15)
        var p0 = s[0], p1 = s[1], q0 = s[2], q1 = s[3], r0 = s[4], r1 = s[5], t0 = s[6], t1 = s[7]
        for i in 0..<n {
            y[i] = t.step(r.step(q.step(p.step(x[i], &p0, &p1), &q0, &q1), &r0, &r1), &t0, &t1)
        }
        s[0] = p0; s[1] = p1; s[2] = q0; s[3] = q1; s[4] = r0; s[5] = r1; s[6] = t0; s[7] = t1
    }
}
