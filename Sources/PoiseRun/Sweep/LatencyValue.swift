import Foundation
import Poise

/// Latency to 90 % in samples and milliseconds (`nil` when 90 % was never reached).
public struct LatencyValue: Sendable, Equatable, Codable {
    public var samples: Int?
    public var milliseconds: Double?

    public init(samples: Int?, milliseconds: Double?) {
        self.samples = samples; self.milliseconds = milliseconds
    }

    /// The worse (larger) of two latencies; unreached beats everything.
    func worse(_ other: LatencyValue) -> LatencyValue {
        guard let a = samples, let b = other.samples, let x = milliseconds, let y = other.milliseconds else {
            return LatencyValue(samples: nil, milliseconds: nil)
        }
        return LatencyValue(samples: max(a, b), milliseconds: max(x, y))
    }
}
