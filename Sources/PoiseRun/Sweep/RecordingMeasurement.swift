import Foundation
import Poise

/// One grid point measured on one recording.
public struct RecordingMeasurement: Sendable, Equatable {
    /// The recording's name.
    public var recording: String
    /// Nominal rate the steps were run at, Hz.
    public var sampleRate: Double
    /// Tilt-step latency at that rate.
    public var tilt: LatencyValue
    /// Shake-step latency at that rate.
    public var shake: LatencyValue
    /// Jitter on the still segments (g).
    public var jitter: JitterResult
    /// Lag on the moving segments; `nil` when there is no moving segment long enough.
    public var lag: LagResult?
}
