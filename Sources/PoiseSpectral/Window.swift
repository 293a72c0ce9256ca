import Foundation

/// A data window (taper) applied to each segment before its FFT.
///
/// All windows are **periodic** (the DFT-even form; `scipy.signal.get_window(name, N)` with its
/// default `fftbins=True`): the symmetric window of N + 1 points with the last point dropped.
/// With n = 0…N−1 and θₙ = 2πn/N:
///
/// | window        | wₙ                                                                      |
/// |---------------|-------------------------------------------------------------------------|
/// | `rectangular` | 1                                                                       |
/// | `hann`        | 0.5 − 0.5 cos θₙ                                                        |
/// | `hamming`     | 0.54 − 0.46 cos θₙ                                                      |
/// | `blackman`    | 0.42 − 0.5 cos θₙ + 0.08 cos 2θₙ                                        |
/// | `flatTop`     | Σₖ (−1)ᵏ aₖ cos kθₙ, a = 0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368 |
/// | `tukey(α)`    | cosine tapers over α·N/2 samples at each end, 1 in between (scipy's formula)  |
///
/// `tukey(alpha: 0.25)` is scipy.signal.spectrogram's default window.
public enum Window: Sendable, Hashable, Codable {
    case rectangular
    case hann
    case hamming
    case blackman
    case flatTop
    /// Tapered cosine; `alpha` in [0, 1] is the tapered fraction (0 = rectangular, 1 = Hann).
    case tukey(alpha: Double)

    /// The names accepted by `init(name:)`.
    public static let names = ["rectangular", "boxcar", "hann", "hamming", "blackman", "flattop", "flat-top", "tukey:ALPHA"]

    /// Parses `hann`, `hamming`, `blackman`, `flattop`/`flat-top`, `rectangular`/`boxcar`,
    /// `tukey:0.25` (case-insensitive). Returns `nil` for anything else.
    public init?(name: String) {
        let lower = name.lowercased()
        switch lower {
        case "rectangular", "boxcar", "rect": self = .rectangular
        case "hann", "hanning": self = .hann
        case "hamming": self = .hamming
        case "blackman": self = .blackman
        case "flattop", "flat-top", "flat_top": self = .flatTop
        default:
            guard lower.hasPrefix("tukey:"), let alpha = Double(lower.dropFirst(6)),
                  alpha >= 0, alpha <= 1 else { return nil }
            self = .tukey(alpha: alpha)
        }
    }

    /// The window's name as `init(name:)` accepts it.
    public var name: String {
        switch self {
        case .rectangular: "rectangular"
        case .hann: "hann"
        case .hamming: "hamming"
        case .blackman: "blackman"
        case .flatTop: "flattop"
        case .tukey(let alpha): "tukey:\(alpha)"
        }
    }

    /// The N periodic window coefficients (dimensionless).
    /// - Complexity: O(N).
    public func coefficients(count: Int) -> [Double] {
        guard count > 1 else { return Array(repeating: 1, count: Swift.max(count, 0)) }
        let n = Double(count)
        func cosineSum(_ a: [Double]) -> [Double] {
            (0..<count).map { i in
                let theta = 2 * Double.pi * Double(i) / n
                var sum = 0.0
                for (k, ak) in a.enumerated() { sum += (k % 2 == 0 ? ak : -ak) * cos(Double(k) * theta) }
                return sum
            }
        }
        switch self {
        case .rectangular: return Array(repeating: 1, count: count)
        case .hann: return cosineSum([0.5, 0.5])
        case .hamming: return cosineSum([0.54, 0.46])
        case .blackman: return cosineSum([0.42, 0.5, 0.08])
        case .flatTop: return cosineSum([0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368])
        case .tukey(let alpha):
            if alpha <= 0 { return Array(repeating: 1, count: count) }
            if alpha >= 1 { return Window.hann.coefficients(count: count) }
            // scipy.signal.windows.tukey on M = N + 1 points, last point dropped.
            let m = count + 1
            let span = Double(m - 1)
            let width = Int((alpha * span / 2).rounded(.down))
            return (0..<count).map { i in
                let x = Double(i)
                if i <= width { return 0.5 * (1 + cos(Double.pi * (-1 + 2 * x / alpha / span))) }
                if i >= m - width - 1 { return 0.5 * (1 + cos(Double.pi * (-2 / alpha + 1 + 2 * x / alpha / span))) }
                return 1
            }
        }
    }
}

/// What is removed from each segment before windowing (scipy's `detrend` argument).
public enum Detrend: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing.
    case none
    /// The segment's mean.
    case constant
    /// The least-squares straight line through the segment.
    case linear
}

/// How squared FFT magnitudes are scaled (scipy's `scaling` argument), one-sided.
///
/// With window w, sampling rate fs and Xₖ the FFT of the detrended, windowed segment:
/// - `density`: Pₖ = c·|Xₖ|² / (fs·Σwₙ²), in unit²/Hz (power spectral density);
/// - `spectrum`: Pₖ = c·|Xₖ|² / (Σwₙ)², in unit² (power spectrum: a sine of amplitude A reads
///   A²/2 at its bin for a window whose peak falls on the bin);
/// where c = 2 for the bins whose negative-frequency twin is folded in (all but 0 Hz and, for an
/// even FFT length, the Nyquist bin) and c = 1 otherwise.
public enum SpectralScaling: String, Sendable, Hashable, Codable, CaseIterable {
    case density
    case spectrum
}
