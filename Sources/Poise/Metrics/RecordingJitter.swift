/// Runs `filter` over a recording's acceleration with the real per-sample periods and returns
/// the outputs (g, device frame). The first sample is processed as one nominal period.
///
/// - Complexity: O(n); allocates the output array only.
public func filterAcceleration<F: Filter>(_ filter: inout F, samples: [MotionSample]) -> [SIMD3<Double>]
where F.Value == SIMD3<Double> {
    var output: [SIMD3<Double>] = []
    output.reserveCapacity(samples.count)
    for i in samples.indices {
        let a = samples[i].acceleration
        output.append(i == 0 ? filter.process(a) : filter.process(a, dt: samples[i].time - samples[i - 1].time))
    }
    return output
}

/// Jitter of `filter` on the still segments of a recording (conventions.md): filters the
/// acceleration (g) with real periods, finds still segments with `detector` (or uses
/// `segments` when given), and compares filtered and raw jitter on them.
public func accelerationJitter<F: Filter>(_ filter: inout F, samples: [MotionSample], detector: RestDetector = RestDetector(),
                                          segments: [Range<Int>]? = nil) -> JitterResult
where F.Value == SIMD3<Double> {
    let output = filterAcceleration(&filter, samples: samples)
    let still = segments ?? detector.stillSegments(in: samples)
    return jitter(output: output, input: samples.map(\.acceleration), times: samples.map(\.time), segments: still)
}

/// Jitter on the still segments and lag on the moving ones, for one pass of a filter over a
/// recording's acceleration.
public struct AccelerationFilterMetrics: Sendable, Equatable, Codable {
    /// Jitter on the still segments (g).
    public var jitter: JitterResult
    /// Lag on the moving segments (up to 0.5 s), `nil` without a moving segment longer than that.
    public var lag: LagResult?
}

/// Runs `filter` once over the recording's acceleration (real periods) and measures jitter on
/// the still segments found by `detector` and lag on the segments between them.
public func accelerationMetrics<F: Filter>(_ filter: inout F, samples: [MotionSample], sampleRate: Double,
                                           detector: RestDetector = RestDetector()) -> AccelerationFilterMetrics
where F.Value == SIMD3<Double> {
    let output = filterAcceleration(&filter, samples: samples)
    let still = detector.stillSegments(in: samples)
    let input = samples.map(\.acceleration)
    let jitterResult = jitter(output: output, input: input, times: samples.map(\.time), segments: still)
    let maximumShift = max(1, Int(saturating: (0.5 * sampleRate).rounded()))
    let moving = movingSegments(complementing: still, count: samples.count, minimumLength: maximumShift + 1)
    let lagResult = lag(output: output, input: input, segments: moving, sampleRate: sampleRate,
                        maximumShift: maximumShift)
    return AccelerationFilterMetrics(jitter: jitterResult, lag: lagResult)
}
