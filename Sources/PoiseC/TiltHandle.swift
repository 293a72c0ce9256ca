import CPoise
import Poise

/// What a `poise_tilt` handle holds.
struct TiltHandle {
    var controller: TiltController

    typealias Box = HandleBox<TiltHandle>
    static let kind = "poise_tilt"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.tilt, kind: kind)
    }

    static func settings(_ s: poise_tilt_settings) throws(CError) -> TiltSettings {
        guard s.dynamic_recalibration == 0 || s.dynamic_recalibration == 1 else {
            throw .invalid("dynamic_recalibration must be 0 or 1, got \(s.dynamic_recalibration)")
        }
        guard s.curve_exponent.isFinite, s.curve_exponent > 0 else {
            throw .invalid("curve_exponent must be a finite number > 0, got \(s.curve_exponent)")
        }
        let curve: ResponseCurve = s.curve_exponent == 1 ? .linear : s.curve_exponent == 2 ? .quadratic : .exponent(s.curve_exponent)
        let home = HomeCalibrationSettings(dynamicRecalibration: s.dynamic_recalibration == 1, recalibrationAngle: s.recalibration_angle,
                                           stillnessRate: s.stillness_rate, stillnessAngle: s.stillness_angle, holdTime: s.hold_time)
        let settings = TiltSettings(gravityTimeConstant: s.gravity_time_constant, home: home,
                                    stick: StickResponse(deadZone: s.dead_zone, saturation: s.saturation, curve: curve))
        if let problem = settings.problem { throw .invalid(problem) }
        return settings
    }

    static func cSettings(_ t: TiltSettings) -> poise_tilt_settings {
        var s = poise_tilt_settings()
        s.gravity_time_constant = t.gravityTimeConstant
        s.dynamic_recalibration = t.home.dynamicRecalibration ? 1 : 0
        s.recalibration_angle = t.home.recalibrationAngle
        s.stillness_rate = t.home.stillnessRate
        s.stillness_angle = t.home.stillnessAngle
        s.hold_time = t.home.holdTime
        s.dead_zone = t.stick.deadZone
        s.saturation = t.stick.saturation
        switch t.stick.curve {
        case .linear: s.curve_exponent = 1
        case .quadratic: s.curve_exponent = 2
        case .exponent(let p): s.curve_exponent = p
        }
        return s
    }

    static func cOutput(_ o: TiltOutput) -> poise_tilt_output {
        var c = poise_tilt_output()
        c.time = o.time
        c.stick_x = o.stick.x
        c.stick_y = o.stick.y
        c.pitch = o.angles.pitch
        c.roll = o.angles.roll
        switch o.event {
        case nil: c.event = Int32(POISE_HOME_NONE)
        case .initial?: c.event = Int32(POISE_HOME_INITIAL)
        case .requested?: c.event = Int32(POISE_HOME_REQUESTED)
        case .dynamic?: c.event = Int32(POISE_HOME_DYNAMIC)
        }
        return c
    }
}

@_cdecl("poise_tilt_settings_default")
public func cTiltSettingsDefault(_ settings: UnsafeMutablePointer<poise_tilt_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        settings.pointee = TiltHandle.cSettings(TiltSettings())
    }
}

@_cdecl("poise_tilt_create")
public func cTiltCreate(_ settings: UnsafePointer<poise_tilt_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        let swiftSettings = try TiltHandle.settings(settings.pointee)
        let controller: TiltController
        do { controller = try TiltController(settings: swiftSettings) } catch { throw .invalid("\(error)") }
        handle = TiltHandle.Box.make(TiltHandle(controller: controller), tag: HandleTag.tilt)
    }
    return handle
}

@_cdecl("poise_tilt_destroy")
public func cTiltDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try TiltHandle.Box.destroy(handle, tag: HandleTag.tilt, kind: TiltHandle.kind) }
}

@_cdecl("poise_tilt_reset")
public func cTiltReset(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try TiltHandle.open(handle).pointee.payload.controller.reset() }
}

@_cdecl("poise_tilt_recalibrate")
public func cTiltRecalibrate(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try TiltHandle.open(handle).pointee.payload.controller.requestRecalibration() }
}

@_cdecl("poise_tilt_process_sample")
public func cTiltProcessSample(_ handle: OpaquePointer?, _ time: Double, _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?,
                               _ out: UnsafeMutablePointer<poise_tilt_output>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try TiltHandle.open(handle)
        guard let acc else { throw .null("acc") }
        let rate = gyr.map(vector) ?? SIMD3(repeating: .nan)   // a non-finite rate means "none"
        let sample = MotionSample(time: time, acceleration: vector(acc), rotationRate: rate)
        let output = box.pointee.payload.controller.process(sample)
        out?.pointee = TiltHandle.cOutput(output)
    }
}

@_cdecl("poise_tilt_process_attitude")
public func cTiltProcessAttitude(_ handle: OpaquePointer?, _ time: Double, _ attitude: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?,
                                 _ out: UnsafeMutablePointer<poise_tilt_output>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try TiltHandle.open(handle)
        guard let attitude else { throw .null("attitude") }
        let q = Quaternion(w: attitude[0], x: attitude[1], y: attitude[2], z: attitude[3])
        guard time.isFinite, q.isFinite else { throw CError(POISE_ERROR_NON_FINITE, "time or attitude is not finite") }
        guard q.lengthSquared > 0, q.lengthSquared.isFinite else { throw .invalid("attitude must have a nonzero, finite length") }
        let rate = gyr.map(vector).flatMap { $0.isFinite ? $0 : nil }
        let output = box.pointee.payload.controller.process(time: time, attitude: q.normalized, rotationRate: rate)
        out?.pointee = TiltHandle.cOutput(output)
    }
}

@_cdecl("poise_tilt_get_home")
public func cTiltGetHome(_ handle: OpaquePointer?, _ home: UnsafeMutablePointer<Double>?, _ hasHome: UnsafeMutablePointer<Int32>?,
                         _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try TiltHandle.open(handle)
        guard let home else { throw .null("home") }
        let q = box.pointee.payload.controller.home.home
        home[0] = q?.w ?? 1; home[1] = q?.x ?? 0; home[2] = q?.y ?? 0; home[3] = q?.z ?? 0
        hasHome?.pointee = q == nil ? 0 : 1
    }
}
