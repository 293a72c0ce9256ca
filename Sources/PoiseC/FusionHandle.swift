import CPoise
import Poise

/// What a `poise_fusion` handle holds.
struct FusionHandle {
    var estimator: DeviceMotionEstimator
    /// Threads poise_fusion_update_buffer may use (1 or 2; `poise_fusion_set_threads`).
    var threads: Int32 = 1

    typealias Box = HandleBox<FusionHandle>
    static let kind = "poise_fusion"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.fusion, kind: kind)
    }

    /// The estimator's `deviceMotion` in the C struct. `estimator` is `inout` so that it is read
    /// in place: a getter called on `box.pointee.payload.estimator` copied the whole estimator
    /// (≈ 2.7 KB) to the stack on every call.
    @inline(__always)
    static func cMotion(_ estimator: inout DeviceMotionEstimator) -> poise_motion {
        let motion = estimator.deviceMotion
        var o = poise_motion()
        o.time = motion.time
        o.attitude = (motion.attitude.w, motion.attitude.x, motion.attitude.y, motion.attitude.z)
        o.gravity = (motion.gravity.x, motion.gravity.y, motion.gravity.z)
        o.user_acceleration = (motion.userAcceleration.x, motion.userAcceleration.y, motion.userAcceleration.z)
        o.rotation_rate = (motion.rotationRate.x, motion.rotationRate.y, motion.rotationRate.z)
        o.bias = (motion.bias.x, motion.bias.y, motion.bias.z)
        o.heading = motion.heading ?? .nan
        o.flags = UInt32(motion.flags.rawValue)
        return o
    }

    /// Writes row `row` of the requested outputs (non-NULL pointers of `o`) after an update.
    @inline(__always)
    static func write(_ estimator: inout DeviceMotionEstimator, row i: Int, to o: poise_fusion_outputs) {
        write(&estimator, row: i, to: o, headingHalfAngle: estimator.headingHalfAngle)
    }

    /// `write` with the estimator's `headingHalfAngle` given (a caller may keep it between
    /// correction steps).
    @inline(__always)
    static func write(_ estimator: inout DeviceMotionEstimator, row i: Int, to o: poise_fusion_outputs,
                      headingHalfAngle: (cosine: Double, sine: Double)?) {
        let wantsAttitude = o.attitude != nil || o.heading != nil, wantsGravity = o.gravity != nil || o.user_acceleration != nil
        // The 6D attitude once (with the output prediction it is a quaternion product).
        let q6 = wantsAttitude || wantsGravity ? estimator.attitude6D : .identity
        if wantsAttitude {
            var enu = q6
            if let h = headingHalfAngle { enu = estimator.attitudeEastNorthUp(sixD: q6, headingHalfAngle: h) }
            if let q = o.attitude {
                let a = estimator.attitude(eastNorthUp: enu)
                q[4 * i] = a.w; q[4 * i + 1] = a.x; q[4 * i + 2] = a.y; q[4 * i + 3] = a.z
            }
            if let p = o.heading { p[i] = estimator.heading(eastNorthUp: enu) ?? .nan }
        }
        if wantsGravity {
            let up = estimator.gravity(sixD: q6)
            if let p = o.gravity { store(up, p + 3 * i) }
            if let p = o.user_acceleration { store(estimator.userAcceleration(gravity: up), p + 3 * i) }
        }
        if let p = o.rotation_rate { store(estimator.correctedRotationRate, p + 3 * i) }
        if let p = o.bias { store(estimator.state.bias, p + 3 * i) }
        if let p = o.flags { p[i] = UInt32(estimator.lastSample.flags.rawValue) }
    }
}

@inline(__always)
func vector(_ p: UnsafePointer<Double>) -> SIMD3<Double> { SIMD3(p[0], p[1], p[2]) }

@inline(__always)
func store(_ v: SIMD3<Double>, _ p: UnsafeMutablePointer<Double>) { p[0] = v.x; p[1] = v.y; p[2] = v.z }

@_cdecl("poise_fusion_create")
public func cFusionCreate(_ config: UnsafePointer<poise_fusion_config>?, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        guard let config else { throw .null("config") }
        let configuration = try FusionConfigurationBridge.configuration(config.pointee)
        handle = FusionHandle.Box.make(FusionHandle(estimator: DeviceMotionEstimator(configuration: configuration)), tag: HandleTag.fusion)
    }
    return handle
}

@_cdecl("poise_fusion_destroy")
public func cFusionDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FusionHandle.Box.destroy(handle, tag: HandleTag.fusion, kind: FusionHandle.kind) }
}

@_cdecl("poise_fusion_reset")
public func cFusionReset(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FusionHandle.open(handle).pointee.payload.estimator.reset() }
}

