/// Filter kinds compared at their best points.
public struct SweepComparison: Sendable, Equatable {
    /// One kind's sweep and its best point.
    public struct Entry: Sendable, Equatable {
        /// The kind.
        public var kind: SweepKind
        /// The grid swept.
        public var grid: String
        /// All points of the kind's sweep, with its front and recommendation.
        public var result: SweepResult
        /// The kind's best point: its recommendation for the comparison's target.
        public var best: SweepPoint? { result.recommendation.map { result.points[$0] } }
    }

    /// The kinds in the order given.
    public var entries: [Entry]
    /// Indices into `entries` whose best points are on the Pareto front of the best points
    /// (latency in milliseconds vs jitter), by increasing latency.
    public var front: [Int]
    /// The target every kind's best point aims at.
    public var target: SweepTarget
    /// Index into `entries` of the overall recommendation among the best points.
    public var recommendation: Int?
}

extension Sweeper {
    /// Runs several sweeps as one parallel job and compares their kinds at their best points
    /// (each kind's recommendation for `target`). Deterministic for any thread count.
    ///
    /// - Throws: as ``run(_:on:target:threads:progress:)``.
    public static func compare(_ sweeps: [FilterSweep], on recordings: [SweepRecording], target: SweepTarget = .default,
                               threads: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SweepError) -> SweepComparison {
        let all = try run(sweeps.flatMap(\.settings), on: recordings, target: target, threads: threads, progress: progress)
        return comparison(of: sweeps, points: all.points, target: target)
    }

    /// The comparison of `sweeps` from their points (all sweeps' settings in order).
    static func comparison(of sweeps: [FilterSweep], points all: [SweepPoint], target: SweepTarget) -> SweepComparison {
        var entries: [SweepComparison.Entry] = []
        var start = 0
        for sweep in sweeps {
            let points = Array(all[start..<(start + sweep.settings.count)])
            start += sweep.settings.count
            entries.append(.init(kind: sweep.kind, grid: sweep.grid.text, result: SweepResult(points: points, target: target)))
        }
        let bests = entries.map { $0.best.map { [$0] } ?? [] }
        let overall = SweepResult(points: bests.flatMap { $0 }, target: target)
        // Map indices among the kinds that have a best point back to entry indices.
        let owners = entries.indices.filter { entries[$0].best != nil }
        return SweepComparison(entries: entries, front: overall.front.map { owners[$0] }, target: target,
                               recommendation: overall.recommendation.map { owners[$0] })
    }
}
