import Foundation

/// Magnitude, phase and group delay of a filter over a grid of frequencies.
///
/// Made either exactly from coefficients (`init(filter:sampleRate:frequencies:)`, any
/// `LinearFilterResponse`) or by measuring the impulse response of any per-sample filter
/// (`measure(sampleRate:length:…)`), which is exact for linear time-invariant filters and only an
/// approximation for nonlinear or adaptive ones (see `linearityError`).
public struct FrequencyResponse: Sendable, Hashable, Codable {
    /// Sampling rate in Hz.
    public var sampleRate: Double
    /// Frequencies in Hz, ascending.
    public var frequencies: [Double]
    /// Complex gain H at each frequency (output/input, dimensionless).
    public var response: [Complex]
    /// Group delay in seconds at each frequency (−dφ/dω divided by the sample rate); 0 where
    /// H = 0, where it is undefined.
    public var groupDelay: [Double]
    /// For measured responses: ‖h(2a) − h(a)‖ / ‖h(a)‖ between the impulse responses measured with
    /// amplitude a and 2a. 0 (to rounding) for a linear filter; larger values mean the response
    /// depends on the input and this one describes only inputs of about the measured size.
    /// `nil` for responses computed from coefficients.
    public var linearityError: Double?
    /// For measured responses: fraction of the impulse response's energy in its last 10 %;
    /// near 0 when `length` was long enough. `nil` for responses computed from coefficients.
    public var tailEnergyFraction: Double?

    /// Gain in dB, 20·log₁₀|H|, floored at −400 dB (|H| = 10⁻²⁰) so a zero gain stays finite.
    public var magnitudeDecibels: [Double] {
        response.map { 20 * log10(Swift.max($0.magnitude, 1e-20)) }
    }

    /// Phase of H in radians, unwrapped along frequency (no jumps larger than π), starting in (−π, π].
    public var phase: [Double] {
        var result: [Double] = []
        result.reserveCapacity(response.count)
        var offset = 0.0, previous = 0.0
        for (i, h) in response.enumerated() {
            let raw = h.phase
            if i > 0 {
                let jump = raw + offset - previous
                offset -= 2 * Double.pi * (jump / (2 * Double.pi)).rounded()
            }
            previous = raw + offset
            result.append(previous)
        }
        return result
    }

    /// `count` ≥ 2 frequencies evenly spaced from 0 to the Nyquist frequency, both included.
    public static func frequencyGrid(sampleRate: Double, count: Int = 512) -> [Double] {
        let n = Swift.max(count, 2)
        return (0..<n).map { sampleRate / 2 * Double($0) / Double(n - 1) }
    }

    /// The exact response of a linear filter at `frequencies` (Hz; default 512 from 0 to Nyquist).
    /// - Throws: `SpectralError.invalidParameter` for a non-positive or non-finite sample rate.
    public init(filter: some LinearFilterResponse, sampleRate: Double, frequencies: [Double]? = nil) throws {
        try Self.validate(sampleRate: sampleRate)
        let grid = frequencies ?? Self.frequencyGrid(sampleRate: sampleRate)
        self.sampleRate = sampleRate
        self.frequencies = grid
        response = grid.map { filter.response(atAngle: 2 * Double.pi * $0 / sampleRate) }
        groupDelay = grid.map { filter.groupDelay(atAngle: 2 * Double.pi * $0 / sampleRate) / sampleRate }
    }

