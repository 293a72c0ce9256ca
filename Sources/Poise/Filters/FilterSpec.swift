/// A filter described by a short string, as used on the command line and in pipelines.
///
/// The text is one stage of the grammar of ``StageSpec`` (blanks around tokens are ignored;
/// names, keys and flags are case-insensitive; a key may be given once):
/// ```
/// spec  := name [ ":" item { "," item } ]
/// item  := key "=" number | flag
/// ```
/// | spec | filter | parameters (units, defaults) |
/// |---|---|---|
/// | `lowpass:cutoff=5` | ``OnePoleLowPass`` by cutoff | `cutoff` Hz (required) |
/// | `highpass:cutoff=0.5` | ``OnePoleHighPass`` by cutoff | `cutoff` Hz (required) |
/// | `factor:k=0.1` | fixed-factor low-pass `y ← k·x + (1−k)·y` | `k` in (0, 1] (required); flag `highpass` for `x − lowpass` |
/// | `butter:lowpass,order=4,cutoff=5` | ``ButterworthFilter`` | flag `lowpass`/`highpass` with `cutoff` Hz, or `bandpass` with `low`, `high` Hz; `order` 1…8 (default 2) |
/// | `accelgraph:cutoff=5,adaptive` | ``AccelerometerGraphFilter`` | `cutoff` Hz (RC = 1/cutoff, required); flags `lowpass` (default)/`highpass`, `adaptive` |
/// | `oneeuro:mincutoff=0.1,beta=2,dcutoff=1` | ``OneEuroFilter`` | `mincutoff` Hz (default 1), `beta` (default 0), `dcutoff` Hz (default 1) |
/// | `adaptive` | ``AdaptiveFilter`` (Poise) | `cutoff` Hz at rest (default 0.5), `threshold` input units (default 0.03) |
///
/// The linear filters and `accelgraph` also take `start=first` (default: steady state at the
/// first input) or `start=zero` (memory starts at zero, as Apple's sample and scipy do).
/// The sample rate is not part of the spec: ``makeFilter(_:sampleRate:)`` takes it.
public enum FilterSpec: Sendable, Equatable, CustomStringConvertible {
    /// One-pole RC low-pass or high-pass by cutoff (Hz).
    case onePole(pass: FilterPass, cutoff: Double, start: FilterStart)
    /// Fixed-factor low-pass `y ← k·x + (1−k)·y`, or its complement `x − lowpass`.
    case factor(pass: FilterPass, k: Double, start: FilterStart)
    /// Butterworth of `order` 1…8 (edges in Hz).
    case butterworth(band: ButterworthBand, order: Int, start: FilterStart)
    /// Apple's AccelerometerGraph filter (cutoff in Hz, RC = 1/cutoff).
    case accelerometerGraph(pass: FilterPass, cutoff: Double, adaptive: Bool, start: FilterStart)
    /// One Euro (mincutoff and dcutoff in Hz).
    case oneEuro(minimumCutoff: Double, beta: Double, derivativeCutoff: Double)
    /// Poise's adaptive filter (rest cutoff Hz, threshold in input units).
    case adaptive(restCutoff: Double, threshold: Double)

    /// The canonical spec string; parsing it gives back an equal spec.
    public var description: String {
        func number(_ x: Double) -> String {
            x == x.rounded() && x.magnitude < 1e15 ? String(Int(x)) : String(x)
        }
        func startSuffix(_ s: FilterStart) -> String { s == .firstInput ? "" : ",start=\(s.rawValue)" }
        switch self {
        case let .onePole(pass, cutoff, start):
            return "\(pass.rawValue):cutoff=\(number(cutoff))\(startSuffix(start))"
        case let .factor(pass, k, start):
            return "factor:k=\(number(k))\(pass == .highPass ? ",highpass" : "")\(startSuffix(start))"
        case let .butterworth(band, order, start):
            let edges: String
            switch band {
            case .lowPass(let c): edges = "lowpass,order=\(order),cutoff=\(number(c))"
            case .highPass(let c): edges = "highpass,order=\(order),cutoff=\(number(c))"
            case let .bandPass(low, high): edges = "bandpass,order=\(order),low=\(number(low)),high=\(number(high))"
            }
            return "butter:\(edges)\(startSuffix(start))"
        case let .accelerometerGraph(pass, cutoff, adaptive, start):
            return "accelgraph:\(pass == .highPass ? "highpass," : "")cutoff=\(number(cutoff))\(adaptive ? ",adaptive" : "")\(startSuffix(start))"
        case let .oneEuro(minimumCutoff, beta, derivativeCutoff):
            return "oneeuro:mincutoff=\(number(minimumCutoff)),beta=\(number(beta)),dcutoff=\(number(derivativeCutoff))"
        case let .adaptive(restCutoff, threshold):
            return "adaptive:cutoff=\(number(restCutoff)),threshold=\(number(threshold))"
        }
    }
}

