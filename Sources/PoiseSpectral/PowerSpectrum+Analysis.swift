import Foundation

/// A peak of a power spectrum.
public struct SpectralPeak: Sendable, Hashable, Codable {
    /// Peak frequency in Hz, refined between bins (see `PowerSpectrum.dominantPeak(in:)`).
    public var frequency: Double
    /// Refined peak value, in the spectrum's unit (unit²/Hz or unit²).
    public var value: Double
    /// Index of the bin holding the largest value.
    public var bin: Int

    /// A peak at `frequency` Hz with `value` (spectrum units) whose largest bin is `bin`.
    public init(frequency: Double, value: Double, bin: Int) {
        self.frequency = frequency
        self.value = value
        self.bin = bin
    }
}

extension PowerSpectrum {
    /// The largest bin whose frequency lies in `range` (Hz; default: every bin above 0 Hz),
    /// refined by fitting a parabola through the logarithms of it and its two neighbours
    /// (Gaussian interpolation: for a Hann window the error is a few hundredths of a bin, against
    /// up to half a bin without it; M. Gasior and J. L. Gonzalez, "Improving FFT frequency
    /// measurement resolution by parabolic and Gaussian interpolation", CERN AB-Note-2004-021).
    /// Edge bins and bins next to a zero are not refined.
    /// Returns `nil` when no bin lies in the range.
    /// - Complexity: O(bins).
    public func dominantPeak(in range: ClosedRange<Double>? = nil) -> SpectralPeak? {
        let candidates = binIndices(in: range ?? defaultPeakRange)
        guard let best = candidates.max(by: { values[$0] < values[$1] }) else { return nil }
        return refinedPeak(at: best)
    }

    /// The `count` largest local maxima (bins larger than the bin below and not smaller than the
    /// bin above) with frequency in `range` (default: above 0 Hz), each refined as in
    /// `dominantPeak(in:)`, largest refined value first.
    public func peaks(count: Int, in range: ClosedRange<Double>? = nil) -> [SpectralPeak] {
        let candidates = binIndices(in: range ?? defaultPeakRange).filter { k in
            k > 0 && k + 1 < values.count && values[k] > values[k - 1] && values[k] >= values[k + 1]
        }
        let refined = candidates.map(refinedPeak(at:)).sorted { $0.value > $1.value }
        return Array(refined.prefix(Swift.max(count, 0)))
    }

    /// Signal power in the band `low ≤ f < high` (Hz), in unit²: the density summed over the bins
    /// whose centre frequency lies in the band, times the bin spacing. Summed over all bins this is
    /// the window-weighted mean square of the segments (Parseval). Works for either scaling.
    /// - Throws: `SpectralError.invalidParameter` when the band is empty, inverted, or holds no bin.
    public func bandPower(from low: Double, to high: Double) throws -> Double {
        let bins = try bandBins(from: low, to: high)
        let density = self.density
        return bins.reduce(0) { $0 + density[$1] } * frequencyResolution
    }

    /// Noise density in unit/√Hz: the square root of the mean density over the bins in
    /// `low ≤ f < high` (Hz). Meaningful on a still segment, where the spectrum is sensor noise;
    /// the default band skips the 0 Hz bin, which detrending empties.
    /// - Throws: as `bandPower(from:to:)`.
    public func noiseDensity(from low: Double? = nil, to high: Double = .infinity) throws -> Double {
        let bins = try bandBins(from: low ?? frequencyResolution * 0.5, to: high)
        let density = self.density
        return (bins.reduce(0) { $0 + density[$1] } / Double(bins.count)).squareRoot()
    }

    // MARK: - Helpers

    private var defaultPeakRange: ClosedRange<Double> {
        (frequencyResolution * 0.5)...(frequencies.last ?? 0)
    }

    private func binIndices(in range: ClosedRange<Double>) -> [Int] {
        frequencies.indices.filter { range.contains(frequencies[$0]) }
    }

    private func bandBins(from low: Double, to high: Double) throws -> Range<Int> {
        guard !low.isNaN, !high.isNaN, low < high else {
            throw SpectralError.invalidParameter(name: "band", value: "\(low)…\(high) Hz", rule: "needs low < high")
        }
        let first = frequencies.firstIndex { $0 >= low } ?? frequencies.count
        let end = frequencies.firstIndex { $0 >= high } ?? frequencies.count
        guard first < end else {
            throw SpectralError.invalidParameter(name: "band", value: "\(low)…\(high) Hz",
                                                 rule: "contains no frequency bin (bins are \(frequencyResolution) Hz apart, up to \(frequencies.last ?? 0) Hz)")
        }
        return first..<end
    }

    private func refinedPeak(at k: Int) -> SpectralPeak {
        let plain = SpectralPeak(frequency: frequencies[k], value: values[k], bin: k)
        guard k > 0, k + 1 < values.count else { return plain }
        let a = values[k - 1], b = values[k], c = values[k + 1]
        guard a > 0, b > 0, c > 0 else { return plain }
        let la = log(a), lb = log(b), lc = log(c)
        let curvature = la - 2 * lb + lc
        guard curvature < 0 else { return plain }
        let offset = 0.5 * (la - lc) / curvature        // in bins, within (−0.5, 0.5)
        return SpectralPeak(frequency: frequencies[k] + offset * frequencyResolution,
                            value: exp(lb - 0.25 * (la - lc) * offset), bin: k)
    }
}
