/// Running mean and standard deviation (Welford), exact and streaming.
public struct RunningDeviation: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var mean = 0.0
    private var squares = 0.0

    public init() {}

    /// Adds a value.
    public mutating func add(_ value: Double) {
        count += 1
        let delta = value - mean
        mean += delta / Double(count)
        squares += delta * (value - mean)
    }

    /// Population standard deviation (divides by n); 0 for fewer than two values.
    public var standardDeviation: Double {
        count < 2 ? 0 : (squares / Double(count)).squareRoot()
    }
}
