import CFFTW

/// The state Welch's method and the spectrogram derive from a `SpectralConfiguration`: window
/// coefficients, scale factors and a cached FFTW plan. Immutable and `Sendable`; every call
/// allocates its own aligned work buffers, so one transformer serves many threads.
///
/// Each segment is detrended and windowed in one pass straight into FFTW's aligned input buffer,
/// transformed, and handed to the caller while it is still in L1 cache. (Batching segments
/// through one `fftw_plan_many_dft_r2c` plan was measured and was slower per segment for
/// length 1024: 1.5–1.7 µs against 1.0–1.4 µs; see docs/spectral.md.)
struct SegmentTransformer: Sendable {
    let configuration: SpectralConfiguration
    let segmentLength: Int
    let fftLength: Int
    let step: Int
    let binCount: Int
    let window: [Double]
    /// Σw: for `spectrum` scaling.
    let windowSum: Double
    /// Σw²: for `density` scaling.
    let windowSquareSum: Double
    /// Factor that turns |X|² into the one-sided scaled value for each bin.
    let binScale: [Double]
    private let plan: FFTWPlan

    init(configuration: SpectralConfiguration, planning: FFTPlanning) throws {
        try configuration.validate()
        self.configuration = configuration
        segmentLength = configuration.segmentLength
        fftLength = configuration.resolvedFFTLength
        step = configuration.step
        binCount = fftLength / 2 + 1
        window = configuration.window.coefficients(count: segmentLength)
        windowSum = window.reduce(0, +)
        windowSquareSum = window.reduce(0) { $0 + $1 * $1 }
        let base: Double
        switch configuration.scaling {
        case .density: base = 1 / (configuration.sampleRate * windowSquareSum)
        case .spectrum: base = 1 / (windowSum * windowSum)
        }
        // One-sided: fold the negative frequencies into every bin that has a twin.
        let lastTwin = fftLength % 2 == 0 ? binCount - 1 : binCount
        binScale = (0..<binCount).map { k in (k >= 1 && k < lastTwin) ? 2 * base : base }
        plan = FFTWPlanner.plan(FFTWPlanKey(kind: .realForward, count: fftLength, planning: planning))
    }

    /// Frequencies of the bins in Hz: k·fs/nfft.
    var frequencies: [Double] {
        (0..<binCount).map { Double($0) * configuration.sampleRate / Double(fftLength) }
    }

    /// Equivalent noise bandwidth of the window in Hz: fs·Σw²/(Σw)².
    var equivalentNoiseBandwidth: Double {
        configuration.sampleRate * windowSquareSum / (windowSum * windowSum)
    }

    /// Transforms every whole segment of `signal` in order, calling `body(segment, spectrum)`
    /// where `spectrum` holds `binCount` interleaved (re, im) pairs, unscaled, valid only during
    /// the call. Returns the number of segments.
    @discardableResult
    func forEachSegment(_ signal: UnsafeBufferPointer<Double>,
                        _ body: (Int, UnsafePointer<Double>) -> Void) -> Int {
        let segments = configuration.segmentCount(samples: signal.count)
        guard segments > 0, let source = signal.baseAddress else { return 0 }
        let input = FFTWRealBuffer(count: fftLength)   // stays zero beyond the segment (r2c preserves its input)
        let output = FFTWComplexBuffer(count: binCount)
        let spectrum = UnsafeRawPointer(output.pointer).assumingMemoryBound(to: Double.self)
        for segment in 0..<segments {
            fillSegment(source + segment * step, into: input.pointer)
            plan.executeForward(input.pointer, output.pointer)
            body(segment, spectrum)
        }
        return segments
    }

    /// Transforms the one segment starting at `x` (`segmentLength` samples) into `output`
    /// (`binCount` interleaved (re, im) pairs, unscaled), exactly as `forEachSegment` does.
    func transformSegment(_ x: UnsafePointer<Double>, input: FFTWRealBuffer, output: FFTWComplexBuffer) {
        fillSegment(x, into: input.pointer)
        plan.executeForward(input.pointer, output.pointer)
    }

    /// Writes one detrended, windowed segment (`segmentLength` samples) to `destination`.
    @inline(__always)
    private func fillSegment(_ x: UnsafePointer<Double>, into destination: UnsafeMutablePointer<Double>) {
        let count = segmentLength
        window.withUnsafeBufferPointer { w in
            let w = w.baseAddress!
            switch configuration.detrend {
            case .none:
                for i in 0..<count { destination[i] = x[i] * w[i] }
            case .constant:
                let mean = segmentSum(x, count) / Double(count)
                for i in 0..<count { destination[i] = (x[i] - mean) * w[i] }
            case .linear:
                // Least-squares line a + b·(i − ī): a = mean, b = Σ(i − ī)·xᵢ / Σ(i − ī)².
                let mean = segmentSum(x, count) / Double(count)
                let centre = Double(count - 1) / 2
                var moment = 0.0
                for i in 0..<count { moment += (Double(i) - centre) * (x[i] - mean) }
                let n = Double(count)
                let spread = n * (n * n - 1) / 12
                let slope = count > 1 ? moment / spread : 0
                for i in 0..<count {
                    destination[i] = (x[i] - mean - slope * (Double(i) - centre)) * w[i]
                }
            }
        }
    }
}

/// Σ x[0..<count] in eight interleaved partial sums. One running sum would be a chain of `count`
/// dependent adds (4 cycles each), as long as the segment's FFT at nperseg 1024; eight chains
/// run side by side in vector registers, with or without AVX in the target.
@inline(__always)
func segmentSum(_ x: UnsafePointer<Double>, _ count: Int) -> Double {
    let raw = UnsafeRawPointer(x), size = MemoryLayout<Double>.stride
    var a = SIMD4<Double>.zero, b = SIMD4<Double>.zero
    var i = 0
    while i + 8 <= count {
        a += raw.loadUnaligned(fromByteOffset: i * size, as: SIMD4<Double>.self)
        b += raw.loadUnaligned(fromByteOffset: (i + 4) * size, as: SIMD4<Double>.self)
        i += 8
    }
    var sum = (a + b).sum()
    while i < count { sum += x[i]; i += 1 }
    return sum
}

/// Adds |X|² = re² + im² of `bins` interleaved (re, im) pairs of `spectrum` to `sums`, two bins
/// per step in vector registers (the same roundings as one bin at a time).
@inline(__always)
func addPower(_ spectrum: UnsafePointer<Double>, into sums: UnsafeMutablePointer<Double>, bins: Int) {
    let source = UnsafeRawPointer(spectrum), target = UnsafeMutableRawPointer(sums)
    let size = MemoryLayout<Double>.stride
    var k = 0
    while k + 2 <= bins {
        let pair = source.loadUnaligned(fromByteOffset: 2 * k * size, as: SIMD4<Double>.self)
        let squares = pair * pair
        let sum = target.loadUnaligned(fromByteOffset: k * size, as: SIMD2<Double>.self)
        target.storeBytes(of: sum + (squares.evenHalf + squares.oddHalf), toByteOffset: k * size, as: SIMD2<Double>.self)
        k += 2
    }
    while k < bins {
        let re = spectrum[2 * k], im = spectrum[2 * k + 1]
        sums[k] += re * re + im * im
        k += 1
    }
}

/// The index of the first non-finite value, if any.
func firstNonFiniteIndex(_ values: UnsafeBufferPointer<Double>) -> Int? {
    values.firstIndex { !$0.isFinite }
}
