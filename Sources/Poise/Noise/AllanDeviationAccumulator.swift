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
/// Memory: the cumulative sums of the last 2·`maximumClusterSize` samples per channel and one
/// block of new samples (about 3·`maximumClusterSize` + 4096 doubles per channel once the
/// recording is longer than that), whatever the recording's length; sizes above
/// `maximumClusterSize` are not computed. Each sample adds one term per cluster size, computed
/// block by block (4 terms per SIMD step).
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
    /// Channel c's Xⱼ for global j in `base ..< base + stored` at `history[c][j − base]` (one row
    /// of `capacity` per channel, so that growing replaces one row at a time).
    private var history: [[Double]]
    private var capacity: Int
    private var base = 0
    private var stored = 0
    /// Terms ending before this global index are summed.
    private var processed = 0
    /// Per channel and size, Σ (Xₖ₊₂ₘ − 2 Xₖ₊ₘ + Xₖ)².
    private var sums: [[Double]]

    /// Free room after the kept history, samples: new samples between two processing steps.
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
        history = (0..<channelCount).map { _ in [Double](repeating: 0, count: capacity) }
        sums = Array(repeating: Array(repeating: 0, count: sizes.count), count: channelCount)
    }

    /// Adds one sample: `values[c]` for channel c (in the channel's unit, e.g. rad/s or g).
    /// A non-finite value is remembered (`firstNonFiniteIndex`) and that channel ignores the rest.
    public mutating func add(_ values: [Double]) {
        precondition(values.count == channelCount, "AllanDeviationAccumulator.add: \(values.count) values for \(channelCount) channels")
        _ = values.withUnsafeBufferPointer { v in add(count: 1) { c, _ in v[c] } }
    }

    /// Adds whole channels at once (`channels[c]` holds channel c's samples; all the same length):
    /// the same as calling `add` sample by sample.
    public mutating func add(channels: [[Double]]) {
        precondition(channels.count == channelCount && Set(channels.map(\.count)).count <= 1)
        let total = channels.first?.count ?? 0
        var done = 0
        while done < total {
            let start = done
            done += add(count: total - done) { c, i in channels[c][start + i] }
        }
    }

    /// Appends up to `count` samples (`value(c, i)`: channel c of the i-th) as room allows;
    /// returns how many.
    @inline(__always)
    private mutating func add(count wanted: Int, _ value: (Int, Int) -> Double) -> Int {
        if stored == capacity { flush() }
        if count == 0 {
            for c in 0..<channelCount {
                let first = value(c, 0)
                offsets[c] = first.isFinite ? first : 0
                history[c][0] = 0
            }
            stored = 1
        }
        let chunk = Swift.min(wanted, capacity - stored)
        let stored = self.stored, count = self.count
        for c in 0..<channelCount {
            history[c].withUnsafeMutableBufferPointer { x in
                var sum = running[c]
                let offset = offsets[c]
                let row = x.baseAddress! + stored
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
        return chunk
    }

    /// The deviations of everything added so far, per channel, at the sizes with at least two
    /// terms (m ≤ (N − 1)/2), with cluster times m·`sampleInterval` (seconds).
    public mutating func result(sampleInterval: Double) -> AllanDeviation {
        sumPending()
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

    /// Sums the terms of every stored sample not yet summed.
    private mutating func sumPending() {
        let end = base + stored
        guard end > processed else { return }
        var tileStart = processed
        while tileStart < end {
            let tileEnd = Swift.min(end, tileStart + Self.tileLength)
            for c in 0..<channelCount {
                history[c].withUnsafeBufferPointer { x in
                    let row = x.baseAddress!
                    for (index, m) in clusterSizes.enumerated() {
                        let low = Swift.max(tileStart, 2 * m)
                        guard low < tileEnd else { continue }
                        sums[c][index] += Self.sumOfSquaredSecondDifferences(row, from: low - base, to: tileEnd - base, lag: m)
                    }
                }
            }
            tileStart = tileEnd
        }
        processed = end
    }

    /// Sums the pending terms, drops the sums no future term needs, and makes room for the next
    /// block: at least `blockLength` and half the kept history, so that moving the kept history
    /// costs at most two copies per sample. Growing replaces the rows one at a time, so the old
    /// and the new history are never both whole in memory.
    private mutating func flush() {
        sumPending()
        let newBase = Swift.max(base, processed - 2 * maximumClusterSize - 1)
        let keep = base + stored - newBase
        let shift = newBase - base
        let room = Swift.max(Self.blockLength, keep / 2)
        let grows = keep + room > capacity
        if grows { capacity = keep + room }
        // Re-centre the kept sums on the first of them: the terms do not change (their
        // coefficients add to zero) and the numbers stay small.
        for c in 0..<channelCount {
            let centre = history[c][shift]
            if grows {
                var fresh = [Double](repeating: 0, count: capacity)
                history[c].withUnsafeBufferPointer { x in
                    for j in 0..<keep { fresh[j] = x[shift + j] - centre }
                }
                history[c] = fresh
            } else {
                history[c].withUnsafeMutableBufferPointer { x in
                    for j in 0..<keep { x[j] = x[shift + j] - centre }
                }
            }
            running[c] -= centre
        }
        base = newBase
        stored = keep
    }

    /// Σ (x[k] − 2 x[k − m] + x[k − 2m])² for k in `from ..< to`.
    @inline(__always)
    static func sumOfSquaredSecondDifferences(_ x: UnsafePointer<Double>, from: Int, to: Int, lag m: Int) -> Double {
        var k = from
        var acc0 = SIMD4<Double>.zero, acc1 = SIMD4<Double>.zero
        let raw = UnsafeRawPointer(x)
        let stride = MemoryLayout<Double>.stride
        while k + 8 <= to {
            let a0 = raw.loadUnaligned(fromByteOffset: k * stride, as: SIMD4<Double>.self)
            let b0 = raw.loadUnaligned(fromByteOffset: (k - m) * stride, as: SIMD4<Double>.self)
            let c0 = raw.loadUnaligned(fromByteOffset: (k - 2 * m) * stride, as: SIMD4<Double>.self)
            let a1 = raw.loadUnaligned(fromByteOffset: (k + 4) * stride, as: SIMD4<Double>.self)
            let b1 = raw.loadUnaligned(fromByteOffset: (k + 4 - m) * stride, as: SIMD4<Double>.self)
            let c1 = raw.loadUnaligned(fromByteOffset: (k + 4 - 2 * m) * stride, as: SIMD4<Double>.self)
            let t0 = (a0 + c0) - 2 * b0, t1 = (a1 + c1) - 2 * b1
            acc0 = acc0.addingProductFast(t0, t0)
            acc1 = acc1.addingProductFast(t1, t1)
            k += 8
        }
        var sum = (acc0 + acc1).sum()
        while k < to {
            let t = (x[k] + x[k - 2 * m]) - 2 * x[k - m]
            sum += t * t
            k += 1
        }
        return sum
    }
}
