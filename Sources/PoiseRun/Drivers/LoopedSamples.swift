import Poise

/// A sequence of samples played `passes` times in a row, for long tests from a short recording:
/// each pass is shifted in time so the time line keeps going — pass k starts one period after the
/// last sample of pass k − 1 (shift k × (last − first + period), measured on the first pass) — so
/// there is no gap and no time step backwards at the seams. The base sequence is iterated afresh
/// for every pass (a `RecordingSamples` opens its file again, in constant memory).
public struct LoopedSamples<Base: Sequence>: Sequence where Base.Element == MotionSample {
    public let base: Base
    /// Number of passes (≥ 1).
    public let passes: Int
    /// The step between the last sample of a pass and the first of the next, s.
    public let period: Double

    public init(_ base: Base, passes: Int, period: Double) {
        self.base = base; self.passes = Swift.max(1, passes); self.period = period
    }

    public struct Iterator: IteratorProtocol {
        let looped: LoopedSamples
        var current: Base.Iterator
        var pass = 0
        var first: Double?
        var last = 0.0
        var shift = 0.0

        public mutating func next() -> MotionSample? {
            while true {
                if var sample = current.next() {
                    if pass == 0 {
                        first = first ?? sample.time
                        last = sample.time
                    }
                    sample.time += shift
                    return sample
                }
                pass += 1
                guard pass < looped.passes, let first else { return nil }
                shift = Double(pass) * (last - first + looped.period)
                current = looped.base.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(looped: self, current: base.makeIterator()) }
}
