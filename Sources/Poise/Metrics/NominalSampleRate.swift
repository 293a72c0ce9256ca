/// The rate every command sets a recording up for (docs/conventions.md, "The recording's rate"):
/// 1 / the median of the positive, finite timestamp intervals among the first
/// `NominalRate.rowCount` rows (all rows of a shorter recording). The median is the upper one
/// (rank `count / 2` of the sorted intervals); repeated or decreasing timestamps are left out.
///
/// The rule looks only at the start of a recording so that it gives the same number however
/// the recording arrives (a file, standard input, a pipe) and before the rest exists, and so that
/// a command that streams its input needs no extra pass over it: `fuse`, `evaluate`, `replay`,
/// `tilt`, `gyro`, `report` and `batch` all use it, the C API exposes it as
/// `poise_nominal_rate` and Python as `poise.nominal_rate`.
///
/// - Returns: Hz, or `nil` when the first rows have no increasing timestamp pair.
/// - Complexity: O(k log k) with k = min(n, `NominalRate.rowCount`).
public func nominalSampleRate(of samples: [MotionSample]) -> Double? {
    var estimator = NominalRate.Estimator()
    for sample in samples.prefix(NominalRate.rowCount) { estimator.add(time: sample.time) }
    return estimator.rate
}

/// The one rule for a recording's nominal rate (`nominalSampleRate(of:)`), for timestamps fed
/// one at a time, and how a command's rate was found.
public enum NominalRate {
    /// Rows whose timestamps decide the rate (20 s at 100 Hz).
    public static let rowCount = 2048

    /// 1 / the median positive, finite interval of the first `rowCount` of `times` (seconds);
    /// `nil` when there is none.
    public static func estimate<Times: Sequence>(times: Times) -> Double? where Times.Element == Double {
        var estimator = Estimator()
        for time in times {
            guard estimator.add(time: time) else { break }
        }
        return estimator.rate
    }

    /// Takes the timestamps of a recording in order; keeps the intervals of the first `rowCount`
    /// rows (at most 16 KiB) and ignores the rest.
    public struct Estimator: Sendable {
        /// Rows offered so far (counted beyond `rowCount` too).
        public private(set) var rows = 0
        private var intervals: [Double] = []
        private var previous = 0.0

        public init() {}

        /// Offers the next row's time (s). Returns whether later rows still matter (false from
        /// row `rowCount` on).
        @discardableResult
        public mutating func add(time: Double) -> Bool {
            defer { rows += 1; previous = time }
            guard rows < NominalRate.rowCount else { return false }
            if rows > 0 {
                let interval = time - previous
                if interval > 0, interval.isFinite { intervals.append(interval) }
            }
            return rows + 1 < NominalRate.rowCount
        }

        /// Rows the rate is taken from: min(rows, `rowCount`).
        public var rowsUsed: Int { min(rows, NominalRate.rowCount) }

        /// 1 / the median kept interval, Hz; `nil` without one.
        public var rate: Double? {
            guard !intervals.isEmpty else { return nil }
            let sorted = intervals.sorted()
            return 1 / sorted[sorted.count / 2]
        }
    }

    /// How a command's rate was found, as `poise info` and the JSON summaries say it.
    public enum Basis: Sendable, Equatable {
        /// Given by the user (`--sample-rate`, `--rate`).
        case given
        /// `nominalSampleRate(of:)`: the median interval of the first `rows` rows.
        case timestamps(rows: Int)
        /// No increasing timestamps among the first rows: the command's default is used.
        case assumed

        /// "median interval of the first 2048 rows", "given", "assumed (no increasing timestamps)".
        public var text: String {
            switch self {
            case .given: "given"
            case .timestamps(let rows): "median interval of the first \(rows) rows"
            case .assumed: "assumed (no increasing timestamps in the first rows)"
            }
        }
    }

    /// The rate a command uses: `given` when the user gave one, else the estimate, else `fallback`
    /// (Hz), with how it was found.
    public static func decide(given: Double?, estimated: Double?, rows: Int, fallback: Double = 100) -> (hertz: Double, basis: Basis) {
        if let given { return (given, .given) }
        if let estimated { return (estimated, .timestamps(rows: min(rows, rowCount))) }
        return (fallback, .assumed)
    }
}
