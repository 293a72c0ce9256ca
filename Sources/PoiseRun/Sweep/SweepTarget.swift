import Foundation
import Poise

/// What a recommendation aims at.
public enum SweepTarget: Sendable, Equatable, CustomStringConvertible {
    /// Lowest jitter with latency (worse of tilt and shake) ≤ this many samples.
    case latencySamples(Int)
    /// Lowest jitter with latency ≤ this many milliseconds.
    case latencyMilliseconds(Double)
    /// Lowest latency with jitter ≤ this many g.
    case jitter(Double)

    /// Used when the user sets no target: a tenth of a second of delay.
    public static let `default` = SweepTarget.latencyMilliseconds(100)

    public var description: String {
        switch self {
        case .latencySamples(let n): "latency ≤ \(n) samples"
        case .latencyMilliseconds(let ms): "latency ≤ \(FilterSweep.format(ms)) ms"
        case .jitter(let g): "jitter ≤ \(g) g"
        }
    }
}
