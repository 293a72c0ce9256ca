/// `self + a·b` in the fastest form the build's target has, for the hot loops (filters, fusion,
/// accumulators).
///
/// - With FMA in the target (a build with `POISE_TARGET_CPU` set, such as `native` or `haswell`
///   for x86-64-v3, or any arm64 build): one fused multiply-add, rounded once.
/// - Without it (the portable x86-64 build, `POISE_NO_FMA`, which is what a SwiftPM package
///   that depends on Poise gets): a multiply then an add, rounded twice. A fused step there
///   would be a call to libm's `fma` per lane, 4–10× slower than the two instructions.
///
/// The two forms differ by at most one rounding of the product (half an ulp of `a·b`) per step,
/// so results of the two builds agree to a few ulps per operation, not bit for bit; every test
/// compares with tolerances that hold for both. Each build is deterministic on its own.
extension SignalValue {
    @inlinable @inline(__always)
    func addingProductFast(_ a: Scalar, _ b: Self) -> Self {
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        return self + a * b
        #else
        return addingProduct(a, b)
        #endif
    }
}

extension SIMD where Scalar: PoiseReal {
    /// `self + a·b` lane by lane, fused or not as ``SignalValue/addingProductFast(_:_:)``.
    @inlinable @inline(__always)
    func addingProductFast(_ a: Self, _ b: Self) -> Self {
        #if POISE_NO_FMA && (arch(x86_64) || arch(i386))
        return self + a * b
        #else
        return addingProduct(a, b)
        #endif
    }
}
