/// Mean and standard deviation of vector lengths (|B| of a magnetometer, |a| of an accelerometer
/// at rest), the sensor's unit: a calibrated sensor in a steady field reads one length in every
/// orientation, so the spread measures what calibration removed.
public struct MagnitudeSpread: Sendable, Equatable {
    /// Mean length.
    public var mean: Double
    /// Population standard deviation of the length.
    public var standardDeviation: Double
    /// Vectors measured.
    public var count: Int

    /// Spread of the lengths of `vectors` whose `include` entry is true (all when empty).
    public init(_ vectors: [SIMD3<Double>], include: [Bool] = []) {
        self.init { add in
            for (i, v) in vectors.enumerated() where include.isEmpty || include[i] { add(v) }
        }
    }

    /// Spread of the lengths of the vectors `vectors` hands to its argument (vectors kept
    /// elsewhere, such as a `ValueLog`).
    init(vectors: ((SIMD3<Double>) -> Void) -> Void) {
        var sums = Sums()
        vectors { v in sums.add(length: (v * v).sum().squareRoot()) }
        self.init(sums)
    }

    /// The spread of the lengths `sums` gathered.
    init(_ sums: Sums) {
        count = sums.n
        mean = sums.n > 0 ? sums.sum / Double(sums.n) : .nan
        standardDeviation = sums.n > 0 ? max(0, sums.sumSquares / Double(sums.n) - mean * mean).squareRoot() : .nan
    }

    /// The sums a spread is made of, gathered one length at a time (in a pass over readings that
    /// does other work too).
    struct Sums {
        var sum = 0.0, sumSquares = 0.0, n = 0

        /// Counts one vector of length `length`.
        @inline(__always)
        mutating func add(length: Double) {
            sum += length; sumSquares += length * length; n += 1
        }
    }

    /// The standard deviation as a percentage of the mean.
    public var percent: Double { 100 * standardDeviation / mean }
}