@_cdecl("poise_fusion_get_config")
public func cFusionGetConfig(_ handle: OpaquePointer?, _ config: UnsafeMutablePointer<poise_fusion_config>?,
                             _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let config else { throw .null("config") }
        config.pointee = FusionConfigurationBridge.cConfig(box.pointee.payload.estimator.configuration)
    }
}

@_cdecl("poise_fusion_update")
public func cFusionUpdate(_ handle: OpaquePointer?, _ time: Double, _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?,
                          _ mag: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<poise_motion>?,
                          _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let acc else { throw .null("acc") }
        guard let gyr else { throw .null("gyr") }
        box.pointee.payload.estimator.update(time: time, acceleration: vector(acc), rotationRate: vector(gyr),
                                             magneticField: mag.map(vector))
        if let out { out.pointee = FusionHandle.cMotion(&box.pointee.payload.estimator) }
    }
}

@_cdecl("poise_fusion_get_motion")
public func cFusionGetMotion(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<poise_motion>?,
                             _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let out else { throw .null("out") }
        out.pointee = FusionHandle.cMotion(&box.pointee.payload.estimator)
    }
}

@_cdecl("poise_fusion_set_threads")
public func cFusionSetThreads(_ handle: OpaquePointer?, _ threads: Int32, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard threads == 1 || threads == 2 else { throw .invalid("threads must be 1 or 2, got \(threads)") }
        box.pointee.payload.threads = threads
    }
}

@_cdecl("poise_fusion_get_threads")
public func cFusionGetThreads(_ handle: OpaquePointer?, _ threads: UnsafeMutablePointer<Int32>?,
                              _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let threads else { throw .null("threads") }
        threads.pointee = box.pointee.payload.threads
    }
}

@_cdecl("poise_fusion_set_saturation_bias_hold_off")
public func cFusionSetSaturationBiasHoldOff(_ handle: OpaquePointer?, _ seconds: Double,
                                            _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        var configuration = box.pointee.payload.estimator.configuration
        configuration.saturationBiasHoldOff = try FusionConfigurationBridge.duration(seconds, "saturation_bias_hold_off", zeroAllowed: true)
        // A new estimator in its initial state: the setting shapes the state from the first sample.
        box.pointee.payload.estimator = DeviceMotionEstimator(configuration: configuration)
    }
}

@_cdecl("poise_fusion_get_saturation_bias_hold_off")
public func cFusionGetSaturationBiasHoldOff(_ handle: OpaquePointer?, _ seconds: UnsafeMutablePointer<Double>?,
                                            _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let seconds else { throw .null("seconds") }
        seconds.pointee = box.pointee.payload.estimator.configuration.saturationBiasHoldOff
    }
}

@_cdecl("poise_fusion_update_buffer")
public func cFusionUpdateBuffer(_ handle: OpaquePointer?, _ count: Int, _ times: UnsafePointer<Double>?,
                                _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?, _ mag: UnsafePointer<Double>?,
                                _ outputs: UnsafePointer<poise_fusion_outputs>?,
                                _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        _ = try elementCount(count, width: 4, "count")
        guard count > 0 else { return }
        guard let times else { throw .null("times") }
        guard let acc else { throw .null("acc") }
        guard let gyr else { throw .null("gyr") }
        // The loop runs on a local copy of the estimator (written back at the end), so that its
        // state can stay in registers: through the handle pointer it might alias the buffers.
        var estimator = box.pointee.payload.estimator
        defer { box.pointee.payload.estimator = estimator }
        var requested = outputs?.pointee
        if let o = requested, o.attitude == nil && o.gravity == nil && o.user_acceleration == nil && o.rotation_rate == nil
            && o.bias == nil && o.heading == nil && o.flags == nil { requested = nil }
        // A long buffer runs on two threads when the caller asked for them (FusionLanes), with
        // the same results.
        if box.pointee.payload.threads == 2,
           FusionLanes.run(&estimator, count: count, times: times, acc: acc, gyr: gyr, mag: mag, outputs: requested) { return }
        guard let o = requested else {
            if let mag {
                for i in 0..<count {
                    estimator.update(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i),
                                     magneticField: vector(mag + 3 * i))
                }
            } else {
                for i in 0..<count {
                    estimator.update(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i))
                }
            }
            return
        }
        // Only the requested outputs are computed (each as `deviceMotion` computes it): the
        // heading's atan2 and the frame change cost more than the update itself.
        if let mag {
            for i in 0..<count {
                estimator.update(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i),
                                 magneticField: vector(mag + 3 * i))
                FusionHandle.write(&estimator, row: i, to: o)
            }
        } else {
            for i in 0..<count {
                estimator.update(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i))
                FusionHandle.write(&estimator, row: i, to: o)
            }
        }
    }
}
