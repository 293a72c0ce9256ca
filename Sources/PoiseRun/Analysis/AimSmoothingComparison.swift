import Poise

/// Compares smoothers of a gyro-aim turn-rate signal (°/s, the (yaw, pitch) rate of `GyroAim`
/// before smoothing) with Poise's own metrics: lag on the moving segments (the shift that
/// maximises the cross-correlation with the raw rate, `lag(output:input:…)`) and jitter on the
/// still segments (RMS deviation from the 1 s centred moving mean, `jitter(output:input:…)`),
/// for soft tiered smoothing, the one-pole low-pass and the One Euro filter over a grid of
/// settings, and marks the Pareto front (no other candidate is better on both). The lag metric is
/// dominated by the fast turns that carry most of the signal, so each row also gives the latency
/// to 90 % (`latency90`) of a step from rest to a slow turn (2 °/s, below the tiered thresholds)
/// and to a fast one (100 °/s), which show where each smoother spends its delay.
public struct AimSmoothingComparison: Sendable {
    /// One smoother and its measurements.
    public struct Row: Sendable, Equatable {
        /// `tiered`, `onepole` or `oneeuro`.
        public var kind: String
        /// Its settings as text (`threshold=5,tau=0.0625`).
        public var settings: String
        /// Lag on moving segments, ms (nil: no moving segment long enough, or no correlation).
        public var lagMilliseconds: Double?
        /// Jitter on still segments, °/s.
        public var jitter: Double
        /// Latency to 90 % of a step from rest to a slow turn (`slowStep` °/s), ms (nil: not
        /// reached in 60 s).
        public var slowStepMilliseconds: Double?
        /// The same for a fast turn (`fastStep` °/s).
        public var fastStepMilliseconds: Double?
        /// Whether no other row is better on both lag and jitter.
        public var onFront: Bool
    }

    /// The raw signal's own jitter on the still segments, °/s.
    public let rawJitter: Double
    /// Still and moving samples, s.
    public let stillSeconds: Double
    public let movingSegments: Int
    /// The candidates in grid order.
    public let rows: [Row]

    /// The step sizes of the step latencies, °/s: a small aiming correction and a turn.
    public static let slowStep = 2.0
    public static let fastStep = 100.0

    /// The grid: tiered threshold × τ, one-pole τ, One Euro mincutoff × beta.
    public static let tieredThresholds = [2.0, 5, 10, 20]
    public static let tieredTimeConstants = [0.03, 0.0625, 0.125, 0.25]
    public static let onePoleTimeConstants = [0.005, 0.01, 0.02, 0.03, 0.0625, 0.125, 0.25]
    public static let oneEuroCutoffs = [0.5, 1, 2, 5]
    public static let oneEuroBetas = [0.0005, 0.002, 0.01]

    /// - Parameters:
    ///   - times: sample times, s (one per rate).
    ///   - rates: raw turn rates, °/s.
    ///   - still: still segments (index ranges, from `RestDetector`: sorted, not overlapping).
    ///   - sampleRate: nominal rate, Hz.
    public init(times: [Double], rates: [SIMD2<Double>], still: [Range<Int>], sampleRate: Double) throws {
        precondition(times.count == rates.count, "one time per rate")
        try self.init(count: rates.count, still: still, sampleRate: sampleRate) { body in
            try times.withUnsafeBufferPointer { t in try rates.withUnsafeBufferPointer { r in try body(0, t, r) } }
        }
    }

    /// The comparison over the raw rates of `poise gyro`'s spool, read in blocks once per
    /// candidate (the memory does not grow with the recording); the same rows as over arrays,
    /// to the last bit.
    ///
    /// - Throws: `RecordingError` when the spool cannot be read back.
    public init(spool: AimRateSpool, still: [Range<Int>], sampleRate: Double) throws {
        try self.init(count: spool.count, still: still, sampleRate: sampleRate) { body in try spool.forEachChunk(body) }
    }

    /// The samples, handed over in chunks in order: (index of the chunk's first sample, times, rates).
    typealias Chunks = ((Int, UnsafeBufferPointer<Double>, UnsafeBufferPointer<SIMD2<Double>>) throws -> Void) throws -> Void

