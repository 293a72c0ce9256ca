/// Which cluster sizes m (cluster time τ = m·τ0, τ0 the sample interval) an Allan deviation is
/// computed at. Both sets are those of the `allantools` Python package's keywords of the same
/// name, limited to the sizes with at least two terms (m ≤ (N − 1)/2 for N samples), as
/// `allantools.oadev` reports them.
public enum AllanClusterSizes: String, Sendable, CaseIterable, Codable {
    /// 1, 2, 4, 8, 16, … (powers of two; one point per octave).
    case octave
    /// 1, 2, 4, 10, 20, 40, 100, … (three points per decade, the spacing of Stable32).
    case decade

    /// The sizes of this set that are at most `limit`, ascending.
    public func sizes(upTo limit: Int) -> [Int] {
        var sizes: [Int] = []
        switch self {
        case .octave:
            var m = 1
            while m <= limit {
                sizes.append(m)
                if m > Int.max / 2 { break }
                m *= 2
            }
        case .decade:
            var power = 1
            outer: while true {
                for factor in [1, 2, 4] {
                    let (m, overflow) = factor.multipliedReportingOverflow(by: power)
                    if overflow || m > limit { break outer }
                    sizes.append(m)
                }
                if power > Int.max / 10 { break }
                power *= 10
            }
        }
        return sizes
    }

    /// The largest cluster size with at least two terms for `sampleCount` samples: (N − 1) / 2.
    public static func largestSize(sampleCount: Int) -> Int { Swift.max(0, (sampleCount - 1) / 2) }
}
