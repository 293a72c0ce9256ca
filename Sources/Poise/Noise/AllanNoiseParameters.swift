/// The noise parameters of one sensor axis read off its overlapping Allan deviation σ(τ), in the
/// unit `u` of the samples (rad/s for a gyroscope, m/s² or g for an accelerometer), following
/// IEEE Std 952-1997 (Annex C) and the usual reading of the curve:
///
/// - **white noise N** (angle random walk of a gyroscope, velocity random walk of an
///   accelerometer; the noise density), u·√s = u/√Hz: the line of slope −1/2, σ = N/√τ, read at
///   τ = 1 s;
/// - **bias instability B**, u: the flat bottom of the curve divided by √(2 ln 2 / π) = 0.664
///   (the flicker-noise floor), with the cluster time of the minimum;
/// - **rate random walk K** (the bias random walk), u/√s = u/s/√Hz: the line of slope +1/2,
///   σ = K·√(τ/3), read at τ = 3 s.
///
/// Method. Only points averaged over at least `minimumClusters` independent clusters (N/m) are
/// used. The local log-log slope of each point is taken from its neighbours. N is fitted with the
/// slope fixed at −1/2 over the points whose slope is within `slopeTolerance` of −1/2 before the
/// minimum, K with the slope fixed at +1/2 over the points within `slopeTolerance` of +1/2 after
/// it: each a weighted mean of log(σ·√τ) (or log(σ·√(3/τ))) with weights N/m. Each line is fitted
/// to σ² less the other line's part (N²/τ or K²τ/3), repeated until both settle, so that the
/// crossing region does not bias them. B is fitted with slope 0 (the same weighted mean of log σ, of σ²
/// less both lines' parts) over the run of at least `minimumFloorPoints` consecutive points whose slope is within
/// `slopeTolerance` of 0 that reaches lowest. When the curve has no such floor (it bends from
/// the −1/2 to the +1/2 line), B is not determined and `biasInstabilityUpperBound` is the
/// smallest σ / 0.664 (the plain reading, an upper bound). A parameter the curve does not show
/// is `nil` with the reason: K when the curve never rises at +1/2 (the recording is too short for
/// the bias to wander), B when the curve still falls at the longest usable cluster time (an upper
/// bound is given in the reason), N when no point lies on the −1/2 line.
public struct AllanNoiseParameters: Sendable, Equatable, Codable {
    /// White noise density N, u/√Hz (`nil`: not determined, see `whiteNoiseReason`).
    public var whiteNoise: Double?
    /// Why N is not determined.
    public var whiteNoiseReason: String?
    /// Bias instability B, u.
    public var biasInstability: Double?
    /// Cluster time of the minimum, s.
    public var biasInstabilityClusterTime: Double?
    /// Why B is not determined.
    public var biasInstabilityReason: String?
    /// When B is not determined but bounded: the smallest σ / 0.664, u.
    public var biasInstabilityUpperBound: Double?
    /// Rate random walk K, u/√s (= u/s/√Hz).
    public var rateRandomWalk: Double?
    /// Why K is not determined.
    public var rateRandomWalkReason: String?
    /// Cluster times (s) of the points each line was fitted on.
    public var whiteNoiseClusterTimes: [Double] = []
    public var rateRandomWalkClusterTimes: [Double] = []
    public var biasInstabilityClusterTimes: [Double] = []
    /// Longest cluster time with at least `minimumClusters` clusters, s.
    public var longestUsableClusterTime: Double?

    /// Fewest independent clusters (N/m) a point needs to be used.
    public static let minimumClusters = 10.0
    /// Fewest consecutive flat points (slope within `slopeTolerance` of 0, a factor 4 in τ at
    /// octave spacing) that make a floor.
    public static let minimumFloorPoints = 3
    /// Largest distance of a point's local slope from ∓1/2 for it to count as on the line.
    public static let slopeTolerance = 0.15
    /// √(2 ln 2 / π): the Allan deviation of flicker noise over its bias instability.
    public static let flickerFloor = (2 * 0.693_147_180_559_945_3 / Double.pi).squareRoot()

    /// Reads the parameters off channel `channel` of `adev`.
    public init(_ adev: AllanDeviation, channel: Int) {
        let taus = adev.clusterTimes, sigma = adev.deviations[channel]
        var points: [(tau: Double, sigma: Double, weight: Double)] = []
        for i in taus.indices where Double(adev.sampleCount) / Double(adev.clusterSizes[i]) >= Self.minimumClusters
            && sigma[i] > 0 && sigma[i].isFinite {
            points.append((taus[i], sigma[i], Double(adev.sampleCount) / Double(adev.clusterSizes[i])))
        }
        self.init(points: points)
        if sigma.allSatisfy({ $0 == 0 }) {
            let reason = "the values never change: no noise to measure at the recording's resolution"
            whiteNoiseReason = reason; biasInstabilityReason = reason; rateRandomWalkReason = reason
        }
    }

