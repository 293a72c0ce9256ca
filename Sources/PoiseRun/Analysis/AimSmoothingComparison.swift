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
    ///   - still: still segments (index ranges, from `RestDetector`).
    ///   - sampleRate: nominal rate, Hz.
    public init(times: [Double], rates: [SIMD2<Double>], still: [Range<Int>], sampleRate: Double) throws {
        precondition(times.count == rates.count, "one time per rate")
        let moving = Poise.movingSegments(complementing: still, count: rates.count, minimumLength: Int(sampleRate))
        let maximumShift = max(1, Int(0.25 * sampleRate))
        var dts = [Double](repeating: 1 / sampleRate, count: times.count)
        for i in times.indices.dropFirst() where times[i] > times[i - 1] { dts[i] = times[i] - times[i - 1] }
        let raw = Poise.jitter(output: rates, input: rates, times: times, segments: still).rawJitter
        func measure<F: Filter>(_ filter: F, kind: String, settings: String) -> Row where F.Value == SIMD2<Double> {
            var f = filter
            let output = f.process(rates, dt: dts)
            let lag = Poise.lag(output: output, input: rates, segments: moving, sampleRate: sampleRate, maximumShift: maximumShift)
            let j = Poise.jitter(output: output, input: rates, times: times, segments: still)
            var slow = filter, fast = filter
            let slowStep = latency90(&slow, from: .zero, to: SIMD2(Self.slowStep, 0), sampleRate: sampleRate)
            let fastStep = latency90(&fast, from: .zero, to: SIMD2(Self.fastStep, 0), sampleRate: sampleRate)
            return Row(kind: kind, settings: settings, lagMilliseconds: lag?.milliseconds, jitter: j.jitter,
                       slowStepMilliseconds: slowStep.milliseconds, fastStepMilliseconds: fastStep.milliseconds, onFront: false)
        }
        var rows: [Row] = [measure(try TieredSmoothing<SIMD2<Double>>(threshold: 0, timeConstant: 0, sampleRate: sampleRate),
                                   kind: "none", settings: "")]
        for threshold in Self.tieredThresholds {
            for tau in Self.tieredTimeConstants {
                rows.append(measure(try TieredSmoothing<SIMD2<Double>>(threshold: threshold, timeConstant: tau, sampleRate: sampleRate),
                                    kind: "tiered", settings: "threshold=\(threshold),tau=\(tau)"))
            }
        }
        for tau in Self.onePoleTimeConstants {
            rows.append(measure(try OnePoleLowPass<SIMD2<Double>>(cutoffFrequency: 1 / (2 * Double.pi * tau), sampleRate: sampleRate),
                                kind: "onepole", settings: "tau=\(tau)"))
        }
        for cutoff in Self.oneEuroCutoffs {
            for beta in Self.oneEuroBetas {
                rows.append(measure(try OneEuroFilter<SIMD2<Double>>(minimumCutoff: cutoff, beta: beta, sampleRate: sampleRate),
                                    kind: "oneeuro", settings: "mincutoff=\(cutoff),beta=\(beta)"))
            }
        }
        for i in paretoFront(rows.map { Tradeoff(latency: $0.lagMilliseconds, jitter: $0.jitter) }) { rows[i].onFront = true }
        self.rows = rows
        rawJitter = raw
        stillSeconds = still.reduce(0) { $0 + (times[$1.upperBound - 1] - times[$1.lowerBound]) }
        movingSegments = moving.count
    }
}
