import Poise
import PoiseRun
import PoiseSpectral

/// Power of the acceleration above two frequency edges, from Welch PSDs summed over the three
/// axes, and the share of the raw recording's power a filter output keeps there:
///
/// - above 2 Hz (quick movements and shakes, plus noise): a share above 1 means the filter adds
///   power, e.g. by following movement in small jumps or by overshooting;
/// - in the noise band above ``noiseEdge(rate:)`` (10 Hz), where a hand-held or hand-moved
///   device has little movement power and sensor noise, tremor and vibration dominate: a filter
///   that keeps most of it does not filter while the device moves, however calm it is at rest
///   (where jitter is measured).
struct HighFrequencyMeter {
    /// The shares one filter output keeps.
    struct Shares {
        /// Above 2 Hz.
        var aboveTwoHertz: Double
        /// In the noise band.
        var noiseBand: Double
    }

    /// The lower edge of the noise band for a recording at `rate` Hz: 10 Hz, or 40 % of the
    /// sample rate (80 % of the Nyquist frequency) when that is lower.
    static func noiseEdge(rate: Double) -> Double { min(10, 0.4 * rate) }

    /// Lower edges of the two bands, Hz.
    let edges: (Double, Double)
    /// Power of the raw acceleration in the two bands, g² (PSD summed over the bins and the
    /// axes, times the bin width).
    let rawPower: (Double, Double)

    /// - Parameters:
    ///   - raw: Welch PSDs of the raw acceleration's three axes (g²/Hz).
    ///   - rate: nominal sample rate, Hz.
    init(raw: [PowerSpectrum], rate: Double) {
        edges = (2, Self.noiseEdge(rate: rate))
        rawPower = Self.power(raw, edges: edges)
    }

    /// Power in the two bands of a signal whose axes have the PSDs `spectra`, g².
    static func power(_ spectra: [PowerSpectrum], edges: (Double, Double)) -> (Double, Double) {
        var total = (0.0, 0.0)
        for spectrum in spectra {
            let width = spectrum.frequencies.count > 1 ? spectrum.frequencies[1] - spectrum.frequencies[0] : 1
            for (f, value) in zip(spectrum.frequencies, spectrum.values) {
                if f >= edges.0 { total.0 += value * width }
                if f >= edges.1 { total.1 += value * width }
            }
        }
        return total
    }

    /// The shares of the raw power that a filter output with the PSDs `spectra` keeps (1 = as
    /// much as the raw signal); `nil` when the raw signal has no power in a band.
    func shares(_ spectra: [PowerSpectrum]) -> Shares? {
        guard rawPower.0 > 0, rawPower.1 > 0 else { return nil }
        let power = Self.power(spectra, edges: edges)
        return Shares(aboveTwoHertz: power.0 / rawPower.0, noiseBand: power.1 / rawPower.1)
    }
}
