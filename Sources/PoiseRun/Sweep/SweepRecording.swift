import Foundation
import Poise

/// A recording prepared for sweeping: its samples, nominal rate, still segments (for jitter)
/// and moving segments (for lag), computed once and shared by every grid point.
public struct SweepRecording: Sendable {
    /// A name for reports (usually the file path).
    public var name: String
    /// The samples (acceleration in g, specific force, device frame).
    public var samples: [MotionSample]
    /// Nominal sample rate, Hz: the step latencies are measured at this rate.
    public var sampleRate: Double
    /// Still segments (index ranges) where jitter is measured.
    public var stillSegments: [Range<Int>]
    /// Moving segments (the rest, in runs longer than the lag window) where lag is measured.
    public var movingSegments: [Range<Int>]
    /// Largest shift tried by the lag search, samples (1 s at the nominal rate, at most 300).
    public var maximumLagShift: Int
    let acceleration: [SIMD3<Double>]
    let times: [Double]

    /// Prepares `samples`.
    ///
    /// - Parameters:
    ///   - sampleRate: nominal rate in Hz; default 1 / median timestamp step.
    ///   - detector: finds the still segments; its gyroscope test should be off when the
    ///     recording has no gyroscope.
    /// - Throws: ``SweepError/recording(_:)`` naming the recording when it has fewer than two
    ///   distinct timestamps or no still segment long enough to measure jitter.
    public init(name: String, samples: [MotionSample], sampleRate: Double? = nil,
                detector: RestDetector = RestDetector()) throws(SweepError) {
        guard let rate = sampleRate ?? nominalSampleRate(of: samples), rate > 0, rate.isFinite else {
            throw .recording("\(name): fewer than two distinct timestamps; cannot tell the sample rate")
        }
        self.name = name
        self.samples = samples
        self.sampleRate = rate
        acceleration = samples.map(\.acceleration)
        times = samples.map(\.time)
        stillSegments = detector.stillSegments(in: samples)
        let still = jitter(output: acceleration, input: acceleration, times: times, segments: stillSegments)
        guard still.evaluatedSamples > 0 else { throw StreamingSweep.noStillSegment(name: name, detector: detector) }
        maximumLagShift = max(1, min(300, Int(saturating: rate.rounded())))
        movingSegments = Poise.movingSegments(complementing: stillSegments, count: samples.count,
                                              minimumLength: 2 * maximumLagShift)
    }
}