    /// Each candidate filters the samples chunk by chunk with the periods of `process(_:dt:)`
    /// (the sample's time step, one nominal period for the first sample and for a step that is
    /// not positive) and feeds the outputs of the moving and still segments, in order, to the
    /// accumulators of `Poise.lag` and `Poise.jitter`.
    init(count: Int, still: [Range<Int>], sampleRate: Double, chunks: Chunks) throws {
        for (a, b) in zip(still, still.dropFirst()) { precondition(a.upperBound <= b.lowerBound, "still segments sorted, not overlapping") }
        let moving = Poise.movingSegments(complementing: still, count: count, minimumLength: Int(sampleRate))
        let maximumShift = max(1, Int(0.25 * sampleRate))
        let lagSegments = moving.filter { $0.count > LagAccumulator<SIMD2<Double>>(maximumShift: maximumShift).maximumShift }
        let stillSegments = still.filter { !$0.isEmpty }
        /// One pass of `filter` (nil: the raw rates) over the samples into a lag and a jitter
        /// accumulator; also the still seconds.
        func pass<F: Filter>(_ filter: F?) throws -> (LagAccumulator<SIMD2<Double>>, JitterAccumulator<SIMD2<Double>>, Double)
        where F.Value == SIMD2<Double> {
            var f = filter
            var lag = LagAccumulator<SIMD2<Double>>(maximumShift: maximumShift)
            var jitter = JitterAccumulator<SIMD2<Double>>(window: 1)
            var nextLag = 0, nextStill = 0, stillSeconds = 0.0, stillStart = 0.0
            var previous = 0.0
            var dts: [Double] = [], output: [SIMD2<Double>] = []
            try chunks { start, times, rates in
                if dts.count < rates.count {
                    dts = [Double](repeating: 0, count: rates.count)
                    output = [SIMD2<Double>](repeating: .zero, count: rates.count)
                }
                for k in 0..<times.count {
                    let i = start + k
                    dts[k] = i > 0 && times[k] > previous ? times[k] - previous : 1 / sampleRate
                    previous = times[k]
                }
                dts.withUnsafeBufferPointer { d in
                    output.withUnsafeMutableBufferPointer { o in
                        if f != nil { f!.process(rates, dt: d, into: o) } else { for k in 0..<rates.count { o[k] = rates[k] } }
                    }
                }
                for k in 0..<rates.count {
                    let i = start + k
                    if nextLag < lagSegments.count, lagSegments[nextLag].contains(i) {
                        lag.add(output: output[k], input: rates[k])
                        if i == lagSegments[nextLag].upperBound - 1 { lag.endSegment(); nextLag += 1 }
                    }
                    if nextStill < stillSegments.count, stillSegments[nextStill].contains(i) {
                        if i == stillSegments[nextStill].lowerBound { stillStart = times[k] }
                        jitter.add(time: times[k], output: output[k], input: rates[k])
                        if i == stillSegments[nextStill].upperBound - 1 {
                            jitter.endSegment(keep: true)
                            stillSeconds += times[k] - stillStart
                            nextStill += 1
                        }
                    }
                }
            }
            return (lag, jitter, stillSeconds)
        }
        let (_, rawJitter, seconds) = try pass(nil as OnePoleLowPass<SIMD2<Double>>?)
        func measure<F: Filter>(_ filter: F, kind: String, settings: String) throws -> Row where F.Value == SIMD2<Double> {
            let (lag, jitter, _) = try pass(filter)
            var slow = filter, fast = filter
            let slowStep = latency90(&slow, from: .zero, to: SIMD2(Self.slowStep, 0), sampleRate: sampleRate)
            let fastStep = latency90(&fast, from: .zero, to: SIMD2(Self.fastStep, 0), sampleRate: sampleRate)
            return Row(kind: kind, settings: settings, lagMilliseconds: lag.result(sampleRate: sampleRate)?.milliseconds,
                       jitter: jitter.result.jitter,
                       slowStepMilliseconds: slowStep.milliseconds, fastStepMilliseconds: fastStep.milliseconds, onFront: false)
        }
        var rows: [Row] = [try measure(try TieredSmoothing<SIMD2<Double>>(threshold: 0, timeConstant: 0, sampleRate: sampleRate),
                                       kind: "none", settings: "")]
        for threshold in Self.tieredThresholds {
            for tau in Self.tieredTimeConstants {
                rows.append(try measure(try TieredSmoothing<SIMD2<Double>>(threshold: threshold, timeConstant: tau, sampleRate: sampleRate),
                                        kind: "tiered", settings: "threshold=\(threshold),tau=\(tau)"))
            }
        }
        for tau in Self.onePoleTimeConstants {
            rows.append(try measure(try OnePoleLowPass<SIMD2<Double>>(cutoffFrequency: 1 / (2 * Double.pi * tau), sampleRate: sampleRate),
                                    kind: "onepole", settings: "tau=\(tau)"))
        }
        for cutoff in Self.oneEuroCutoffs {
            for beta in Self.oneEuroBetas {
                rows.append(try measure(try OneEuroFilter<SIMD2<Double>>(minimumCutoff: cutoff, beta: beta, sampleRate: sampleRate),
                                        kind: "oneeuro", settings: "mincutoff=\(cutoff),beta=\(beta)"))
            }
        }
        for i in paretoFront(rows.map { Tradeoff(latency: $0.lagMilliseconds, jitter: $0.jitter) }) { rows[i].onFront = true }
        self.rows = rows
        self.rawJitter = rawJitter.result.rawJitter
        stillSeconds = seconds
        movingSegments = moving.count
    }
}
