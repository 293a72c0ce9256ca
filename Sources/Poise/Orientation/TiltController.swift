/// Settings of `TiltController`.
public struct TiltSettings: Sendable, Hashable, Codable {
    /// Time constant of the one-pole low-pass that estimates gravity from the accelerometer
    /// when no attitude is given, seconds (per-sample gain 1 − exp(−dt/τ), real dt).
    /// 0 uses the raw accelerometer. Default 0.1.
    public var gravityTimeConstant: Double
    /// Home calibration. Default: first sample is home, no dynamic recalibration.
    public var home: HomeCalibrationSettings
    /// Angle → axis response, shared by both axes.
    public var stick: StickResponse

    public init(gravityTimeConstant: Double = 0.1, home: HomeCalibrationSettings = HomeCalibrationSettings(),
                stick: StickResponse = StickResponse()) {
        self.gravityTimeConstant = gravityTimeConstant; self.home = home; self.stick = stick
    }

    /// Checks the ranges; returns a message naming the first bad field, or nil.
    public var problem: String? {
        if !(gravityTimeConstant >= 0 && gravityTimeConstant.isFinite) { return "gravity time constant must be ≥ 0 s, got \(gravityTimeConstant)" }
        return home.problem ?? stick.problem
    }
}

/// One output of `TiltController`.
@frozen
public struct TiltOutput: Sendable, Hashable {
    /// Sample time, seconds.
    public var time: Double
    /// Stick axes in [−1, 1]: x from roll (positive: right edge dipped away), y from −pitch
    /// (positive: top edge dipped away, like pushing a thumbstick forward).
    public var stick: SIMD2<Double>
    /// Tilt from home, radians (`TiltAngles` of the relative attitude).
    public var angles: TiltAngles
    /// Set when home changed at this sample.
    public var event: HomeEvent?

    public init(time: Double, stick: SIMD2<Double>, angles: TiltAngles, event: HomeEvent?) {
        self.time = time; self.stick = stick; self.angles = angles; self.event = event
    }
}

/// Motion → game controller axes: attitude (or gravity) → relative to home → roll/pitch →
/// stick values with dead zone, saturation and curve.
///
/// Feed samples in the frame the player sees (remap to screen axes first with `FrameRemap`).
/// With an attitude (`process(time:attitude:rotationRate:)`) the relative attitude is
/// `home⁻¹ ⊗ q`. Without one (`process(_:)` on raw samples) gravity is the low-passed
/// accelerometer, turned into the heading-free attitude `Quaternion.tilt(fromGravity:)`. Gravity
/// fixes the tilt only up to a turn about the vertical, so the two paths agree exactly for tilts
/// about one device axis from a flat home, and approximately otherwise; use an attitude from a
/// fusion filter when one is available. Linear acceleration (shaking) leaks into the gravity
/// path; the low-pass time constant trades that against lag. Nothing allocates per sample.
public struct TiltController: Sendable {
    /// The settings (validated at init).
    public let settings: TiltSettings
    /// Home calibration state (request recalibration through `requestRecalibration()`).
    public private(set) var home: HomeCalibration
    /// The current gravity estimate, g, device axes (nil before the first raw sample).
    public private(set) var gravity: SIMD3<Double>?
    @usableFromInline var lastTime = 0.0
    /// Raw samples whose acceleration or time was not finite (they left the gravity estimate unchanged).
    public private(set) var rejectedSamples = 0
    // The low-pass gain of the last time step, reused while the step repeats (regular rates).
    @usableFromInline var lastStep = -1.0
    @usableFromInline var lastGain = 0.0

    /// - Throws: `OrientationSettingsError` naming the bad setting.
    public init(settings: TiltSettings = TiltSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        self.home = try HomeCalibration(settings: settings.home)
    }

    /// Makes the next sample home.
    public mutating func requestRecalibration() { home.requestRecalibration() }

    /// Forgets home and gravity, as a fresh controller.
    public mutating func reset() { home.reset(); gravity = nil; lastTime = 0; lastStep = -1; lastGain = 0; rejectedSamples = 0 }