extension FilterSpec {
    /// The spec names, for help texts.
    public static let names = ["lowpass", "highpass", "factor", "butter", "accelgraph", "oneeuro", "adaptive"]

    /// Makes the filter for samples of type `Value` at `sampleRate` Hz.
    ///
    /// - Throws: ``SpecError`` at the parameter when it does not suit the rate (for example a
    ///   Butterworth cutoff at or above the Nyquist frequency).
    @inlinable
    public func makeFilter<Value: SignalValue>(_ type: Value.Type = Value.self, sampleRate: Double) throws(SpecError) -> AnyFilter<Value> {
        do {
            return try build(sampleRate: sampleRate)
        } catch {
            throw specError(error, sampleRate: sampleRate)
        }
    }

    /// The error for a parameter the rate does not suit, at the parameter's argument in `stage`
    /// (by default the canonical spec string).
    @usableFromInline
    func specError(_ error: FilterParameterError, sampleRate: Double, in stage: StageSpec? = nil) -> SpecError {
        let message = "\(error.message) (sample rate \(sampleRate) Hz)"
        guard let located = stage ?? (try? StageSpec(parsing: description)) else {
            return SpecError(.filter, spec: description, message: message)
        }
        return located.error(message, key: error.parameter)
    }

    /// Builds in the caller's module (inlinable) so the filter code is specialised for `Value`.
    @inlinable
    func build<Value: SignalValue>(sampleRate: Double) throws(FilterParameterError) -> AnyFilter<Value> {
        switch self {
        case let .onePole(pass, cutoff, start):
            return pass == .lowPass
                ? AnyFilter(try OnePoleLowPass<Value>(cutoffFrequency: cutoff, sampleRate: sampleRate, start: start))
                : AnyFilter(try OnePoleHighPass<Value>(cutoffFrequency: cutoff, sampleRate: sampleRate, start: start))
        case let .factor(pass, k, start):
            guard sampleRate > 0, sampleRate.isFinite else {
                throw FilterParameterError(parameter: "rate", message: "must be a positive finite number, got \(sampleRate)")
            }
            return pass == .lowPass
                ? AnyFilter(try OnePoleLowPass<Value>(factor: k, start: start))
                : AnyFilter(try OnePoleHighPass<Value>(factor: k, start: start))
        case let .butterworth(band, order, start):
            return AnyFilter(try ButterworthFilter<Value>(band: band, order: order, sampleRate: sampleRate, start: start))
        case let .accelerometerGraph(pass, cutoff, adaptive, start):
            return AnyFilter(try AccelerometerGraphFilter<Value>(kind: pass, cutoffFrequency: cutoff,
                                                                 sampleRate: sampleRate, adaptive: adaptive, start: start))
        case let .oneEuro(minimumCutoff, beta, derivativeCutoff):
            return AnyFilter(try OneEuroFilter<Value>(minimumCutoff: minimumCutoff, beta: beta,
                                                      derivativeCutoff: derivativeCutoff, sampleRate: sampleRate))
        case let .adaptive(restCutoff, threshold):
            return AnyFilter(try AdaptiveFilter<Value>(restCutoff: restCutoff, threshold: threshold, sampleRate: sampleRate))
        }
    }
}

