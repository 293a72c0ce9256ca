/// Tilt outputs resampled onto a game frame clock one output at a time (`FrameSampler`: window
/// mean, hold, one-pole smoothing at frame time). The tilt *angles* are resampled and smoothed,
/// and the stick response is applied to the smoothed angles, so the dead zone still gives
/// exactly 0 and saturation exactly ±1 at frame rate. A frame carries the last home change
/// among its samples. ``TiltController/frames(_:settings:)`` runs it over an array.
public struct TiltFrames: Sendable {
    var sampler: FrameSampler<SIMD2<Double>>
    let stickResponse: StickResponse
    var pending: HomeEvent?

    /// - Throws: `OrientationSettingsError` for bad frame settings.
    public init(settings: FrameSamplerSettings, stick: StickResponse) throws {
        sampler = try FrameSampler(settings: settings)
        stickResponse = stick
    }

    /// Adds the next per-sample output; `emit` receives every frame it completes, in order.
    public mutating func add(_ output: TiltOutput, emit: (TiltFrame) -> Void) {
        var sampler = self.sampler
        sampler.process(time: output.time, value: SIMD2(output.angles.roll, output.angles.pitch)) { emitFrame($0, emit) }
        self.sampler = sampler
        if let e = output.event { pending = e }
    }

    /// Emits the last frames (the one holding the final samples last).
    public mutating func finish(emit: (TiltFrame) -> Void) {
        var sampler = self.sampler
        sampler.finish { emitFrame($0, emit) }
        self.sampler = sampler
    }

    mutating func emitFrame(_ f: Frame<SIMD2<Double>>, _ emit: (TiltFrame) -> Void) {
        let angles = TiltAngles(pitch: f.value.y, roll: f.value.x)
        emit(TiltFrame(index: f.index, time: f.time, stick: TiltController.stick(angles, stickResponse),
                       angles: angles, sampleCount: f.sampleCount, event: f.sampleCount > 0 ? pending : nil))
        if f.sampleCount > 0 { pending = nil }
    }
}
