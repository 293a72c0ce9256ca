import Foundation
import PoiseRun

/// Reduces a series for drawing: for each of `buckets` equal x-ranges, keeps the samples with the
/// smallest and the largest y (in their original order; one point when they coincide), so peaks
/// survive at any zoom. Series of at most 2 × `buckets` points and non-finite points are kept as
/// they are / dropped respectively.
///
/// - Returns: indices into `x`/`y` of the points to draw, increasing.
public func minMaxDownsample(x: [Double], y: [Double], buckets: Int, range: ClosedRange<Double>? = nil) -> [Int] {
    let n = min(x.count, y.count)
    let finite = (0..<n).filter { x[$0].isFinite && y[$0].isFinite }
    guard finite.count > 2 * buckets, buckets > 0, let first = finite.first, let last = finite.last else { return finite }
    let lo = range?.lowerBound ?? x[first], hi = range?.upperBound ?? x[last]
    let width = hi - lo
    guard width > 0 else { return finite }
    var kept: [Int] = []
    kept.reserveCapacity(2 * buckets)
    var current = -1, minIndex = -1, maxIndex = -1
    func flush() {
        guard current >= 0 else { return }
        if minIndex == maxIndex { kept.append(minIndex) } else { kept.append(min(minIndex, maxIndex)); kept.append(max(minIndex, maxIndex)) }
    }
    for i in finite {
        let bucket = min(buckets - 1, max(0, Int(saturating: (x[i] - lo) / width * Double(buckets))))
        if bucket != current {
            flush()
            current = bucket; minIndex = i; maxIndex = i
        } else {
            if y[i] < y[minIndex] { minIndex = i }
            if y[i] > y[maxIndex] { maxIndex = i }
        }
    }
    flush()
    return kept
}
