/// Two series on one x axis (time), reduced as they stream for a plot of a recording too long to
/// hold: for each of `buckets` equal ranges of x over `range`, the points where either series has
/// its smallest or its largest y in that range (up to four, in their order), plus the first and
/// last points, so that each line keeps its envelope and the plot its x range. A stream of at
/// most 2 × `buckets` points is kept whole.
///
/// Memory: at most 4 × `buckets` + 2 points.
public struct PairEnvelope: Sendable {
    struct Point: Sendable {
        var sequence: Int
        var x: Double
        var y: SIMD2<Double>
    }

    let lower: Double
    let width: Double
    let buckets: Int
    var kept: [Point] = []
    var whole: [Point] = []
    var keepsWhole = true
    var bucket = -1
    /// The current bucket's points with the smallest and largest y of each series.
    var extremes: [Point] = []
    var first: Point?
    var last: Point?
    var sequence = 0

    /// - Parameters:
    ///   - range: the x range the buckets divide (for time series: the recording's first to last
    ///     time, s).
    ///   - buckets: how many ranges (a few per pixel of the plot's width).
    public init(range: ClosedRange<Double>, buckets: Int) {
        lower = range.lowerBound
        width = range.upperBound - range.lowerBound
        self.buckets = max(1, buckets)
    }

    /// Adds the next point (x not decreasing).
    public mutating func add(x: Double, y: SIMD2<Double>) {
        let point = Point(sequence: sequence, x: x, y: y)
        sequence += 1
        if first == nil { first = point }
        last = point
        if keepsWhole {
            whole.append(point)
            if whole.count > 2 * buckets { keepsWhole = false; whole = [] }
        }
        let scaled = width > 0 && x.isFinite ? (x - lower) / width * Double(buckets) : 0
        let index = min(buckets - 1, max(0, Int(scaled.isFinite ? scaled : 0)))
        if index != bucket || extremes.isEmpty {
            flush()
            bucket = index
            extremes = [point, point, point, point]
        } else {
            if y.x < extremes[0].y.x { extremes[0] = point }
            if y.x > extremes[1].y.x { extremes[1] = point }
            if y.y < extremes[2].y.y { extremes[2] = point }
            if y.y > extremes[3].y.y { extremes[3] = point }
        }
    }

    mutating func flush() {
        var seen = Set<Int>()
        for point in extremes.sorted(by: { $0.sequence < $1.sequence }) where seen.insert(point.sequence).inserted { kept.append(point) }
        extremes = []
    }

    /// The reduced series: x, and the two series' y at those x.
    public func values() -> (x: [Double], y: [SIMD2<Double>]) {
        var copy = self
        copy.flush()
        var points = copy.keepsWhole ? copy.whole : copy.kept
        if !copy.keepsWhole {
            if let first = copy.first, points.first?.sequence != first.sequence { points.insert(first, at: 0) }
            if let last = copy.last, points.last?.sequence != last.sequence { points.append(last) }
        }
        return (points.map(\.x), points.map(\.y))
    }
}
