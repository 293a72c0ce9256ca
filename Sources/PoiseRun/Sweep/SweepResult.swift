import Foundation
import Poise

/// The result of a sweep: every point, the Pareto front and a recommendation.
public struct SweepResult: Sendable, Equatable {
    /// Points in the order of the settings given.
    public var points: [SweepPoint]
    /// Indices of the Pareto-front points (latency in milliseconds vs jitter), by increasing latency.
    public var front: [Int]
    /// The target the recommendation aims at.
    public var target: SweepTarget
    /// Index of the recommended point; `nil` when no point meets the target.
    public var recommendation: Int?

    /// Builds the front and the recommendation for `points`.
    public init(points: [SweepPoint], target: SweepTarget) {
        self.points = points
        self.target = target
        front = paretoFront(points.map(\.tradeoffMilliseconds))
        switch target {
        case .latencySamples(let n): recommendation = recommend(points.map(\.tradeoffSamples), latencyAtMost: Double(n))
        case .latencyMilliseconds(let ms): recommendation = recommend(points.map(\.tradeoffMilliseconds), latencyAtMost: ms)
        case .jitter(let g): recommendation = recommend(points.map(\.tradeoffMilliseconds), jitterAtMost: g)
        }
    }
}
