/// Streaming overlapping Allan deviation of several channels (e.g. the three gyroscope and the
/// three accelerometer axes), exactly the overlapping ADEV of IEEE Std 952 / NIST SP 1065 eq. (11)
/// for rate data:
///
///     σ²(mτ0) = 1 / (2 m² (N + 1 − 2m)) · Σₖ (Xₖ₊₂ₘ − 2 Xₖ₊ₘ + Xₖ)²,   Xₖ = Σᵢ₍ᵢ₍ₖ₎ (yᵢ − c)
///
/// over all k = 0 … N − 2m (every start, not only multiples of m), for N samples yᵢ. Xₖ is the
/// cumulative sum of the samples less a constant c (the first sample: the statistic does not
/// depend on c, and a small c keeps the sums exact). This is `allantools.oadev(y, rate,
/// data_type="freq")`; the deviation is in the unit of the samples and does not depend on τ0,
/// which only names the cluster times.
///
/// Memory: the cumulative sums of the last 2·`maximumClusterSize` + 1 samples per channel, one
/// tile of samples not yet summed and one block of new samples, in a ring of
/// 2·`maximumClusterSize` + 6,145 doubles per channel (8.4 MB at the CLI's default 2¹⁹) once the
/// recording is longer than about a fifth of that (less before), and no more however long it is;
/// sizes above `maximumClusterSize` are not computed. Each sample adds one term per cluster size,
/// computed tile by tile as soon as a tile of 2,048 samples is in (4 terms per SIMD step).
///
/// The floating-point result depends only on the values added and on the sizes: the sums are
/// re-centred and the tiles cut on a fixed schedule (a logical history that grows by half its
/// length, as a linear buffer would), not on how the samples are split between `add` calls or
/// on where the ring wraps.
///
/// - Complexity: O(sizes) per sample and channel.
public struct AllanDeviationAccumulator: Sendable {
    /// Number of channels each `add` call gives one value for.
    public let channelCount: Int
    /// The cluster sizes asked for, ascending (those above `maximumClusterSize` left out).
    public let clusterSizes: [Int]
    /// Largest cluster size computed, samples.
    public let maximumClusterSize: Int
    /// Samples added so far (per channel).
    public private(set) var count = 0
    /// Per channel, the index of the first non-finite sample (none are used after it).
    public private(set) var firstNonFiniteIndex: [Int?]

    /// The named set the sizes come from, if any.
    private let sizeSet: AllanClusterSizes?
    private var offsets: [Double]
    private var running: [Double]
    /// Channel c's Xⱼ at `ring[c][j % period]` (one row per channel, so that growing replaces one
    /// row at a time), for every global j from `oldestNeeded` to `base + stored`: the oldest
    /// value a later term or re-centring reads.
    private var ring: [[Double]]
    /// Length of each ring row: `capacity` while that is under a quarter of `longestPeriod`, then
    /// `longestPeriod` (so that the last growth copies a short row: the peak is the whole ring
    /// plus a quarter row).
    private var period: Int
    /// The ring's largest length: 2·`maximumClusterSize` + 1 kept sums, a tile and a block.
    private let longestPeriod: Int
    /// `(base + stored) % period`: where the next sum goes.
    private var head = 0
    /// The logical history that fixes when sums are re-centred and where tiles start:
    /// global `base ..< base + stored`, re-centred when `stored` reaches `capacity`.
    private var capacity: Int
    private var base = 0
    private var stored = 0
    /// Terms ending before this global index are summed.
    private var processed = 0
    /// Per channel and size, Σ (Xₖ₊₂ₘ − 2 Xₖ₊ₘ + Xₖ)².
    private var sums: [[Double]]

    /// Free room after the kept history, samples: new samples between two re-centrings (at least)
    /// and between two summed tiles (at most).
    static let blockLength = 4096
    /// Samples summed per tile (all sizes and channels run over one tile while it is in cache).
    static let tileLength = 2048

