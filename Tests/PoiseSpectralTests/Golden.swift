import Foundation
import Testing
@testable import PoiseSpectral

/// scipy outputs made by Tests/Goldens/spectral_golden.py (read via #filePath; no bundle resources).
struct Golden: Decodable {
    struct Welch: Decodable {
        var window: String, detrend: String, scaling: String
        var segmentLength: Int, overlap: Int?, fftLength: Int?
        var frequencies: [Double], values: [Double]
    }
    struct RFFT: Decodable { var count: Int, real: [Double], imaginary: [Double] }
    struct SpectrogramCase: Decodable { var segmentLength: Int, frequencies: [Double], times: [Double], power: [[Double]] }
    struct Filter: Decodable {
        var b: [Double]?, a: [Double]?, sos: [[Double]]?
        var cutoff: Double, real: [Double], imaginary: [Double], groupDelay: [Double]
    }
    struct Response: Decodable { var frequencies: [Double], butterworth2: Filter, butterworth4sos: Filter }

    var sampleRate: Double
    var signal: [Double]
    var welch: [Welch]
    var rfft: [RFFT]
    var spectrogram: SpectrogramCase
    var response: Response

    static let shared: Golden = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/spectral_golden.json")
        // A missing fixture is a broken checkout, not a skipped test.
        let data = try! Data(contentsOf: url)
        return try! JSONDecoder().decode(Golden.self, from: data)
    }()
}

/// Expects `actual ≈ expected` elementwise: relative error ≤ `relative`, except that values
/// below `floor × max|expected|` (for example a detrended 0 Hz bin, ~1e-33) are compared
/// absolutely against that floor.
func expectClose(_ actual: [Double], _ expected: [Double], relative: Double = 1e-9, floor: Double = 1e-12,
                 _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, "\(comment): count", sourceLocation: sourceLocation)
    guard actual.count == expected.count else { return }
    let scale = expected.map(abs).max() ?? 0
    var worst = 0.0, worstIndex = -1
    for i in expected.indices {
        let tolerance = max(relative * abs(expected[i]), floor * scale)
        let error = abs(actual[i] - expected[i])
        if error > tolerance, error / max(tolerance, .leastNonzeroMagnitude) > worst {
            worst = error / tolerance; worstIndex = i
        }
    }
    #expect(worstIndex < 0, "\(comment): index \(worstIndex) got \(worstIndex >= 0 ? actual[worstIndex] : 0) expected \(worstIndex >= 0 ? expected[worstIndex] : 0)", sourceLocation: sourceLocation)
}

/// A deterministic pseudo-random generator (SplitMix64) so tests never depend on a seed-less RNG.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A standard normal sample (Box–Muller).
    mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
