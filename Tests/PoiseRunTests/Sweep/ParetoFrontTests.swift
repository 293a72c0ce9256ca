import PoiseRun
import Testing

@Suite("Pareto front and recommendation")
struct ParetoFrontTests {
    // index:            0         1         2         3          4         5           6            7
    let points = [(10.0, 5.0), (20, 3), (15, 6), (20, 3), (30, 3), (5, .nan), (40, 1), (12, 5)].map {
        Tradeoff(latency: $0.0, jitter: $0.1)
    } + [Tradeoff(latency: nil, jitter: 0.1)]

    @Test("Front of constructed points: dominated, tied, duplicate and unmeasured points")
    func constructed() {
        // (15,6) and (12,5) are dominated by (10,5); (30,3) by (20,3); the duplicates (20,3) both
        // stay; the point with NaN jitter and the one with no latency take no part.
        #expect(paretoFront(points) == [0, 1, 3, 6])
    }

    @Test("Recommendation for a latency target: lowest jitter within it")
    func latencyTarget() {
        #expect(recommend(points, latencyAtMost: 20) == 1)      // (20,3), lower index of the duplicates
        #expect(recommend(points, latencyAtMost: 19.9) == 0)    // (10,5) beats (12,5) and (15,6)
        #expect(recommend(points, latencyAtMost: 100) == 6)
        #expect(recommend(points, latencyAtMost: 9) == nil)     // only (5, NaN) is that fast
    }

    @Test("Recommendation for a jitter target: lowest latency within it")
    func jitterTarget() {
        #expect(recommend(points, jitterAtMost: 4) == 1)
        #expect(recommend(points, jitterAtMost: 5) == 0)
        #expect(recommend(points, jitterAtMost: 1) == 6)
        #expect(recommend(points, jitterAtMost: 0.5) == nil)
    }

    @Test("Front equals the brute-force non-dominated set; recommendations lie on it")
    func randomAgainstBruteForce() {
        var state: UInt64 = 12345
        func next(_ n: UInt64) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Double((state >> 33) % n)
        }
        for _ in 0..<50 {
            let candidates = (0..<40).map { _ in Tradeoff(latency: next(12), jitter: next(9)) }
            let expected = candidates.indices.filter { i in
                !candidates.indices.contains { j in
                    let (a, b) = (candidates[j], candidates[i])
                    return a.latency! <= b.latency! && a.jitter! <= b.jitter! && (a.latency! < b.latency! || a.jitter! < b.jitter!)
                }
            }
            let front = paretoFront(candidates)
            #expect(front.sorted() == expected)
            for target in stride(from: 0.0, through: 12, by: 1) {
                if let chosen = recommend(candidates, latencyAtMost: target) { #expect(front.contains(chosen)) }
                if let chosen = recommend(candidates, jitterAtMost: target) { #expect(front.contains(chosen)) }
            }
        }
    }
}
