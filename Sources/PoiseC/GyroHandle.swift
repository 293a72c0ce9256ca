import CPoise
import Poise

/// What a `poise_gyro` handle holds.
struct GyroHandle {
    var aim: GyroAim

    typealias Box = HandleBox<GyroHandle>
    static let kind = "poise_gyro"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.gyro, kind: kind)
    }

    static func flag(_ value: Int32, _ name: String) throws(CError) -> Bool {
        guard value == 0 || value == 1 else { throw .invalid("\(name) must be 0 or 1, got \(value)") }
        return value == 1
    }

    static func settings(_ s: poise_gyro_settings) throws(CError) -> GyroAimSettings {
        var g = GyroAimSettings()
        switch s.space {
        case Int32(POISE_GYRO_LOCAL): g.space = .local
        case Int32(POISE_GYRO_PLAYER): g.space = .player
        case Int32(POISE_GYRO_WORLD): g.space = .world
        default: throw .invalid("space must be POISE_GYRO_LOCAL, POISE_GYRO_PLAYER or POISE_GYRO_WORLD, got \(s.space)")
        }
        switch s.hold {
        case Int32(POISE_GYRO_HOLD_FLAT): g.hold = .flat
        case Int32(POISE_GYRO_HOLD_UPRIGHT): g.hold = .upright
        default: throw .invalid("hold must be POISE_GYRO_HOLD_FLAT or POISE_GYRO_HOLD_UPRIGHT, got \(s.hold)")
        }
        g.sensitivity = GyroSensitivity(low: s.sensitivity, high: s.high_sensitivity, lowSpeed: s.low_speed, highSpeed: s.high_speed)
        g.pitchRatio = s.pitch_ratio
        g.invertPitch = try flag(s.invert_pitch, "invert_pitch")
        g.smoothingThreshold = s.smoothing_threshold
        g.smoothingTimeConstant = s.smoothing_time_constant
        g.calibration.continuous = try flag(s.continuous_calibration, "continuous_calibration")
        try requireInRange(s.sample_rate, .sampleRate, "sample_rate")
        g.sampleRate = s.sample_rate
        g.maximumTimeStep = s.maximum_time_step
        g.gyroscopeRange = s.gyroscope_range
        g.maximumSpeed = s.maximum_speed
        g.countsPerDegree = s.counts_per_degree
        if let problem = g.problem { throw .invalid(problem) }
        return g
    }

    static func cSettings(_ g: GyroAimSettings) -> poise_gyro_settings {
        var s = poise_gyro_settings()
        s.space = switch g.space { case .local: Int32(POISE_GYRO_LOCAL); case .player: Int32(POISE_GYRO_PLAYER); case .world: Int32(POISE_GYRO_WORLD) }
        s.hold = g.hold == .flat ? Int32(POISE_GYRO_HOLD_FLAT) : Int32(POISE_GYRO_HOLD_UPRIGHT)
        s.sensitivity = g.sensitivity.low
        s.high_sensitivity = g.sensitivity.high
        s.low_speed = g.sensitivity.lowSpeed
        s.high_speed = g.sensitivity.highSpeed
        s.pitch_ratio = g.pitchRatio
        s.invert_pitch = g.invertPitch ? 1 : 0
        s.smoothing_threshold = g.smoothingThreshold
        s.smoothing_time_constant = g.smoothingTimeConstant
        s.continuous_calibration = g.calibration.continuous ? 1 : 0
        s.sample_rate = g.sampleRate
        s.maximum_time_step = g.maximumTimeStep
        s.gyroscope_range = g.gyroscopeRange
        s.maximum_speed = g.maximumSpeed
        s.counts_per_degree = g.countsPerDegree
        return s
    }
}

@_cdecl("poise_gyro_settings_default")
public func cGyroSettingsDefault(_ settings: UnsafeMutablePointer<poise_gyro_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        settings.pointee = GyroHandle.cSettings(GyroAimSettings())
    }
}

@_cdecl("poise_gyro_create")
public func cGyroCreate(_ settings: UnsafePointer<poise_gyro_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        let swiftSettings = try GyroHandle.settings(settings.pointee)
        let aim: GyroAim
        do { aim = try GyroAim(settings: swiftSettings) } catch { throw .invalid("\(error)") }
        handle = GyroHandle.Box.make(GyroHandle(aim: aim), tag: HandleTag.gyro)
    }
    return handle
}

