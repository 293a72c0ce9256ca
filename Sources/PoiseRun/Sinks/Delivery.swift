import Poise

/// When one sample was delivered. Times in ns on the engine clock's time line.
public struct SampleDelivery: Sendable, Equatable {
    /// 0-based sample index.
    public var index: Int
    /// Scheduled delivery time s_i, ns (equal to `delivered` for `--speed max`).
    public var scheduled: Int64
    /// Actual delivery time a_i, ns (when the sample was handed to the pipeline).
    public var delivered: Int64
    /// Pipeline processing time, ns.
    public var cost: Int64
    /// Lateness e_i = a_i − s_i, ns.
    public var lateness: Int64 { delivered - scheduled }

    public init(index: Int, scheduled: Int64, delivered: Int64, cost: Int64) {
        self.index = index; self.scheduled = scheduled; self.delivered = delivered; self.cost = cost
    }
}

/// One game-loop frame: the latest state when the frame ran.
public struct FrameDelivery: Sendable, Equatable {
    /// 1-based frame number.
    public var index: Int
    /// Recording time the frame represents, s (t₀ + index / frameRate).
    public var time: Double
    /// Scheduled and actual wall time, ns.
    public var scheduled: Int64
    public var delivered: Int64
    /// Samples that arrived since the previous frame (0 when the frame rate exceeds the sample
    /// rate; more than 1 when samples stack up).
    public var stackedSamples: Int
    /// The latest record of the sensor-callback pipeline (smoothing on every sample), `nil`
    /// before the first sample.
    public var latest: ProcessedSample?
    /// The frame-time pipeline's output: the latest raw sample run once per frame through the
    /// frame pipeline (smoothing at frame time), `nil` without a frame pipeline or sample.
    public var frameSmoothed: ProcessedSample?

    public init(index: Int, time: Double, scheduled: Int64, delivered: Int64, stackedSamples: Int,
                latest: ProcessedSample?, frameSmoothed: ProcessedSample?) {
        self.index = index; self.time = time; self.scheduled = scheduled; self.delivered = delivered
        self.stackedSamples = stackedSamples; self.latest = latest; self.frameSmoothed = frameSmoothed
    }
}
