import Poise
import PoiseRun

/// Where the device starts to move after each still segment, found while the recording streams
/// past (the still segments are known beforehand). Movement is measured in units of two
/// thresholds: the rotation rate over ``onsetRotationRate`` and the change of the 50-ms mean
/// acceleration from the segment's last 0.5 s over ``onsetAcceleration``. After the segment's
/// end (before the next segment starts, at most 8 s later) the first clear movement (2.5 × a
/// threshold) is found, and the onset is where the run above 1 × that leads to it began (at most
/// 1.5 s before it). A still segment followed by a short quiet gap (the detector's threshold
/// crossed by noise or vibration) or a twitch has no onset. Onsets closer than 2.5 s to the
/// previous one are dropped.
///
/// Memory: rings of about 1.5 s of samples; nothing grows with the recording but the onsets.
struct MovementOnsets {
    /// Rotation rate that marks movement, rad/s (about 11 °/s).
    static let onsetRotationRate = 0.2
    /// Change of the 50-ms mean acceleration that marks movement, g.
    static let onsetAcceleration = 0.05

    /// An onset: the sample index, its time (s from the first sample) and the still segment it
    /// follows.
    struct Onset: Sendable {
        var index: Int
        var time: Double
        var after: Range<Int>
    }

    private(set) var onsets: [Onset] = []
    /// Time of the recording's first sample, s: subtracted from a record's time when the onsets
    /// are a sink.
    var origin = 0.0
    let still: [Range<Int>]
    let count: Int
    let smoothing: Int
    let referenceLength: Int
    let searchLength: Int
    let lookBack: Int
    var segment = 0
    var index = 0
    /// Running sum of the acceleration (prefix[i] = sum of samples 0..<i), and a ring of the last
    /// ones.
    var prefix = SIMD3<Double>.zero
    var prefixRing: [SIMD3<Double>]
    // The current search.
    var searching = false
    var searchStart = 0
    var searchEnd = 0
    var after = 0..<0
    var reference = SIMD3<Double>.zero
    var measures: [Double]
    var times: [Double]

    /// - Parameters:
    ///   - still: the recording's still segments, sorted.
    ///   - count: samples in the recording.
    ///   - rate: nominal rate, Hz.
    init(still: [Range<Int>], count: Int, rate: Double) {
        self.still = still
        self.count = count
        smoothing = max(1, Int((0.05 * rate).rounded()))
        referenceLength = Int(0.5 * rate)
        searchLength = Int(8 * rate)
        lookBack = Int(1.5 * rate)
        prefixRing = Array(repeating: .zero, count: max(smoothing, referenceLength) + 2)
        measures = Array(repeating: 0, count: lookBack + 2)
        times = measures
    }

    /// Adds the next sample (time in s from the first sample).
    mutating func add(time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>) {
        let i = index
        // prefix holds the sum of samples 0..<i.
        while segment < still.count, still[segment].upperBound < i { segment += 1 }
        if segment < still.count, still[segment].upperBound == i, i < count {
            let s = still[segment]
            let from = max(s.lowerBound, s.upperBound - referenceLength)
            reference = (prefix - prefixAt(from)) / Double(max(1, s.upperBound - from))
            searching = true
            searchStart = i
            searchEnd = min(count, i + searchLength, segment + 1 < still.count ? still[segment + 1].lowerBound : count)
            after = s
        }
        prefix += acceleration
        prefixRing[(i + 1) % prefixRing.count] = prefix
        index += 1
        guard searching else { return }
        if i >= searchEnd { searching = false; return }
        let from = max(0, i + 1 - smoothing)
        let d = (prefix - prefixAt(from)) / Double(max(1, i + 1 - from)) - reference
        let measure = max((d * d).sum().squareRoot() / Self.onsetAcceleration,
                          (rotationRate * rotationRate).sum().squareRoot() / Self.onsetRotationRate)
        measures[i % measures.count] = measure
        times[i % times.count] = time
        if measure >= 2.5 {
            searching = false
            let earliest = max(searchStart, i - lookBack)
            var onset = i
            while onset > earliest && measures[(onset - 1) % measures.count] > 1 { onset -= 1 }
            let onsetTime = times[onset % times.count]
            if let last = onsets.last, onsetTime - last.time < 2.5 { return }
            onsets.append(Onset(index: onset, time: onsetTime, after: after))
        } else if i + 1 >= searchEnd {
            searching = false
        }
    }

    /// prefix[j] for a j within the ring's reach.
    private func prefixAt(_ j: Int) -> SIMD3<Double> { j == 0 ? .zero : prefixRing[j % prefixRing.count] }
}

/// The onsets as a sink of the report's sweep pass (or a pass of their own): each record's input
/// sample, its time from ``origin``.
extension MovementOnsets: Sink {
    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        let sample = record.input
        add(time: sample.time - origin, acceleration: sample.acceleration, rotationRate: sample.rotationRate)
    }

    mutating func finish(_ end: RunEnd) -> MovementOnsets { self }
}