    private init(points: [(tau: Double, sigma: Double, weight: Double)]) {
        guard points.count >= 3 else {
            let reason = "fewer than 3 cluster times with at least \(Int(Self.minimumClusters)) clusters: the recording is too short"
            whiteNoiseReason = reason; biasInstabilityReason = reason; rateRandomWalkReason = reason
            longestUsableClusterTime = points.last?.tau
            return
        }
        longestUsableClusterTime = points.last!.tau
        let logTau = points.map { _log($0.tau) }, logSigma = points.map { _log($0.sigma) }
        let slopes: [Double] = points.indices.map { i in
            let a = Swift.max(0, i - 1), b = Swift.min(points.count - 1, i + 1)
            return (logSigma[b] - logSigma[a]) / (logTau[b] - logTau[a])
        }
        let minimum = points.indices.min { points[$0].sigma < points[$1].sigma }!
        let white = points.indices.filter { $0 <= minimum && abs(slopes[$0] + 0.5) <= Self.slopeTolerance }
        let walk = points.indices.filter { $0 >= minimum && abs(slopes[$0] - 0.5) <= Self.slopeTolerance }
        var n2 = 0.0, k2 = 0.0
        func fit(_ indices: [Int], _ value: (Int) -> Double?) -> Double? {
            var sum = 0.0, weights = 0.0
            for i in indices { if let v = value(i), v > 0 { sum += points[i].weight * _log(v); weights += points[i].weight } }
            return weights > 0 ? _exp(sum / weights) : nil
        }
        for _ in 0..<20 {
            let n = fit(white) { i in
                let s2 = points[i].sigma * points[i].sigma - k2 * points[i].tau / 3
                return s2 > 0 ? (s2 * points[i].tau).squareRoot() : nil
            }
            let k = fit(walk) { i in
                let s2 = points[i].sigma * points[i].sigma - n2 / points[i].tau
                return s2 > 0 ? (3 * s2 / points[i].tau).squareRoot() : nil
            }
            let settled = abs((n ?? 0) * (n ?? 0) - n2) <= 1e-12 * n2 && abs((k ?? 0) * (k ?? 0) - k2) <= 1e-12 * k2
            n2 = (n ?? 0) * (n ?? 0); k2 = (k ?? 0) * (k ?? 0)
            if settled { break }
        }
        let longest = points.last!.tau
        if n2 > 0 {
            whiteNoise = n2.squareRoot()
            whiteNoiseClusterTimes = white.map { points[$0].tau }
        } else {
            whiteNoiseReason = "no cluster time from \(format(points[0].tau)) s on lies on a slope of −1/2 (within ±\(Self.slopeTolerance)): white noise does not dominate any part of the curve"
        }
        if k2 > 0 {
            rateRandomWalk = k2.squareRoot()
            rateRandomWalkClusterTimes = walk.map { points[$0].tau }
        } else {
            rateRandomWalkReason = "the curve does not rise at slope +1/2 up to τ = \(format(longest)) s (the longest cluster time with at least \(Int(Self.minimumClusters)) clusters): the recording is too short to show the bias wander; record for longer"
        }
        // Runs of consecutive points on a flat stretch; the one reaching lowest is the floor.
        var runs: [ClosedRange<Int>] = []
        for i in points.indices where abs(slopes[i]) <= Self.slopeTolerance {
            if let last = runs.last, last.upperBound == i - 1 { runs[runs.count - 1] = last.lowerBound...i } else { runs.append(i...i) }
        }
        let lowestOf = { (run: ClosedRange<Int>) in run.min { points[$0].sigma < points[$1].sigma }! }
        let floorRun = runs.min(by: { points[lowestOf($0)].sigma < points[lowestOf($1)].sigma })
        if let run = floorRun, run.count >= Self.minimumFloorPoints {
            let floor = fit(Array(run)) { i in
                let s2 = points[i].sigma * points[i].sigma - n2 / points[i].tau - k2 * points[i].tau / 3
                return s2 > 0 ? s2.squareRoot() : nil
            } ?? points[lowestOf(run)].sigma
            biasInstability = floor / Self.flickerFloor
            biasInstabilityClusterTime = points[lowestOf(run)].tau
            biasInstabilityClusterTimes = run.map { points[$0].tau }
        } else if minimum == points.count - 1 {
            biasInstabilityReason = "the curve still falls at τ = \(format(longest)) s (the longest cluster time with at least \(Int(Self.minimumClusters)) clusters), so its floor is not reached; record for longer"
            biasInstabilityUpperBound = points[minimum].sigma / Self.flickerFloor
        } else {
            biasInstabilityReason = "the curve has no flat floor: it turns from falling to rising at τ = \(format(points[minimum].tau)) s, so bias instability is hidden under the white noise and random walk there"
            biasInstabilityUpperBound = points[minimum].sigma / Self.flickerFloor
            biasInstabilityClusterTime = points[minimum].tau
        }
    }

    private func format(_ x: Double) -> String {
        // Three significant digits without Foundation.
        guard x.isFinite, x != 0 else { return "\(x)" }
        let exponent = Int(_floorLog10(abs(x)))
        let scale = _pow10(2 - exponent)
        let rounded = (x * scale).rounded() / scale
        return "\(rounded)"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func _floorLog10(_ x: Double) -> Double { floor(log10(x)) }
@inline(__always) private func _pow10(_ n: Int) -> Double { pow(10, Double(n)) }
