/// A point's position in the latency–jitter trade-off (lower is better on both axes).
public struct Tradeoff: Sendable, Equatable {
    /// Latency (samples or milliseconds; the same unit for all candidates); `nil` when the
    /// step never reached 90 %: such a point is never on the front nor recommended.
    public var latency: Double?
    /// Jitter (input unit); `nil` when not measured: never on the front nor recommended.
    public var jitter: Double?

    public init(latency: Double?, jitter: Double?) {
        self.latency = latency; self.jitter = jitter
    }
}

/// The Pareto front of `candidates`: the indices of the points that no other point dominates.
///
/// A point dominates another when its latency and its jitter are both lower or equal and at
/// least one is strictly lower. Identical points are all on the front. Points with a missing
/// latency or jitter (or NaN) take no part.
///
/// - Returns: indices sorted by increasing latency (ties: increasing jitter, then index); along
///   the front, jitter strictly decreases as latency grows (apart from identical points).
/// - Complexity: O(n log n).
public func paretoFront(_ candidates: [Tradeoff]) -> [Int] {
    let valid = candidates.indices.filter {
        guard let l = candidates[$0].latency, let j = candidates[$0].jitter else { return false }
        return !l.isNaN && !j.isNaN
    }
    let order = valid.sorted { a, b in
        let (x, y) = (candidates[a], candidates[b])
        if x.latency! != y.latency! { return x.latency! < y.latency! }
        if x.jitter! != y.jitter! { return x.jitter! < y.jitter! }
        return a < b
    }
    var front: [Int] = []
    var bestEarlier = Double.infinity   // lowest jitter among strictly smaller latencies
    var groupStart = 0
    while groupStart < order.count {
        let latency = candidates[order[groupStart]].latency!
        var groupEnd = groupStart
        while groupEnd < order.count, candidates[order[groupEnd]].latency! == latency { groupEnd += 1 }
        let lowest = candidates[order[groupStart]].jitter!   // sorted: the group's minimum
        if lowest < bestEarlier {
            for position in groupStart..<groupEnd where candidates[order[position]].jitter! == lowest {
                front.append(order[position])
            }
            bestEarlier = lowest
        }
        groupStart = groupEnd
    }
    return front
}

/// The candidate with the lowest jitter among those with latency ≤ `latency`; ties go to the
/// lower latency, then the lower index. The answer is always on ``paretoFront(_:)``.
/// `nil` when no candidate meets the target.
public func recommend(_ candidates: [Tradeoff], latencyAtMost latency: Double) -> Int? {
    best(candidates) { l, _ in l <= latency } by: { ($0.jitter!, $0.latency!) }
}

/// The candidate with the lowest latency among those with jitter ≤ `jitter`; ties go to the
/// lower jitter, then the lower index. The answer is always on ``paretoFront(_:)``.
/// `nil` when no candidate meets the target.
public func recommend(_ candidates: [Tradeoff], jitterAtMost jitter: Double) -> Int? {
    best(candidates) { _, j in j <= jitter } by: { ($0.latency!, $0.jitter!) }
}

/// The admissible candidate with the smallest key (lexicographic), earliest index on ties.
private func best(_ candidates: [Tradeoff], where admissible: (Double, Double) -> Bool,
                  by key: (Tradeoff) -> (Double, Double)) -> Int? {
    var chosen: Int? = nil
    for (index, candidate) in candidates.enumerated() {
        guard let l = candidate.latency, let j = candidate.jitter, !l.isNaN, !j.isNaN, admissible(l, j) else { continue }
        if let current = chosen {
            let (a, b) = (key(candidate), key(candidates[current]))
            if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) { chosen = index }
        } else {
            chosen = index
        }
    }
    return chosen
}