    /// - Parameters:
    ///   - channelCount: values per `add` call (at least 1).
    ///   - sizes: which cluster sizes (default octave: 1, 2, 4, …).
    ///   - maximumClusterSize: the largest size computed (samples); memory grows with it, not
    ///     with the recording.
    ///   - expectedCount: samples expected, to reserve memory for a short recording at once.
    public init(channelCount: Int, sizes: AllanClusterSizes = .octave, maximumClusterSize: Int, expectedCount: Int = 0) {
        self.init(channelCount: channelCount, clusterSizes: sizes.sizes(upTo: Swift.max(1, maximumClusterSize)),
                  expectedCount: expectedCount, sizeSet: sizes)
    }

    /// An accumulator for explicit cluster sizes (positive; sorted and deduplicated here).
    public init(channelCount: Int, clusterSizes: [Int], expectedCount: Int = 0) {
        self.init(channelCount: channelCount, clusterSizes: clusterSizes, expectedCount: expectedCount, sizeSet: nil)
    }

    private init(channelCount: Int, clusterSizes: [Int], expectedCount: Int, sizeSet: AllanClusterSizes?) {
        self.sizeSet = sizeSet
        precondition(channelCount >= 1, "AllanDeviationAccumulator needs at least one channel")
        let sizes = Array(Set(clusterSizes.filter { $0 >= 1 })).sorted()
        self.channelCount = channelCount
        self.clusterSizes = sizes
        maximumClusterSize = sizes.last ?? 1
        firstNonFiniteIndex = Array(repeating: nil, count: channelCount)
        offsets = Array(repeating: 0, count: channelCount)
        running = Array(repeating: 0, count: channelCount)
        let longest = 2 * maximumClusterSize + 1 + Self.blockLength
        let capacity = Swift.max(Self.blockLength, Swift.min(longest + longest / 2, Swift.max(expectedCount + 1, Self.blockLength)))
        self.capacity = capacity
        longestPeriod = 2 * maximumClusterSize + 1 + Self.tileLength + Self.blockLength
        let period = Self.ringLength(capacity: capacity, longest: longestPeriod)
        self.period = period
        ring = (0..<channelCount).map { _ in [Double](repeating: 0, count: period) }
        sums = Array(repeating: Array(repeating: 0, count: sizes.count), count: channelCount)
    }

    /// Adds one sample: `values[c]` for channel c (in the channel's unit, e.g. rad/s or g).
    /// A non-finite value is remembered (`firstNonFiniteIndex`) and that channel ignores the rest.
    public mutating func add(_ values: [Double]) {
        precondition(values.count == channelCount, "AllanDeviationAccumulator.add: \(values.count) values for \(channelCount) channels")
        _ = values.withUnsafeBufferPointer { v in add(count: 1) { c, _ in v[c] } }
    }

    /// Adds whole channels at once (`channels[c]` holds channel c's samples; all the same length):
    /// the same as calling `add` sample by sample, to the bit.
    public mutating func add(channels: [[Double]]) {
        precondition(channels.count == channelCount && Set(channels.map(\.count)).count <= 1)
        let total = channels.first?.count ?? 0
        var done = 0
        while done < total {
            let start = done
            done += add(count: total - done) { c, i in channels[c][start + i] }
        }
    }

    /// The oldest global index still read: by the next tiles (from `processed` − 2·`maximumClusterSize`)
    /// and by the next re-centring (from `processed` − 2·`maximumClusterSize` − 1), never before `base`.
    private var oldestNeeded: Int { Swift.max(base, processed - 2 * maximumClusterSize - 1) }

