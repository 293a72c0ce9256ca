import Poise

/// The delivery rate asked for.
public enum ReplayRate: Sendable, Equatable {
    /// The recording's own timestamps.
    case native
    /// A fixed rate in Hz: resampled (with anti-alias filtering when decimating) when the recording
    /// has timestamps, or the rate the samples were taken at when it has none.
    case fixed(Double)
}

/// A recording that cannot be replayed as asked, with what to do instead.
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How a recording will be delivered: rate, resampling, and the checks that make a replay possible.
public struct ReplayPlan: Sendable, Equatable {
    /// Highest delivery rate allowed in real time, Hz (the project's target: up to 100 Hz).
    public static let maximumRealTimeRate = 100.0

    /// Rate of the delivered stream in recording time, Hz (the median rate for native timing).
    public var sampleRate: Double
    /// The recording's own median rate, Hz (`nil` without timestamps).
    public var recordedRate: Double?
    /// True when samples are resampled to `sampleRate`.
    public var resampled: Bool
    /// Anti-alias cutoff in Hz when decimating, else `nil`.
    public var antiAliasCutoff: Double?
    /// True when the recording had no timestamps and was given `sampleRate` by the caller.
    public var timestampsAssigned: Bool

    /// Decides how to deliver `samples`.
    ///
    /// - Parameters:
    ///   - hasTimestamps: whether the recording has a time column.
    ///   - rate: `.native` or `.fixed(Hz)`.
    ///   - speed: real time (the 100 Hz limit applies to rate × speed) or maximum.
    /// - Throws: `ReplayError` when there are no samples, no timestamps and no rate, a rate that is
    ///   not positive, or a real-time delivery rate above 100 Hz.
    public init(samples: [MotionSample], hasTimestamps: Bool, rate: ReplayRate, speed: ReplaySpeed) throws {
        guard !samples.isEmpty else { throw ReplayError("the recording has no samples") }
        var factor = 1.0
        if case .realTime(let f) = speed {
            guard f > 0, f.isFinite else { throw ReplayError("speed \(f) must be a positive number (or 'max')") }
            factor = f
        }
        let realTime = speed != .maximum
        timestampsAssigned = false
        switch rate {
        case .fixed(let hz):
            guard hz > 0, hz.isFinite else { throw ReplayError("rate \(hz) Hz must be a positive number (or 'native')") }
            if realTime, hz * factor > Self.maximumRealTimeRate * 1.0001 {
                throw ReplayError("delivery rate \(Self.format(hz * factor)) Hz (rate \(Self.format(hz)) Hz × speed \(Self.format(factor))) is above the real-time limit of 100 Hz; lower --rate or --speed, or use --speed max")
            }
            sampleRate = hz
            if hasTimestamps {
                recordedRate = nominalSampleRate(of: samples)
                resampled = true
                let input = recordedRate ?? hz
                antiAliasCutoff = ResampledSamples(samples, rate: hz, inputRate: input).antiAliasCutoff
            } else {
                recordedRate = nil
                resampled = false
                antiAliasCutoff = nil
                timestampsAssigned = true
            }
        case .native:
            guard hasTimestamps else {
                throw ReplayError("the recording has no time column, so it cannot be replayed at its own rate: give the rate it was recorded at with --rate HZ")
            }
            guard let recorded = nominalSampleRate(of: samples) else {
                if samples.count == 1 {
                    sampleRate = Self.maximumRealTimeRate
                    recordedRate = nil; resampled = false; antiAliasCutoff = nil
                    return
                }
                throw ReplayError("the recording's timestamps never increase, so it has no rate: give one with --rate HZ")
            }
            if realTime, recorded * factor > Self.maximumRealTimeRate * 1.01 {
                throw ReplayError("the recording runs at \(Self.format(recorded)) Hz\(factor == 1 ? "" : " × speed \(Self.format(factor))"), above the real-time limit of 100 Hz: use --rate 100 (resamples with an anti-alias filter) or --speed max")
            }
            sampleRate = recorded
            recordedRate = recorded
            resampled = false
            antiAliasCutoff = nil
        }
    }

    /// The samples to deliver: resampled, re-timed (no timestamps), or as recorded.
    public func deliveredSamples(_ samples: [MotionSample]) -> AnySequence<MotionSample> {
        if resampled {
            return AnySequence(ResampledSamples(samples, rate: sampleRate, inputRate: recordedRate ?? sampleRate))
        }
        if timestampsAssigned {
            let rate = sampleRate
            return AnySequence(samples.lazy.enumerated().map { index, sample in
                var copy = sample
                copy.time = Double(index) / rate
                return copy
            })
        }
        return AnySequence(samples)
    }

    /// Number of samples `deliveredSamples` yields (for progress and statistics room).
    public func deliveredCount(_ samples: [MotionSample]) -> Int {
        guard resampled, let first = samples.first?.time, let last = samples.last?.time, last >= first else {
            return samples.count
        }
        return Int(((last - first) * sampleRate).rounded(.down)) + 1
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
