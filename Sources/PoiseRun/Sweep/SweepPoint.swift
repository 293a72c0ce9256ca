import Foundation
import Poise

/// One grid point measured on all recordings.
///
/// Across recordings: latencies are the worst (largest) over the recordings' rates; jitter is
/// pooled (the RMS over all evaluated still samples of all recordings); attenuation is pooled
/// raw jitter over pooled jitter; lag is the mean over recordings weighted by moving samples.
public struct SweepPoint: Sendable, Equatable {
    /// The setting measured.
    public var setting: SweepSetting
    /// Tilt step (0,0,1 g → 0,1 g,0) latency to 90 %.
    public var tilt: LatencyValue
    /// Shake step (0,0,1 g → 0,0,1.5 g) latency to 90 %.
    public var shake: LatencyValue
    /// The worse of tilt and shake: the latency used for the Pareto front and the targets.
    public var latency: LatencyValue
    /// Pooled jitter on still segments, g.
    public var jitter: Double
    /// Pooled raw-input jitter on the same samples, g.
    public var rawJitter: Double
    /// `rawJitter / jitter` (> 1 is smoother); `nil` when the output is constant.
    public var attenuation: Double?
    /// Lag on moving segments, milliseconds; `nil` when no recording has a long enough moving segment.
    public var lagMilliseconds: Double?
    /// The measurements per recording, in the order the recordings were given.
    public var recordings: [RecordingMeasurement]

    /// The point's place in the trade-off with latency in milliseconds.
    public var tradeoffMilliseconds: Tradeoff { Tradeoff(latency: latency.milliseconds, jitter: jitter) }
    /// The point's place in the trade-off with latency in samples.
    public var tradeoffSamples: Tradeoff { Tradeoff(latency: latency.samples.map(Double.init), jitter: jitter) }
}
