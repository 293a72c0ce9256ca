import CFFTW

/// `count` elements of memory from `fftw_malloc` (aligned for FFTW's SIMD code), zeroed, freed in
/// `deinit`.
///
/// Plans are made on `fftw_malloc` memory too, so any two such buffers have the alignment FFTW's
/// new-array execute functions require. Not thread-safe: each thread or owner uses its own.
final class FFTWBuffer<Element> {
    let count: Int
    let pointer: UnsafeMutablePointer<Element>

    init(count: Int, zero: Element) {
        self.count = count
        let capacity = Swift.max(count, 1)
        pointer = fftw_malloc(MemoryLayout<Element>.stride * capacity)!
            .bindMemory(to: Element.self, capacity: capacity)
        pointer.initialize(repeating: zero, count: capacity)
    }

    deinit { fftw_free(pointer) }
}

/// Real samples for FFTW.
typealias FFTWRealBuffer = FFTWBuffer<Double>
/// Complex values (re, im) for FFTW.
typealias FFTWComplexBuffer = FFTWBuffer<fftw_complex>

extension FFTWBuffer where Element == Double {
    convenience init(count: Int) { self.init(count: count, zero: 0) }
}

extension FFTWBuffer where Element == fftw_complex {
    convenience init(count: Int) { self.init(count: count, zero: (0, 0)) }
}
