import Poise
import PoiseRecording

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

    /// Rate of the delivered stream in recording time, Hz (the recording's rate for native timing).
    public var sampleRate: Double
    /// The recording's own rate (`nominalSampleRate`), Hz (`nil` without timestamps).
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
        try self.init(recordedRate: hasTimestamps ? nominalSampleRate(of: samples) : nil, sampleCount: samples.count,
                      hasTimestamps: hasTimestamps, rate: rate, speed: speed)
    }

    /// Decides how to deliver a recording known by its rate and sample count (a streamed
    /// replay measures the rate on a prefix, see `RecordingScan`).
    ///
    /// - Parameters:
    ///   - recordedRate: the recording's rate (`nominalSampleRate`), Hz; `nil` when its
    ///     timestamps never increase or it has none.
    ///   - sampleCount: samples in the recording.
    ///   - hasTimestamps, rate, speed: as for `init(samples:hasTimestamps:rate:speed:)`.
    /// - Throws: `ReplayError`, as that initialiser.
    public init(recordedRate nominal: Double?, sampleCount: Int, hasTimestamps: Bool, rate: ReplayRate,
                speed: ReplaySpeed) throws {
        guard sampleCount > 0 else { throw ReplayError("the recording has no samples") }
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
                recordedRate = nominal
                resampled = true
                antiAliasCutoff = ResampledSamples<[MotionSample]>.antiAliasCutoff(rate: hz, inputRate: nominal ?? hz)
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
            guard let recorded = nominal else {
                if sampleCount == 1 {
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

    /// The samples to deliver: resampled, re-timed (no timestamps), or as recorded. Lazy: nothing
    /// is copied, so a streamed recording stays streamed. `gapLimit` (s): resampling does not
    /// fill input gaps longer than this (`ResampledSamples.gapLimit`).
    public func deliveredSamples<Samples: Sequence>(_ samples: Samples, gapLimit: Double? = nil) -> AnySequence<MotionSample>
    where Samples.Element == MotionSample {
        if resampled {
            return AnySequence(ResampledSamples(samples, rate: sampleRate, inputRate: recordedRate ?? sampleRate,
                                                gapLimit: gapLimit))
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
        deliveredCount(sampleCount: samples.count, firstTime: samples.first?.time, lastTime: samples.last?.time)
    }

    /// Number of samples `deliveredSamples` yields for a recording of `sampleCount` samples from
    /// `firstTime` to `lastTime` (s).
    public func deliveredCount(sampleCount: Int, firstTime: Double?, lastTime: Double?) -> Int {
        guard resampled, let first = firstTime, let last = lastTime, last >= first else {
            return sampleCount
        }
        let span = ((last - first) * sampleRate).rounded(.down)
        // A span too long to count (absurd timestamps) gives no estimate rather than a trap.
        return span.isFinite && span < Double(Int.max / 2) ? Int(span) + 1 : sampleCount
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() && rounded.magnitude < 1e15 ? String(Int(rounded)) : String(rounded)
    }
}