    /// Processes a raw sample: gravity from the low-passed accelerometer; the sample's rotation
    /// rate serves the stillness test of dynamic recalibration.
    ///
    /// A sample with a non-finite acceleration or time leaves the gravity estimate unchanged
    /// (so one bad value cannot poison the filter) and is counted in `rejectedSamples`.
    public mutating func process(_ sample: MotionSample) -> TiltOutput {
        let valid = sample.acceleration.isFinite && sample.time.isFinite
        if !valid { rejectedSamples += 1 }
        let g: SIMD3<Double>
        if let previous = gravity, !valid || settings.gravityTimeConstant > 0 {
            if valid {
                let dt = Swift.max(0, sample.time - lastTime)  // repeated or backwards time: no update
                if dt != lastStep { lastStep = dt; lastGain = 1 - Double.exp(-dt / settings.gravityTimeConstant) }
                g = previous + lastGain * (sample.acceleration - previous)
            } else {
                g = previous
            }
        } else if valid {
            g = sample.acceleration
        } else {
            // Nothing known yet: centred stick, no home.
            return TiltOutput(time: sample.time, stick: .zero, angles: TiltAngles(pitch: 0, roll: 0), event: nil)
        }
        gravity = g
        if valid { lastTime = sample.time }
        let rate: SIMD3<Double>? = sample.rotationRate.isFinite ? sample.rotationRate : nil
        return process(time: valid ? sample.time : lastTime, attitude: .tilt(fromGravity: g), rotationRate: rate)
    }

    /// Processes an attitude (device → earth) from a fusion filter.
    ///
    /// - Parameters:
    ///   - time: sample time, seconds (non-decreasing).
    ///   - attitude: device → earth (any earth frame with z up; normalised by the home calibration).
    ///   - rotationRate: rad/s for the stillness test, or nil.
    public mutating func process(time: Double, attitude: Quaternion<Double>, rotationRate: SIMD3<Double>?) -> TiltOutput {
        let (relative, event) = home.process(attitude: attitude, rotationRate: rotationRate, time: time)
        let angles = TiltAngles(unit: relative)  // a product of unit quaternions
        return TiltOutput(time: time, stick: Self.stick(angles, settings.stick), angles: angles, event: event)
    }

    /// Batch form: equals calling `process(_:)` on each sample in order.
    public mutating func process(_ samples: [MotionSample]) -> [TiltOutput] {
        var out: [TiltOutput] = []
        out.reserveCapacity(samples.count)
        for s in samples { out.append(process(s)) }
        return out
    }
}

/// One game frame of tilt output (see `TiltController.frames`).
@frozen
public struct TiltFrame: Sendable, Hashable {
    /// Frame index k.
    public var index: Int
    /// Frame time t₀ + k/frameRate, seconds.
    public var time: Double
    /// Stick axes in [−1, 1] of the smoothed angles.
    public var stick: SIMD2<Double>
    /// Smoothed tilt from home, radians.
    public var angles: TiltAngles
    /// Sensor samples in this frame's window (0: held from the previous frame).
    public var sampleCount: Int
    /// The last home change among this frame's samples, if any.
    public var event: HomeEvent?
}

extension TiltController {
    /// Resamples per-sample outputs onto a frame clock with `FrameSampler` (window mean, hold,
    /// one-pole smoothing at frame time). The tilt *angles* are resampled and smoothed, and the
    /// stick response is applied to the smoothed angles, so the dead zone still gives exactly 0
    /// and saturation exactly ±1 at frame rate. (Angles are averaged as numbers: fine within
    /// ±180°, which is where a stick mapping lives.) The last frame is the one holding the
    /// final samples.
    ///
    /// - Throws: `OrientationSettingsError` for bad frame settings.
    public func frames(_ outputs: [TiltOutput], settings frameSettings: FrameSamplerSettings) throws -> [TiltFrame] {
        var resampler = try TiltFrames(settings: frameSettings, stick: settings.stick)
        var frames: [TiltFrame] = []
        for o in outputs { resampler.add(o) { frames.append($0) } }
        resampler.finish { frames.append($0) }
        return frames
    }

    /// Stick axes (−1…1) of tilt angles (radians): x = response(roll), y = response(−pitch), the
    /// response applied in degrees.
    @inlinable
    static func stick(_ angles: TiltAngles, _ response: StickResponse) -> SIMD2<Double> {
        let degrees = 1 / Units.radiansPerDegree
        return SIMD2(response.value(degrees: angles.roll * degrees), response.value(degrees: -angles.pitch * degrees))
    }
}