    /// Measures the response of a per-sample filter from its impulse response.
    ///
    /// `makeFilter` must return a fresh filter each time it is called (same settings, initial
    /// state). The filter is run three times for `settling + length` samples: on the constant
    /// `baseline`, and on the baseline plus an impulse of `amplitude` (and of 2·`amplitude`) at
    /// sample `settling`. The impulse response is h[n] = (y_impulse[n] − y_baseline[n]) / amplitude
    /// from the impulse on; its DFT (length `length`, bins fs/length apart) is H and
    /// Re[DFT(n·h)/DFT(h)] the group delay.
    ///
    /// For a linear time-invariant filter this is its exact response (to the truncation reported
    /// in `tailEnergyFraction`). For a nonlinear or adaptive filter (for example one whose
    /// smoothing depends on how fast the input changes) the result depends on `baseline` and
    /// `amplitude`: it is the response to small disturbances of that size around that operating
    /// point, and `linearityError` says how much it changes when the amplitude doubles.
    ///
    /// - Parameters:
    ///   - sampleRate: Hz.
    ///   - length: impulse response samples kept (≥ 2); sets the frequency resolution.
    ///   - settling: samples on the baseline before the impulse, so the filter starts settled.
    ///   - amplitude: impulse size, in the filter's input unit (≠ 0).
    ///   - baseline: constant input the filter settles on, in the input unit.
    ///   - makeFilter: makes a fresh filter, a function from one input sample to one output sample.
    /// - Throws: `SpectralError.invalidParameter`, or `.nonFiniteSample` if the filter outputs NaN/∞.
    public static func measure(sampleRate: Double, length: Int = 4096, settling: Int = 0, amplitude: Double = 1,
                               baseline: Double = 0, makeFilter: () -> (Double) -> Double) throws -> FrequencyResponse {
        try validate(sampleRate: sampleRate)
        guard length >= 2, length <= 1 << 26 else {
            throw SpectralError.invalidParameter(name: "impulse response length", value: "\(length)", rule: "must be in 2…\(1 << 26)")
        }
        guard settling >= 0 else {
            throw SpectralError.invalidParameter(name: "settling", value: "\(settling)", rule: "must be ≥ 0")
        }
        guard amplitude.isFinite, amplitude != 0, baseline.isFinite else {
            throw SpectralError.invalidParameter(name: "amplitude/baseline", value: "\(amplitude)/\(baseline)", rule: "must be finite, amplitude ≠ 0")
        }
        func run(_ size: Double) -> [Double] {
            let filter = makeFilter()
            return (0..<(settling + length)).map { n in filter(baseline + (n == settling ? size : 0)) }
        }
        let base = run(0), single = run(amplitude), double = run(2 * amplitude)
        if let bad = (base + single + double).firstIndex(where: { !$0.isFinite }) {
            throw SpectralError.nonFiniteSample(index: bad % (settling + length), channel: nil)
        }
        let h = (0..<length).map { (single[settling + $0] - base[settling + $0]) / amplitude }
        let h2 = (0..<length).map { (double[settling + $0] - base[settling + $0]) / (2 * amplitude) }
        let energy = h.reduce(0) { $0 + $1 * $1 }
        let difference = zip(h, h2).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let tail = h[(length - length / 10)...].reduce(0) { $0 + $1 * $1 }

        let fft = try RealFFT(count: length)
        let spectrum = try fft.forward(h)
        let ramped = try fft.forward(h.enumerated().map { Double($0.offset) * $0.element })
        let peak = spectrum.map(\.magnitude).max() ?? 0
        var result = FrequencyResponse(sampleRate: sampleRate,
                                       frequencies: (0..<fft.spectrumCount).map { Double($0) * sampleRate / Double(length) },
                                       response: spectrum, groupDelay: [], linearityError: nil, tailEnergyFraction: nil)
        result.groupDelay = zip(spectrum, ramped).map { value, ramp in
            value.magnitude > 1e-12 * peak ? (ramp / value).real / sampleRate : 0
        }
        result.linearityError = energy > 0 ? (difference / energy).squareRoot() : 0
        result.tailEnergyFraction = energy > 0 ? tail / energy : 0
        return result
    }

    private init(sampleRate: Double, frequencies: [Double], response: [Complex], groupDelay: [Double],
                 linearityError: Double?, tailEnergyFraction: Double?) {
        self.sampleRate = sampleRate
        self.frequencies = frequencies
        self.response = response
        self.groupDelay = groupDelay
        self.linearityError = linearityError
        self.tailEnergyFraction = tailEnergyFraction
    }

    private static func validate(sampleRate: Double) throws {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw SpectralError.invalidParameter(name: "sample rate", value: "\(sampleRate) Hz", rule: "must be finite and > 0")
        }
    }

    /// The half-power drop, 10·log₁₀2 ≈ 3.0103 dB: what "the −3 dB point" means.
    public static let halfPowerDrop = 10 * log10(2.0)

    /// The lowest frequency (Hz) at which the gain has fallen `drop` dB (default: half power,
    /// 3.0103 dB) below the gain at the first grid frequency (0 Hz on the default grids),
    /// interpolated linearly in dB between grid points; `nil` if it never falls that far. For a
    /// low-pass this is its cutoff (a Butterworth's design cutoff exactly).
    public func frequency(atDrop drop: Double = halfPowerDrop) -> Double? {
        let decibels = magnitudeDecibels
        guard let reference = decibels.first else { return nil }
        let level = reference - drop
        for k in 1..<decibels.count where decibels[k] <= level {
            let (d0, d1) = (decibels[k - 1], decibels[k])
            let t = d0 == d1 ? 0 : (d0 - level) / (d0 - d1)
            return frequencies[k - 1] + t * (frequencies[k] - frequencies[k - 1])
        }
        return nil
    }

    /// Group delay in seconds at the first grid frequency (0 Hz on the default grids): how late
    /// a slowly varying signal comes out of the filter.
    public var lowFrequencyDelay: Double { groupDelay.first ?? 0 }
}
