import Foundation
import Testing
@testable import PoiseSpectral

@Suite struct RealFFTTests {
    let golden = Golden.shared

    @Test func matchesNumpyRFFT() throws {
        for g in golden.rfft {
            let spectrum = try RealFFT(count: g.count).forward(Array(golden.signal.prefix(g.count)))
            expectClose(spectrum.map(\.real), g.real, relative: 1e-12, floor: 1e-13, "real, N=\(g.count)")
            expectClose(spectrum.map(\.imaginary), g.imaginary, relative: 1e-12, floor: 1e-13, "imaginary, N=\(g.count)")
        }
    }

    /// inverse(forward(x)) = x and Parseval's theorem, for even, odd and prime lengths.
    @Test(arguments: [1, 2, 3, 16, 97, 360, 1000, 4096])
    func inverseAndParseval(count: Int) throws {
        var random = SplitMix(state: UInt64(count))
        let x = (0..<count).map { _ in random.normal() }
        var fft = try RealFFT(count: count)
        var spectrum: [Complex] = []
        try fft.forward(x, into: &spectrum)
        #expect(spectrum.count == count / 2 + 1)
        var back: [Double] = []
        try fft.inverse(spectrum, into: &back)
        expectClose(back, x, relative: 1e-11, floor: 1e-13, "round trip")
        // Σ|x|² = (1/N)·Σ over all N bins |X|²; the bins without a mirror twin count once.
        let energy = x.reduce(0) { $0 + $1 * $1 }
        var twoSided = 0.0
        for (k, bin) in spectrum.enumerated() {
            let mirrored = k == 0 || (count % 2 == 0 && k == count / 2)
            twoSided += (mirrored ? 1 : 2) * bin.squaredMagnitude
        }
        #expect(abs(twoSided / Double(count) - energy) <= 1e-11 * energy)
    }

    /// A sine on bin k puts (N/2·A)² into bin k and nothing elsewhere.
    @Test func sineLandsOnItsBin() throws {
        let count = 1000, bin = 37, amplitude = 1.5
        let x = (0..<count).map { amplitude * cos(2 * .pi * Double(bin * $0) / Double(count)) }
        let spectrum = try RealFFT(count: count).forward(x)
        let largest = spectrum.indices.max { spectrum[$0].magnitude < spectrum[$1].magnitude }
        #expect(largest == bin)
        #expect(abs(spectrum[bin].magnitude - amplitude * Double(count) / 2) < 1e-9)
        #expect(spectrum.enumerated().allSatisfy { $0.offset == bin || $0.element.magnitude < 1e-9 })
    }

    @Test func refusesOtherLengths() throws {
        let fft = try RealFFT(count: 8)
        #expect(throws: SpectralError.lengthMismatch(what: "FFT input", expected: 8, found: 7)) { try fft.forward([Double](repeating: 0, count: 7)) }
        #expect(throws: SpectralError.lengthMismatch(what: "inverse FFT input", expected: 5, found: 8)) { try fft.inverse([Complex](repeating: Complex(real: 0, imaginary: 0), count: 8)) }
        #expect(throws: SpectralError.self) { try RealFFT(count: 0) }
    }

    /// Copies of a RealFFT share plans but not buffers: using one does not disturb the other.
    @Test func copiesAreIndependent() throws {
        var a = try RealFFT(count: 16)
        var b = a
        var out: [Complex] = []
        try a.forward((0..<16).map(Double.init), into: &out)
        let before = out
        try b.forward([Double](repeating: 1, count: 16), into: &out)
        try a.forward((0..<16).map(Double.init), into: &out)
        #expect(out == before)
    }
}
