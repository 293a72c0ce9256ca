import CFFTW

/// Discrete Fourier transform of real signals of one fixed length, any length (not only powers
/// of two), computed by FFTW.
///
/// Forward: `X[k] = Σₙ x[n]·e^{−2πi·k·n/N}` for k = 0…N/2 (the other half is the complex
/// conjugate mirror), unnormalised, like `numpy.fft.rfft`. Inverse: the exact inverse
/// (`numpy.fft.irfft` with `n = N`), i.e. scaled by 1/N.
///
/// The FFTW plans come from a process-wide cache (one plan per length, made once under the planner
/// lock) and are shared by every `RealFFT` of that length on every thread. Each value owns its
/// own `fftw_malloc` work buffers (copy-on-write), so the `mutating` forms allocate nothing after
/// the first call. The input length must equal `count` exactly: nothing is padded or truncated.
public struct RealFFT: Sendable {
    /// Transform length N in samples.
    public let count: Int
    /// Number of complex outputs of the forward transform, N/2 + 1.
    public var spectrumCount: Int { count / 2 + 1 }

    private let forwardPlan: FFTWPlan
    private let inversePlan: FFTWPlan
    private var workspace: Workspace

    /// Prepares transforms of length `count` (≥ 1); `planning` chooses FFTW's planning effort.
    ///
    /// - Throws: `SpectralError.invalidParameter` when `count` is not in 1…2³¹−1.
    public init(count: Int, planning: FFTPlanning = .estimate) throws {
        guard count >= 1, count <= Int(Int32.max) else {
            throw SpectralError.invalidParameter(name: "FFT length", value: "\(count)", rule: "must be in 1…\(Int32.max)")
        }
        self.count = count
        forwardPlan = FFTWPlanner.plan(FFTWPlanKey(kind: .realForward, count: count, planning: planning))
        inversePlan = FFTWPlanner.plan(FFTWPlanKey(kind: .realInverse, count: count, planning: planning))
        workspace = Workspace(count: count)
    }

    /// The forward transform of `signal` (exactly `count` samples): `count / 2 + 1` bins.
    /// - Complexity: O(N log N).
    public func forward(_ signal: [Double]) throws -> [Complex] {
        var copy = self
        var result: [Complex] = []
        try copy.forward(signal, into: &result)
        return result
    }

    /// The forward transform of `signal` into `spectrum` (replaced; reuses its storage).
    public mutating func forward(_ signal: [Double], into spectrum: inout [Complex]) throws {
        guard signal.count == count else {
            throw SpectralError.lengthMismatch(what: "FFT input", expected: count, found: signal.count)
        }
        makeWorkspaceUnique()
        let real = workspace.real.pointer, complex = workspace.complex.pointer
        signal.withUnsafeBufferPointer { real.update(from: $0.baseAddress!, count: count) }
        forwardPlan.executeForward(real, complex)
        spectrum.removeAll(keepingCapacity: true)
        spectrum.reserveCapacity(spectrumCount)
        for k in 0..<spectrumCount {
            spectrum.append(Complex(real: complex[k].0, imaginary: complex[k].1))
        }
    }

    /// The inverse transform of `spectrum` (exactly `count / 2 + 1` bins): `count` samples.
    ///
    /// The imaginary parts of bin 0 and (for even N) bin N/2 are ignored, as for any real signal.
    public func inverse(_ spectrum: [Complex]) throws -> [Double] {
        var copy = self
        var result: [Double] = []
        try copy.inverse(spectrum, into: &result)
        return result
    }

    /// The inverse transform of `spectrum` into `signal` (replaced; reuses its storage).
    public mutating func inverse(_ spectrum: [Complex], into signal: inout [Double]) throws {
        guard spectrum.count == spectrumCount else {
            throw SpectralError.lengthMismatch(what: "inverse FFT input", expected: spectrumCount, found: spectrum.count)
        }
        makeWorkspaceUnique()
        let real = workspace.real.pointer, complex = workspace.complex.pointer
        for k in 0..<spectrumCount { complex[k] = (spectrum[k].real, spectrum[k].imaginary) }
        inversePlan.executeInverse(complex, real)
        let scale = 1 / Double(count)
        signal.removeAll(keepingCapacity: true)
        signal.reserveCapacity(count)
        for n in 0..<count { signal.append(real[n] * scale) }
    }

    private mutating func makeWorkspaceUnique() {
        if !isKnownUniquelyReferenced(&workspace) { workspace = Workspace(count: count) }
    }

    /// Aligned input and output buffers of one transform. Only mutated when uniquely referenced.
    private final class Workspace: @unchecked Sendable {
        let real: FFTWRealBuffer
        let complex: FFTWComplexBuffer
        init(count: Int) {
            real = FFTWRealBuffer(count: count)
            complex = FFTWComplexBuffer(count: count / 2 + 1)
        }
    }
}
