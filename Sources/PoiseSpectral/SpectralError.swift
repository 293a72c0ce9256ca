/// Why a spectral computation refused its input. The description names the parameter or the
/// sample index and what is wrong; nothing is padded, truncated or skipped silently.
public enum SpectralError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter is out of range: its name, the value given and the rule it breaks.
    case invalidParameter(name: String, value: String, rule: String)
    /// An input does not have the length the transform or estimator was made for.
    case lengthMismatch(what: String, expected: Int, found: Int)
    /// The signal is shorter than one segment.
    case signalTooShort(samples: Int, needed: Int)
    /// A non-finite sample (NaN or ±∞) at this 0-based index.
    case nonFiniteSample(index: Int, channel: Int?)
    /// The operation needs density scaling (or the other way round).
    case wrongScaling(needed: SpectralScaling)

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, rule):
            return "invalid \(name) \(value): \(rule)"
        case let .lengthMismatch(what, expected, found):
            return "\(what) has \(found) values, expected \(expected) (nothing is padded or truncated)"
        case let .signalTooShort(samples, needed):
            return "signal has \(samples) samples, fewer than one segment of \(needed); use a shorter segment length"
        case let .nonFiniteSample(index, channel):
            let place = channel.map { "channel \($0), " } ?? ""
            return "non-finite sample at \(place)index \(index)"
        case let .wrongScaling(needed):
            return "this needs a spectrum computed with \(needed.rawValue) scaling"
        }
    }
}
