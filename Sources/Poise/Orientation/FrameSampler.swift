/// Settings of `FrameSampler`.
public struct FrameSamplerSettings: Sendable, Hashable, Codable {
    /// Frame rate, Hz (e.g. 30 or 60). Must be > 0.
    public var frameRate: Double
    /// Time constant of the one-pole smoothing applied once per frame, seconds; the per-frame
    /// gain is 1 − exp(−(1/frameRate)/τ), so the smoothing is the same at any sensor rate.
    /// 0 disables smoothing. Default 0.
    public var smoothingTimeConstant: Double
    /// Intervals between samples longer than this, seconds, are gaps: no frames are emitted for
    /// them (the frame before the gap closes with its samples, the next frame is the one the
    /// sample after the gap falls in). `nil` (default): frames are emitted through gaps, holding
    /// the last value.
    public var maximumGap: Double?

    public init(frameRate: Double, smoothingTimeConstant: Double = 0, maximumGap: Double? = nil) {
        self.frameRate = frameRate; self.smoothingTimeConstant = smoothingTimeConstant
        self.maximumGap = maximumGap
    }

    /// Checks the ranges; returns a message naming the first bad field, or nil.
    public var problem: String? {
        if !(frameRate > 0 && frameRate.isFinite) { return "frame rate must be a finite number > 0 Hz, got \(frameRate)" }
        if !(smoothingTimeConstant >= 0 && smoothingTimeConstant.isFinite) { return "smoothing time constant must be ≥ 0 s, got \(smoothingTimeConstant)" }
        if let maximumGap, !(maximumGap > 0) { return "maximum gap must be > 0 s, got \(maximumGap)" }
        return nil
    }
}

/// One frame of `FrameSampler`.
@frozen
public struct Frame<Value: SignalValue>: Sendable {
    /// Frame index k (0 = the first sample's time).
    public var index: Int
    /// Frame time t₀ + k / frameRate, seconds.
    public var time: Double
    /// The smoothed value at this frame.
    public var value: Value
    /// Number of sensor samples that fell in this frame's window (0: the previous window's
    /// mean was held).
    public var sampleCount: Int
}

/// Resamples a sensor stream of any (even irregular) rate onto a game's frame clock.
///
/// Frame k is at `T_k = t₀ + k/f` (t₀ = the first sample's time). Its raw value is the mean of
/// the samples with `T_{k−1} < t ≤ T_k` (frame 0: the first sample), or the previous frame's raw
/// value when none arrived (zero-order hold). The smoothing runs at frame time:
/// `y_k = y_{k−1} + α (m_k − y_{k−1})`, `α = 1 − exp(−(1/f)/τ)`, `y_0 = m_0`. A frame is
/// emitted once a sample after it arrives (the stream proves the window complete) or on
/// `finish`. Frame times are computed as t₀ + k/f, never accumulated, so they do not drift.
/// Nothing allocates per sample.
public struct FrameSampler<Value: SignalValue>: Sendable where Value.Scalar == Double {
    /// The settings (validated at init).
    public let settings: FrameSamplerSettings
    @usableFromInline let gain: Double
    @usableFromInline var start: Double?
    @usableFromInline var frameIndex = 0        // the frame whose window is being filled
    @usableFromInline var sum = Value.zero
    @usableFromInline var count = 0
    @usableFromInline var held = Value.zero     // last raw (mean) value
    @usableFromInline var smoothed: Value?
    /// Samples not used because their time or value was not finite.
    public private(set) var rejectedSamples = 0
    /// Gaps longer than `settings.maximumGap`, and the frames not emitted for them.
    public private(set) var gapCount = 0
    public private(set) var skippedFrames = 0
    @usableFromInline var lastTime: Double?

    /// - Throws: `OrientationSettingsError` naming the bad setting.
    public init(settings: FrameSamplerSettings) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        let period = 1 / settings.frameRate
        gain = settings.smoothingTimeConstant > 0 ? 1 - Double.exp(-period / settings.smoothingTimeConstant) : 1
    }

    @inlinable func frameTime(_ k: Int) -> Double { (start ?? 0) + Double(k) / settings.frameRate }

    /// Feeds one sample (time in seconds, non-decreasing; a sample earlier than the current
    /// window counts in the current window) and calls `emit` for every frame it completes.
    /// A sample with a non-finite time or value is not used and is counted in `rejectedSamples`.
    public mutating func process(time: Double, value: Value, emit: (Frame<Value>) -> Void) {
        guard time.isFinite, value.isFinite else { rejectedSamples += 1; return }
        if start == nil { start = time }
        if let limit = settings.maximumGap, let last = lastTime, time - last > limit { skipGap(to: time, emit) }
        lastTime = time
        while time > frameTime(frameIndex) {
            closeFrame(emit)
        }
        sum = sum + value
        count += 1
    }

    /// Emits the frame still being filled, if it has samples (end of stream).
    public mutating func finish(emit: (Frame<Value>) -> Void) {
        if start != nil && count > 0 { closeFrame(emit) }
    }

    /// Closes the frame holding the samples before a gap and moves to the frame whose window
    /// holds `time`, emitting nothing in between.
    @usableFromInline
    mutating func skipGap(to time: Double, _ emit: (Frame<Value>) -> Void) {
        gapCount += 1
        if count > 0 { closeFrame(emit) }
        // First k with T_k ≥ time (bounded, so an absurd time cannot overflow the index).
        let k = ((time - (start ?? time)) * settings.frameRate).rounded(.up)
        let target = k < 1e15 ? Int(k) : frameIndex
        if target > frameIndex {
            skippedFrames += target - frameIndex
            frameIndex = target
        }
    }

    @usableFromInline
    mutating func closeFrame(_ emit: (Frame<Value>) -> Void) {
        if count > 0 { held = (1 / Double(count)) * sum }
        let y: Value
        if let previous = smoothed { y = previous + gain * (held - previous) } else { y = held }
        smoothed = y
        emit(Frame(index: frameIndex, time: frameTime(frameIndex), value: y, sampleCount: count))
        frameIndex += 1
        sum = .zero
        count = 0
    }
}
