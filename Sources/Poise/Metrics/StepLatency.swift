/// The two standard steps of conventions.md, in g (specific force, device frame).
public enum StandardStep: String, Sendable, CaseIterable, Codable {
    /// Gravity turns by 90° at constant magnitude: lying flat (0, 0, 1 g) → upright (0, 1 g, 0).
    case tilt
    /// The magnitude jumps: (0, 0, 1 g) → (0, 0, 1.5 g).
    case shake

    /// Input before the step, g.
    public var before: SIMD3<Double> { SIMD3(0, 0, 1) }

    /// Input from the step sample on, g.
    public var after: SIMD3<Double> {
        switch self {
        case .tilt: SIMD3(0, 1, 0)
        case .shake: SIMD3(0, 0, 1.5)
        }
    }
}

/// Latency to 90 % of a step (conventions.md).
public struct StepLatency: Sendable, Equatable, Codable {
    /// Smallest k ≥ 1 (k = 1 is the step sample) with progress ≥ 0.9; `nil` if not reached
    /// within the limit.
    public var samples: Int?
    /// `samples / sampleRate × 1000`, milliseconds; `nil` if not reached.
    public var milliseconds: Double?
    /// The sample rate used, Hz.
    public var sampleRate: Double
    /// Progress `p_k` of the outputs from the step sample on, until 90 % was reached (or the
    /// limit); `p = ((y − A)·(B − A)) / |B − A|²`.
    public var progress: [Double]
}

/// Measures latency to 90 % (conventions.md): feeds `before` until the filter has settled, then
/// `after` from the step sample on, each sample one nominal period (`1/sampleRate`) apart.
///
/// Progress is `p_k = ((y_k − A)·(B − A)) / |B − A|²`, computed in Double over all lanes.
///
/// - Parameters:
///   - filter: the filter, used from its current state (pass a fresh or reset filter).
///   - before: input A.
///   - after: input B (must differ from A).
///   - sampleRate: Hz; converts samples to milliseconds.
///   - noise: optional additive noise, cycled from index 0 at the first settling sample (for
///     example a real still segment minus its mean). Empty: no noise.
///   - settleSamples: samples of A fed first; default `max(1000, 20 s × rate)`.
///   - limit: samples after the step before giving up; default `max(1000, 60 s × rate)`.
/// - Complexity: O(settleSamples + limit); allocates only the progress array.
public func latency90<F: Filter>(_ filter: inout F, from before: F.Value, to after: F.Value, sampleRate: Double,
                                 noise: [F.Value] = [], settleSamples: Int? = nil, limit: Int? = nil) -> StepLatency {
    let settle = settleSamples ?? max(1000, Int(saturating: min(20 * sampleRate, 1e7)))
    let maximum = limit ?? max(1000, Int(saturating: min(60 * sampleRate, 1e7)))
    let difference = after - before
    var denominator = 0.0
    for i in 0..<F.Value.laneCount {
        let d = Double(difference.lane(i))
        denominator += d * d
    }
    var result = StepLatency(samples: nil, milliseconds: nil, sampleRate: sampleRate, progress: [])
    guard denominator > 0 else { return result }
    var index = 0
    func noisy(_ value: F.Value) -> F.Value {
        defer { index += 1 }
        return noise.isEmpty ? value : value + noise[index % noise.count]
    }
    for _ in 0..<settle { _ = filter.process(noisy(before)) }
    for k in 1...maximum {
        let y = filter.process(noisy(after))
        var numerator = 0.0
        for i in 0..<F.Value.laneCount {
            numerator += (Double(y.lane(i)) - Double(before.lane(i))) * Double(difference.lane(i))
        }
        let p = numerator / denominator
        result.progress.append(p)
        if p >= 0.9 {
            result.samples = k
            result.milliseconds = Double(k) / sampleRate * 1000
            break
        }
    }
    return result
}

/// Latency to 90 % of a standard step for a 3-axis filter in g.
public func latency90<F: Filter>(_ filter: inout F, step: StandardStep, sampleRate: Double,
                                 noise: [SIMD3<Double>] = []) -> StepLatency where F.Value == SIMD3<Double> {
    latency90(&filter, from: step.before, to: step.after, sampleRate: sampleRate, noise: noise)
}
