internal import CPoiseKernels

/// The biquad cascade's unfused arithmetic (`BiquadCascade.Section.stepUnfused`) for Double
/// values of 4, 8 or 16 lanes, compiled for AVX in C (`Sources/CPoiseKernels`) and chosen at run
/// time.
///
/// The portable x86-64 build (no `POISE_TARGET_CPU`, what a package that depends on Poise gets)
/// has no AVX in its Swift code, so it splits a `SIMD4<Double>` into two SSE halves: twice the
/// instructions per section, twice the time per sample of a build for the CPU. Swift has no
/// per-function target, so that build's `BiquadCascade.run` calls this kernel, compiled with
/// AVX enabled for its functions only, when the CPU has AVX (checked once). Its operations are
/// the Swift kernels' in the same order, never fused (the C file turns contraction off and
/// names no FMA), so the output is the same to the last bit, and the per-sample form, which
/// stays in Swift, agrees with the buffer form. Builds for a CPU (`POISE_TARGET_CPU`) and other
/// architectures never select it.
@usableFromInline
enum BiquadAVXKernel {
    /// True when this CPU runs AVX code (false on other architectures).
    static let isAvailable: Bool = poisekernel_has_avx() != 0

    /// True when the buffer form hands blocks of Double vectors to this kernel: in the portable
    /// x86-64 build, on a CPU with AVX.
    @usableFromInline static let isSelected: Bool = {
        #if POISE_NO_FMA && arch(x86_64)
        return isAvailable
        #else
        return false
        #endif
    }()

    /// True for the value types the kernel runs: Double lanes, 4 or a multiple of 4, no padding.
    @inlinable @inline(__always)
    static func runs<Value: SignalValue>(_: Value.Type) -> Bool {
        Value.Scalar.self == Double.self && Value.laneCount % 4 == 0
            && MemoryLayout<Value>.stride == 8 * Value.laneCount
    }

    /// `BiquadCascade.run` for a type that `runs(_:)` accepts; the CPU must have AVX
    /// (`isAvailable`).
    @usableFromInline
    static func run<Value: SignalValue>(_ c: UnsafePointer<Value.Scalar>, sections: Int,
                                        state s: UnsafeMutablePointer<Value>, _ x: UnsafePointer<Value>,
                                        _ y: UnsafeMutablePointer<Value>, count n: Int) {
        precondition(runs(Value.self) && isAvailable, "the AVX biquad kernel runs Double vectors on an AVX CPU")
        poisekernel_biquad_avx(UnsafeRawPointer(c).assumingMemoryBound(to: Double.self), sections,
                               UnsafeMutableRawPointer(s).assumingMemoryBound(to: Double.self),
                               UnsafeRawPointer(x).assumingMemoryBound(to: Double.self),
                               UnsafeMutableRawPointer(y).assumingMemoryBound(to: Double.self),
                               n, Value.laneCount)
    }
}