    /// Appends up to `count` samples (`value(c, i)`: channel c of the i-th) as room allows, then
    /// sums every whole tile; returns how many.
    @inline(__always)
    private mutating func add(count wanted: Int, _ value: (Int, Int) -> Double) -> Int {
        if stored == capacity { flush() }
        if count == 0 {
            for c in 0..<channelCount {
                let first = value(c, 0)
                offsets[c] = first.isFinite ? first : 0
                ring[c][0] = 0
            }
            stored = 1
            head = 1 % period
        }
        // Within the logical history, over no sum still needed, and not across the ring's end.
        let end = base + stored
        let chunk = Swift.min(wanted, capacity - stored, oldestNeeded + period - end, period - head)
        let head = self.head, count = self.count
        for c in 0..<channelCount {
            ring[c].withUnsafeMutableBufferPointer { x in
                var sum = running[c]
                let offset = offsets[c]
                let row = x.baseAddress! + head
                if firstNonFiniteIndex[c] == nil {
                    for i in 0..<chunk {
                        let v = value(c, i)
                        if !v.isFinite {
                            firstNonFiniteIndex[c] = count + i
                            for j in i..<chunk { row[j] = sum }
                            break
                        }
                        sum += v - offset
                        row[i] = sum
                    }
                } else {
                    for i in 0..<chunk { row[i] = sum }
                }
                running[c] = sum
            }
        }
        self.stored += chunk
        self.count += chunk
        self.head = head + chunk == period ? 0 : head + chunk
        if end + chunk - processed >= Self.tileLength { sumTiles(partial: false) }
        return chunk
    }

    /// The deviations of everything added so far, per channel, at the sizes with at least two
    /// terms (m ≤ (N − 1)/2), with cluster times m·`sampleInterval` (seconds).
    public mutating func result(sampleInterval: Double) -> AllanDeviation {
        sumTiles(partial: true)
        let largest = AllanClusterSizes.largestSize(sampleCount: count)
        var sizes: [Int] = [], terms: [Int] = []
        var deviations = Array(repeating: [Double](), count: channelCount)
        for (index, m) in clusterSizes.enumerated() where m <= largest {
            let n = count + 1 - 2 * m
            sizes.append(m)
            terms.append(n)
            for c in 0..<channelCount {
                deviations[c].append((sums[c][index] / (2 * Double(n))).squareRoot() / Double(m))
            }
        }
        let omitted = sizeSet.map { $0.sizes(upTo: largest).filter { $0 > maximumClusterSize } } ?? []
        return AllanDeviation(sampleInterval: sampleInterval, sampleCount: count, clusterSizes: sizes,
                              termCounts: terms, deviations: deviations, omittedClusterSizes: omitted)
    }

    /// Sums the terms of the stored samples not yet summed, in tiles of `tileLength` from
    /// `processed`: the whole tiles only, or (`partial`) the last, shorter one too.
    private mutating func sumTiles(partial: Bool) {
        let end = base + stored
        while processed < end {
            let tileStart = processed
            let tileEnd = Swift.min(end, tileStart + Self.tileLength)
            if !partial, tileEnd - tileStart < Self.tileLength { return }
            for c in 0..<channelCount {
                ring[c].withUnsafeBufferPointer { x in
                    for (index, m) in clusterSizes.enumerated() {
                        let low = Swift.max(tileStart, 2 * m)
                        guard low < tileEnd else { continue }
                        sums[c][index] += Self.sumOfSquaredSecondDifferences(x.baseAddress!, period: period, from: low, to: tileEnd, lag: m)
                    }
                }
            }
            processed = tileEnd
        }
    }

    /// Sums the pending terms, drops the sums no future term needs, and makes room for the next
    /// block: at least `blockLength` and half the kept history (the logical schedule; the ring
    /// grows with it, see `ringLength`). Growing replaces the rows one at a time, so the old
    /// and the new ring are never both whole in memory.
    private mutating func flush() {
        sumTiles(partial: true)
        let end = base + stored
        let newBase = Swift.max(base, processed - 2 * maximumClusterSize - 1)
        let keep = end - newBase
        let room = Swift.max(Self.blockLength, keep / 2)
        if keep + room > capacity { capacity = keep + room }
        let newPeriod = Self.ringLength(capacity: capacity, longest: longestPeriod)
        // Re-centre the kept sums on the first of them: the terms do not change (their
        // coefficients add to zero) and the numbers stay small.
        for c in 0..<channelCount {
            let centre = ring[c][newBase % period]
            if newPeriod != period {
                var fresh = [Double](repeating: 0, count: newPeriod)
                ring[c].withUnsafeBufferPointer { x in
                    fresh.withUnsafeMutableBufferPointer { y in
                        var from = newBase % period, to = newBase % newPeriod
                        for _ in 0..<keep {
                            y[to] = x[from] - centre
                            from += 1; if from == period { from = 0 }
                            to += 1; if to == newPeriod { to = 0 }
                        }
                    }
                }
                ring[c] = fresh
            } else {
                ring[c].withUnsafeMutableBufferPointer { x in
                    var j = newBase % period
                    for _ in 0..<keep {
                        x[j] = x[j] - centre
                        j += 1; if j == period { j = 0 }
                    }
                }
            }
            running[c] -= centre
        }
        period = newPeriod
        head = end % period
        base = newBase
        stored = keep
    }

