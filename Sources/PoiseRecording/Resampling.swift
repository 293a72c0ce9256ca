import Poise

/// Resamples a stream of samples to a fixed rate: output sample k is at t₀ + k / rate, with
/// acceleration and rotation rate linearly interpolated between the two input samples around it.
///
/// When the input is faster than the output (decimation, for example BROAD's 285.7 Hz to 100 Hz),
/// acceleration and rotation rate first pass an anti-alias low-pass: an order-8 Butterworth at
/// 0.3 × the output rate (30 Hz for 100 Hz output; −35 dB at the output's Nyquist frequency),
/// designed for the input's median rate (the filter core's `ButterworthFilter`, started in the
/// steady state of the first sample so there is no start-up transient). Magnetic field, ground truth and the movement mask
/// are held from the latest input sample at or before the output time (they are not filtered).
///
/// - Complexity: O(1) per input sample; input timestamps must not decrease (equal ones are fine).
public struct ResampledSamples<Base: Sequence>: Sequence where Base.Element == MotionSample {
    /// The input.
    public var base: Base
    /// Output rate, Hz.
    public var rate: Double
    /// Anti-alias cutoff in Hz, or `nil` when the input is not faster than the output.
    public var antiAliasCutoff: Double?
    /// Median rate of the input, Hz (the anti-alias filter's design rate).
    public var inputRate: Double
    /// Input intervals longer than this, seconds, are gaps: output resumes at the first input
    /// sample after the gap (its own time, on a clock re-anchored there) instead of interpolating
    /// across it. `nil`: every interval is interpolated.
    public var gapLimit: Double?

    /// Order of the anti-alias Butterworth filter.
    public static var antiAliasOrder: Int { 8 }
    /// Anti-alias cutoff as a fraction of the output rate.
    public static var antiAliasFraction: Double { 0.3 }

    /// - Parameters:
    ///   - rate: output rate, Hz (> 0).
    ///   - inputRate: the input's median rate, Hz. The anti-alias filter is used when it exceeds
    ///     the output rate by more than 1 %.
    public init(_ base: Base, rate: Double, inputRate: Double, gapLimit: Double? = nil) {
        self.base = base
        self.rate = rate
        self.inputRate = inputRate
        self.gapLimit = gapLimit
        antiAliasCutoff = Self.antiAliasCutoff(rate: rate, inputRate: inputRate)
    }

    /// The anti-alias cutoff for output `rate` and input `inputRate` (Hz): `antiAliasFraction ×
    /// rate` when the input is more than 1 % faster, else `nil`.
    public static func antiAliasCutoff(rate: Double, inputRate: Double) -> Double? {
        inputRate > rate * 1.01 ? rate * antiAliasFraction : nil
    }

    public struct Iterator: IteratorProtocol {
        var base: Base.Iterator
        let rate: Double
        var gapLimit: Double? = nil
        var filter: ButterworthFilter<SIMD8<Double>>?
        var previous: (MotionSample, SIMD8<Double>)?
        var current: (MotionSample, SIMD8<Double>)?
        var t0: Double?
        var index = 0
        var finished = false

        mutating func pull() -> Bool {
            guard let sample = base.next() else { return false }
            var packed = SIMD8<Double>.zero
            packed[0] = sample.acceleration.x; packed[1] = sample.acceleration.y; packed[2] = sample.acceleration.z
            packed[3] = sample.rotationRate.x; packed[4] = sample.rotationRate.y; packed[5] = sample.rotationRate.z
            if filter != nil { packed = filter!.process(packed) }
            previous = current
            current = (sample, packed)
            return true
        }

        public mutating func next() -> MotionSample? {
            guard !finished else { return nil }
            if current == nil {
                guard pull() else { finished = true; return nil }
                t0 = current!.0.time
            }
            var t = t0! + Double(index) / rate
            // Advance until the current input sample is at or after t.
            while current!.0.time < t {
                guard pull() else { finished = true; return nil }
                if let limit = gapLimit, let before = previous?.0.time, current!.0.time - before > limit {
                    // A gap: re-anchor the output clock on the sample after it.
                    t = current!.0.time
                    t0 = t - Double(index) / rate
                    break
                }
            }
            index += 1
            let (after, afterValue) = current!
            guard let (before, beforeValue) = previous, after.time > before.time, t < after.time else {
                var sample = after
                sample.time = t
                sample.acceleration = SIMD3(afterValue[0], afterValue[1], afterValue[2])
                sample.rotationRate = SIMD3(afterValue[3], afterValue[4], afterValue[5])
                return sample
            }
            let fraction = (t - before.time) / (after.time - before.time)
            let value = beforeValue + fraction * (afterValue - beforeValue)
            var sample = before
            sample.time = t
            sample.acceleration = SIMD3(value[0], value[1], value[2])
            sample.rotationRate = SIMD3(value[3], value[4], value[5])
            return sample
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(base: base.makeIterator(), rate: rate, gapLimit: gapLimit,
                 filter: antiAliasCutoff.flatMap { cutoff in
                     // The cutoff is below the output's Nyquist frequency, itself below the input's,
                     // so the design cannot fail; without it the samples pass unfiltered.
                     try? ButterworthFilter<SIMD8<Double>>(band: .lowPass(cutoff: cutoff), order: Self.antiAliasOrder,
                                                           sampleRate: inputRate, start: .firstInput)
                 })
    }
}
