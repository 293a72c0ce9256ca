import Poise

extension FrequencyResponse {
    /// Measures the frequency response of the Poise filter described by `spec` (for example
    /// `lowpass:cutoff=5`, `butter:lowpass,order=4,cutoff=10`, `accelgraph:cutoff=5,adaptive`) at
    /// `sampleRate` Hz, from its impulse response on scalar `Double` samples (see
    /// `measure(sampleRate:length:settling:amplitude:baseline:makeFilter:)`).
    ///
    /// Exact (to rounding and the reported truncation) for the linear filters: `lowpass`,
    /// `highpass`, `factor`, `butter`, and `accelgraph` without `adaptive`. For `accelgraph:…,
    /// adaptive`, `oneeuro` and `adaptive` the filter changes its smoothing with the input, so the
    /// result describes disturbances of size `amplitude` around `baseline` only; check
    /// `linearityError`.
    ///
    /// - Parameters:
    ///   - spec: the filter to measure.
    ///   - sampleRate: Hz, the rate the filter is made for.
    ///   - length: impulse response samples (bins are sampleRate/length apart). Default 4096.
    ///   - settling: samples of `baseline` before the impulse; default 2 s worth (at least 1), so
    ///     filters that start from their first input or adapt have settled.
    ///   - amplitude: impulse size in input units. Default 0.01 (a small disturbance, for example
    ///     0.01 g of acceleration), which keeps adaptive filters in their resting regime.
    ///   - baseline: constant input before and around the impulse, in input units. Default 0.
    /// - Throws: `SpecError` if the spec does not suit the rate, `SpectralError` for bad
    ///   measurement parameters.
    public static func measure(spec: FilterSpec, sampleRate: Double, length: Int = 4096, settling: Int? = nil,
                               amplitude: Double = 0.01, baseline: Double = 0) throws -> FrequencyResponse {
        let prototype = try spec.makeFilter(Double.self, sampleRate: sampleRate)
        let settle = settling ?? Swift.max(1, Int(saturating: (2 * sampleRate).rounded()))
        return try measure(sampleRate: sampleRate, length: length, settling: settle, amplitude: amplitude, baseline: baseline) {
            var filter = prototype   // a copy is a fresh filter: value semantics
            return { filter.process($0) }
        }
    }
}

extension SecondOrderSections {
    /// The cascade of Poise biquads (`Biquad`, a₀ = 1), for example a `ButterworthFilter`'s
    /// `sections`.
    public init(biquads: [Biquad]) throws {
        try self.init(biquads.map { [$0.b0, $0.b1, $0.b2, 1, $0.a1, $0.a2] })
    }
}

extension FilterSpec {
    /// Whether the filter is linear and time-invariant, so that one frequency response describes
    /// it for every input: true for `lowpass`, `highpass`, `factor`, `butter` and non-adaptive
    /// `accelgraph`; false for `accelgraph:…,adaptive`, `oneeuro` and `adaptive`, whose smoothing
    /// follows the input.
    public var isLinearTimeInvariant: Bool {
        switch self {
        case .onePole, .factor, .butterworth: true
        case .accelerometerGraph(_, _, let adaptive, _): !adaptive
        case .oneEuro, .adaptive: false
        }
    }
}