@_cdecl("poise_gyro_destroy")
public func cGyroDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try GyroHandle.Box.destroy(handle, tag: HandleTag.gyro, kind: GyroHandle.kind) }
}

@_cdecl("poise_gyro_reset")
public func cGyroReset(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try GyroHandle.open(handle).pointee.payload.aim.reset() }
}

@_cdecl("poise_gyro_process")
public func cGyroProcess(_ handle: OpaquePointer?, _ time: Double, _ gyr: UnsafePointer<Double>?, _ acc: UnsafePointer<Double>?,
                         _ gravity: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<poise_gyro_output>?,
                         _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try GyroHandle.open(handle)
        guard let gyr else { throw .null("gyr") }
        let o = box.pointee.payload.aim.process(time: time, rotationRate: vector(gyr), acceleration: acc.map(vector),
                                                 gravity: gravity.map(vector))
        if let out {
            out.pointee = poise_gyro_output(time: o.time, yaw: o.yaw, pitch: o.pitch, flags: UInt32(o.flags.rawValue))
        }
    }
}

@_cdecl("poise_gyro_take_frame")
public func cGyroTakeFrame(_ handle: OpaquePointer?, _ frame: UnsafeMutablePointer<poise_gyro_frame>?,
                           _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try GyroHandle.open(handle)
        guard let frame else { throw .null("frame") }
        let f = box.pointee.payload.aim.takeFrame()
        frame.pointee = poise_gyro_frame(yaw: f.yaw, pitch: f.pitch, counts_x: Int64(f.counts.x), counts_y: Int64(f.counts.y),
                                         samples: Int64(f.sampleCount), flags: UInt32(f.flags.rawValue))
    }
}

@_cdecl("poise_gyro_calibration_begin")
public func cGyroCalibrationBegin(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try GyroHandle.open(handle).pointee.payload.aim.calibration.beginManualCalibration() }
}

@_cdecl("poise_gyro_calibration_end")
public func cGyroCalibrationEnd(_ handle: OpaquePointer?, _ time: Double, _ set: UnsafeMutablePointer<Int32>?,
                                _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try GyroHandle.open(handle)
        guard time.isFinite else { throw CError(POISE_ERROR_NON_FINITE, "time is not finite") }
        let done = box.pointee.payload.aim.calibration.endManualCalibration(time: time)
        set?.pointee = done ? 1 : 0
    }
}

@_cdecl("poise_gyro_get_calibration")
public func cGyroGetCalibration(_ handle: OpaquePointer?, _ calibration: UnsafeMutablePointer<poise_gyro_calibration>?,
                                _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try GyroHandle.open(handle)
        guard let calibration else { throw .null("calibration") }
        let s = box.pointee.payload.aim.calibration.state
        calibration.pointee = poise_gyro_calibration(bias: (s.bias.x, s.bias.y, s.bias.z), uncertainty: s.uncertainty, time: s.time,
                                                     calibrated: s.calibrated ? 1 : 0)
    }
}

@_cdecl("poise_gyro_set_calibration")
public func cGyroSetCalibration(_ handle: OpaquePointer?, _ calibration: UnsafePointer<poise_gyro_calibration>?,
                                _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try GyroHandle.open(handle)
        guard let calibration else { throw .null("calibration") }
        let c = calibration.pointee
        let bias = SIMD3(c.bias.0, c.bias.1, c.bias.2)
        guard bias.isFinite, c.uncertainty.isFinite, c.time.isFinite else {
            throw CError(POISE_ERROR_NON_FINITE, "calibration bias, uncertainty or time is not finite")
        }
        guard c.uncertainty >= 0 else { throw .invalid("calibration uncertainty must be ≥ 0, got \(c.uncertainty)") }
        let calibrated = try GyroHandle.flag(c.calibrated, "calibrated")
        var state = GyroCalibration.State(bias: bias, uncertainty: c.uncertainty, time: c.time)
        if !calibrated { state = GyroCalibration.State() }
        box.pointee.payload.aim.calibration.restore(state)
    }
}
