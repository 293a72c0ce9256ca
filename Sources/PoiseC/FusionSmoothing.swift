import CPoise
import Poise

/// `poise_fusion_smooth`: the C arrays of a whole recording as the samples
/// `DeviceMotionSmoother` reads (times N, acc/gyr/mag N × 3; mag nil for 6D).
struct CSampleBuffers: RandomAccessCollection {
    let count: Int
    let times: UnsafePointer<Double>, acc: UnsafePointer<Double>, gyr: UnsafePointer<Double>
    let mag: UnsafePointer<Double>?
    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(i: Int) -> MotionSample {
        MotionSample(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i),
                     magneticField: mag.map { vector($0 + 3 * i) })
    }
}

@_cdecl("poise_fusion_config_offline")
public func cFusionConfigOffline(_ config: UnsafeMutablePointer<poise_fusion_config>?, _ sampleRate: Double, _ reference: Int32,
                                 _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    FusionConfigurationBridge.fillPreset(config, sampleRate, reference, error) {
        DeviceMotionSmoother.defaultConfiguration(sampleRate: $0, reference: $1)
    }
}

@_cdecl("poise_fusion_smooth")
public func cFusionSmooth(_ config: UnsafePointer<poise_fusion_config>?, _ count: Int, _ times: UnsafePointer<Double>?,
                          _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?, _ mag: UnsafePointer<Double>?,
                          _ outputs: UnsafePointer<poise_fusion_outputs>?,
                          _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let config else { throw .null("config") }
        try smooth(configuration: FusionConfigurationBridge.configuration(config.pointee), count, times, acc, gyr, mag, outputs)
    }
}

@_cdecl("poise_fusion_smooth_with")
public func cFusionSmoothWith(_ handle: OpaquePointer?, _ count: Int, _ times: UnsafePointer<Double>?,
                              _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?, _ mag: UnsafePointer<Double>?,
                              _ outputs: UnsafePointer<poise_fusion_outputs>?,
                              _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        try smooth(configuration: box.pointee.payload.estimator.configuration, count, times, acc, gyr, mag, outputs)
    }
}

/// `DeviceMotionSmoother` with `configuration` over the C buffers, written to `outputs`.
private func smooth(configuration: DeviceMotionConfiguration, _ count: Int, _ times: UnsafePointer<Double>?,
                    _ acc: UnsafePointer<Double>?, _ gyr: UnsafePointer<Double>?, _ mag: UnsafePointer<Double>?,
                    _ outputs: UnsafePointer<poise_fusion_outputs>?) throws(CError) {
    _ = try elementCount(count, width: 4, "count")
    guard count > 0 else { return }
    guard let times else { throw .null("times") }
    guard let acc else { throw .null("acc") }
    guard let gyr else { throw .null("gyr") }
    let samples = CSampleBuffers(count: count, times: times, acc: acc, gyr: gyr,
                                 mag: configuration.reference.usesMagnetometer ? mag : nil)
    guard let o = outputs?.pointee else { return }
    DeviceMotionSmoother(configuration: configuration).smooth(samples) { i, m in
        if let q = o.attitude { q[4 * i] = m.attitude.w; q[4 * i + 1] = m.attitude.x; q[4 * i + 2] = m.attitude.y; q[4 * i + 3] = m.attitude.z }
        if let p = o.gravity { store(m.gravity, p + 3 * i) }
        if let p = o.user_acceleration { store(m.userAcceleration, p + 3 * i) }
        if let p = o.rotation_rate { store(m.rotationRate, p + 3 * i) }
        if let p = o.bias { store(m.bias, p + 3 * i) }
        if let p = o.heading { p[i] = m.heading ?? .nan }
        if let p = o.flags { p[i] = UInt32(m.flags.rawValue) }
    }
}
