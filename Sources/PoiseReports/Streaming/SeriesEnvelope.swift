/// A line series reduced while it streams, for plots of recordings too long to hold: for each of
/// `buckets` equal ranges of x over `range`, the points with the smallest and the largest y in
/// their order (the points ``minMaxDownsample(x:y:buckets:range:)`` keeps from the whole series),
/// plus the series' first and last points, so the plot's x range is the series'. Non-finite
/// values between two kept points become one break (NaN) in the reduced series, so the line
/// breaks where it broke. A series of at most 2 × `buckets` finite points is kept whole.
///
/// Memory: at most 2 × `buckets` + 2 points plus the short series kept whole until it outgrows
/// that.
struct SeriesEnvelope: Sendable {
    struct Point: Sendable {
        var sequence: Int
        var x: Double
        var y: Double
        /// Non-finite values seen before this point.
        var breaks: Int
    }

    let lower: Double
    let width: Double
    let buckets: Int
    var kept: [Point] = []
    var whole: [Point] = []
    var keepsWhole = true
    var bucket = -1
    var low: Point?
    var high: Point?
    var first: Point?
    var last: Point?
    var sequence = 0
    var breaks = 0

    /// - Parameters:
    ///   - range: the x range the buckets divide (for time series: 0 to the recording's duration).
    ///   - buckets: the plot's width in pixels (``PlotFrame/plotWidth``).
    init(range: ClosedRange<Double>, buckets: Int) {
        lower = range.lowerBound
        width = range.upperBound - range.lowerBound
        self.buckets = max(1, buckets)
    }

    mutating func add(x: Double, y: Double) {
        defer { sequence += 1 }
        guard x.isFinite, y.isFinite else { breaks += 1; return }
        let point = Point(sequence: sequence, x: x, y: y, breaks: breaks)
        if first == nil { first = point }
        last = point
        if keepsWhole {
            whole.append(point)
            if whole.count > 2 * buckets { keepsWhole = false; whole = [] }
        }
        let index = width > 0 ? min(buckets - 1, max(0, Int(saturating: (x - lower) / width * Double(buckets)))) : 0
        if index != bucket {
            flush()
            bucket = index; low = point; high = point
        } else {
            if y < low!.y { low = point }
            if y > high!.y { high = point }
        }
    }

    mutating func flush() {
        guard let low, let high else { return }
        if low.sequence == high.sequence { kept.append(low) } else if low.sequence < high.sequence { kept += [low, high] } else { kept += [high, low] }
        self.low = nil; self.high = nil
    }

    /// The reduced series: x and y with NaN where the line breaks.
    func values() -> (x: [Double], y: [Double]) {
        var copy = self
        copy.flush()
        var points = copy.keepsWhole ? copy.whole : copy.kept
        if !copy.keepsWhole {
            if let first = copy.first, points.first?.sequence != first.sequence { points.insert(first, at: 0) }
            if let last = copy.last, points.last?.sequence != last.sequence { points.append(last) }
        }
        var x: [Double] = [], y: [Double] = []
        x.reserveCapacity(points.count + 8); y.reserveCapacity(points.count + 8)
        var previous: Point?
        for point in points {
            if let previous, point.breaks > previous.breaks { x.append(.nan); y.append(.nan) }
            x.append(point.x); y.append(point.y)
            previous = point
        }
        return (x, y)
    }

    /// The smallest and largest finite y seen (`nil` without one).
    var yRange: ClosedRange<Double>? {
        var copy = self
        copy.flush()
        let ys = (copy.keepsWhole ? copy.whole : copy.kept).map(\.y)
        guard let lo = ys.min(), let hi = ys.max() else { return nil }
        return lo...hi
    }
}
