/// Puts per-sample gyro-aim outputs on a game's frame clock: frame k at T_k = t₀ + k/f
/// (t₀ = the first sample's time; computed, never accumulated) turns the camera by the **sum** of
/// the turns of the samples with T_{k−1} < t ≤ T_k (frame 0: the first sample). A frame with no
/// sample turns nothing (unlike `FrameSampler`, which holds a value: a turn must not be counted
/// twice). A frame is emitted once a later sample proves it complete, or on `finish`. A sample
/// whose time is not finite or not later than the current window's start counts in the current
/// window. An interval between samples longer than `maximumGap` emits no frames for the time in
/// between (the frame after it is the one the next sample falls in; `gapCount`, `skippedFrames`),
/// so a timestamp jump cannot make millions of empty frames.
public struct GyroAimFrames: Sendable {
    /// Frame rate, Hz.
    public let frameRate: Double
    /// Longest interval between samples filled with empty frames, s.
    public let maximumGap: Double
    var start: Double?
    var lastTime: Double?
    var frameIndex = 0
    var current = GyroAimFrame(yaw: 0, pitch: 0, counts: .zero, sampleCount: 0, flags: [])
    /// Gaps longer than `maximumGap`, and the frames not emitted for them.
    public private(set) var gapCount = 0
    public private(set) var skippedFrames = 0

    /// - Parameters:
    ///   - frameRate: Hz (> 0).
    ///   - maximumGap: s (> 0); default 1.
    /// - Throws: `OrientationSettingsError` for a bad value.
    public init(frameRate: Double, maximumGap: Double = 1) throws {
        guard frameRate > 0, frameRate.isFinite else {
            throw OrientationSettingsError(message: "frame rate must be a finite number > 0 Hz, got \(frameRate)")
        }
        guard maximumGap > 0, maximumGap.isFinite else {
            throw OrientationSettingsError(message: "maximum gap must be a finite number > 0 s, got \(maximumGap)")
        }
        self.frameRate = frameRate
        self.maximumGap = maximumGap
    }

    func frameTime(_ k: Int) -> Double { (start ?? 0) + Double(k) / frameRate }

    /// Adds the next per-sample output; `emit` receives every frame it completes, in order.
    public mutating func add(_ output: GyroAimOutput, emit: (TimedAimFrame) -> Void) {
        let t = output.time
        if t.isFinite {
            if start == nil { start = t }
            if let last = lastTime, t - last > maximumGap {
                gapCount += 1
                if current.sampleCount > 0 { close(emit) }
                let k = ((t - (start ?? t)) * frameRate).rounded(.up)
                let target = k < 1e15 ? Int(k) : frameIndex
                if target > frameIndex { skippedFrames += target - frameIndex; frameIndex = target }
            }
            if lastTime == nil || t > lastTime! { lastTime = t }
            while t > frameTime(frameIndex) { close(emit) }
        }
        current.yaw += output.yaw
        current.pitch += output.pitch
        current.sampleCount += 1
        current.flags.formUnion(output.flags)
    }

    /// Emits the frame still being filled, if it has samples (end of stream).
    public mutating func finish(emit: (TimedAimFrame) -> Void) {
        if current.sampleCount > 0 { close(emit) }
    }

    mutating func close(_ emit: (TimedAimFrame) -> Void) {
        emit(TimedAimFrame(index: frameIndex, time: frameTime(frameIndex), frame: current))
        frameIndex += 1
        current = GyroAimFrame(yaw: 0, pitch: 0, counts: .zero, sampleCount: 0, flags: [])
    }
}

/// One frame of `GyroAimFrames`.
@frozen
public struct TimedAimFrame: Sendable, Hashable {
    /// Frame index k.
    public var index: Int
    /// Frame time t₀ + k / frameRate, s.
    public var time: Double
    /// The frame's camera turn (`counts` zero), sample count and flags.
    public var frame: GyroAimFrame
}