    /// The ring's length for a logical history of `capacity`: that, or the whole `longest` once
    /// `capacity` reaches a quarter of it.
    private static func ringLength(capacity: Int, longest: Int) -> Int {
        capacity < longest / 4 ? capacity : longest
    }

    /// Σ (x[k] − 2 x[k − m] + x[k − 2m])² for global k in `from ..< to`, global j at
    /// `x[j % period]`: 8 terms per step into two SIMD accumulators from `from`, then the rest one
    /// by one, whether or not the ring wraps inside (a step that straddles the wrap loads its
    /// lanes one by one), so the sum does not depend on `period`.
    @inline(__always)
    static func sumOfSquaredSecondDifferences(_ x: UnsafePointer<Double>, period: Int, from: Int, to: Int, lag m: Int) -> Double {
        var k = from
        var acc0 = SIMD4<Double>.zero, acc1 = SIMD4<Double>.zero
        @inline(__always) func step(_ a0: SIMD4<Double>, _ b0: SIMD4<Double>, _ c0: SIMD4<Double>,
                                    _ a1: SIMD4<Double>, _ b1: SIMD4<Double>, _ c1: SIMD4<Double>) {
            let t0 = (a0 + c0) - 2 * b0, t1 = (a1 + c1) - 2 * b1
            acc0 = acc0.addingProductFast(t0, t0)
            acc1 = acc1.addingProductFast(t1, t1)
        }
        // Ring positions of x[k], x[k − m], x[k − 2m].
        var pa = k % period, pb = (k - m) % period, pc = (k - 2 * m) % period
        @inline(__always) func advance(_ p: inout Int, by n: Int) {
            p += n
            if p >= period { p -= period }
        }
        let raw = UnsafeRawPointer(x)
        let stride = MemoryLayout<Double>.stride
        while k + 8 <= to {
            let steps = Swift.min(period - pa, period - pb, period - pc, to - k) / 8
            if steps > 0 {
                var a = raw + pa * stride, b = raw + pb * stride, c = raw + pc * stride
                for _ in 0..<steps {
                    step(a.loadUnaligned(as: SIMD4<Double>.self), b.loadUnaligned(as: SIMD4<Double>.self),
                         c.loadUnaligned(as: SIMD4<Double>.self), a.loadUnaligned(fromByteOffset: 4 * stride, as: SIMD4<Double>.self),
                         b.loadUnaligned(fromByteOffset: 4 * stride, as: SIMD4<Double>.self),
                         c.loadUnaligned(fromByteOffset: 4 * stride, as: SIMD4<Double>.self))
                    a += 8 * stride; b += 8 * stride; c += 8 * stride
                }
                k += 8 * steps
                advance(&pa, by: 8 * steps); advance(&pb, by: 8 * steps); advance(&pc, by: 8 * steps)
            } else {
                @inline(__always) func lanes(_ p: Int, _ first: Int) -> SIMD4<Double> {
                    var v = SIMD4<Double>.zero
                    for i in 0..<4 {
                        let j = p + first + i
                        v[i] = x[j >= period ? j - period : j]
                    }
                    return v
                }
                step(lanes(pa, 0), lanes(pb, 0), lanes(pc, 0), lanes(pa, 4), lanes(pb, 4), lanes(pc, 4))
                k += 8
                advance(&pa, by: 8); advance(&pb, by: 8); advance(&pc, by: 8)
            }
        }
        var sum = (acc0 + acc1).sum()
        while k < to {
            let t = (x[pa] + x[pc]) - 2 * x[pb]
            sum += t * t
            k += 1
            advance(&pa, by: 1); advance(&pb, by: 1); advance(&pc, by: 1)
        }
        return sum
    }
}
