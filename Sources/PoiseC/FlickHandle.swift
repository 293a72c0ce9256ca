import CPoise
import Poise

/// What a `poise_flick` handle holds.
struct FlickHandle {
    var flick: FlickStick

    typealias Box = HandleBox<FlickHandle>
    static let kind = "poise_flick"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.flick, kind: kind)
    }

    static func settings(_ s: poise_flick_settings) throws(CError) -> FlickStickSettings {
        var f = FlickStickSettings()
        f.threshold = s.threshold
        f.releaseThreshold = s.release_threshold
        f.flickTime = s.flick_time
        f.rotationSmoothingThreshold = s.rotation_smoothing_threshold
        f.rotationSmoothingTimeConstant = s.rotation_smoothing_time_constant
        if let problem = f.problem { throw .invalid(problem) }
        return f
    }
}

@_cdecl("poise_flick_settings_default")
public func cFlickSettingsDefault(_ settings: UnsafeMutablePointer<poise_flick_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        let f = FlickStickSettings()
        settings.pointee = poise_flick_settings(threshold: f.threshold, release_threshold: f.releaseThreshold, flick_time: f.flickTime,
                                                rotation_smoothing_threshold: f.rotationSmoothingThreshold,
                                                rotation_smoothing_time_constant: f.rotationSmoothingTimeConstant)
    }
}

@_cdecl("poise_flick_create")
public func cFlickCreate(_ settings: UnsafePointer<poise_flick_settings>?, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        guard let settings else { throw .null("settings") }
        let swiftSettings = try FlickHandle.settings(settings.pointee)
        let flick: FlickStick
        do { flick = try FlickStick(settings: swiftSettings) } catch { throw .invalid("\(error)") }
        handle = FlickHandle.Box.make(FlickHandle(flick: flick), tag: HandleTag.flick)
    }
    return handle
}

@_cdecl("poise_flick_destroy")
public func cFlickDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FlickHandle.Box.destroy(handle, tag: HandleTag.flick, kind: FlickHandle.kind) }
}

@_cdecl("poise_flick_reset")
public func cFlickReset(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FlickHandle.open(handle).pointee.payload.flick.reset() }
}

@_cdecl("poise_flick_update")
public func cFlickUpdate(_ handle: OpaquePointer?, _ x: Double, _ y: Double, _ dt: Double, _ yaw: UnsafeMutablePointer<Double>?,
                         _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FlickHandle.open(handle)
        let turn = box.pointee.payload.flick.update(stick: SIMD2(x, y), dt: dt)
        yaw?.pointee = turn
    }
}
