import CPoise
import Poise
import PoiseC
import Testing

@Suite struct CGyroAimTests {
    /// The C aimer equals the Swift one sample by sample, frames included; calibration state
    /// round-trips through get/set.
    @Test func gyroEqualsTheSwiftAimer() throws {
        var settings = poise_gyro_settings()
        #expect(poise_gyro_settings_default(&settings, nil) == POISE_OK)
        #expect(settings.space == Int32(POISE_GYRO_PLAYER) && settings.sensitivity == 1 && settings.smoothing_threshold == 5
                && settings.continuous_calibration == 1 && settings.counts_per_degree == 1)
        settings.counts_per_degree = 7
        settings.sensitivity = 2
        settings.high_sensitivity = 2
        var error = poise_error()
        let gyro = try #require(poise_gyro_create(&settings, &error), "\(message(error))")
        defer { poise_gyro_destroy(gyro, nil) }
        var swiftSettings = GyroAimSettings()
        swiftSettings.countsPerDegree = 7
        swiftSettings.sensitivity = GyroSensitivity(2)
        var swift = try GyroAim(settings: swiftSettings)
        var out = poise_gyro_output()
        var frame = poise_gyro_frame()
        for i in 0..<600 {
            let t = Double(i) / 100
            let rate = SIMD3(0.001, -0.002, i > 200 ? -0.8 : 0.003)
            let up = SIMD3<Double>(0, 0.3, 0.95)
            #expect(poise_gyro_process(gyro, t, [rate.x, rate.y, rate.z], [up.x, up.y, up.z], nil, &out, nil) == POISE_OK)
            let expected = swift.process(time: t, rotationRate: rate, acceleration: up)
            #expect(out.yaw == expected.yaw && out.pitch == expected.pitch && out.flags == UInt32(expected.flags.rawValue))
            if i % 2 == 1 {
                #expect(poise_gyro_take_frame(gyro, &frame, nil) == POISE_OK)
                let f = swift.takeFrame()
                #expect(frame.yaw == f.yaw && frame.counts_x == Int64(f.counts.x) && frame.samples == 2)
            }
        }
        var saved = poise_gyro_calibration()
        #expect(poise_gyro_get_calibration(gyro, &saved, nil) == POISE_OK)
        #expect(saved.calibrated == 1 && saved.bias.0 == swift.calibration.bias.x)
        #expect(poise_gyro_reset(gyro, nil) == POISE_OK)
        var cleared = poise_gyro_calibration()
        _ = poise_gyro_get_calibration(gyro, &cleared, nil)
        #expect(cleared.calibrated == 0 && cleared.bias.0 == 0)
        #expect(poise_gyro_set_calibration(gyro, &saved, nil) == POISE_OK)
        _ = poise_gyro_get_calibration(gyro, &cleared, nil)
        #expect(cleared.bias.0 == saved.bias.0 && cleared.calibrated == 1)
        // Manual calibration.
        #expect(poise_gyro_calibration_begin(gyro, nil) == POISE_OK)
        _ = poise_gyro_process(gyro, 10, [0.01, 0.02, 0.03], nil, nil, nil, nil)
        var set: Int32 = 0
        #expect(poise_gyro_calibration_end(gyro, 10, &set, nil) == POISE_OK && set == 1)
        _ = poise_gyro_get_calibration(gyro, &cleared, nil)
        #expect(cleared.bias.0 == 0.01 && cleared.bias.2 == 0.03)
    }

    /// Bad numbers are flagged, not errors; bad settings and states are errors naming the field.
    @Test func badInput() throws {
        var settings = poise_gyro_settings()
        _ = poise_gyro_settings_default(&settings, nil)
        let gyro = try #require(poise_gyro_create(&settings, nil))
        defer { poise_gyro_destroy(gyro, nil) }
        var out = poise_gyro_output()
        var error = poise_error()
        #expect(poise_gyro_process(gyro, 0, [.nan, 0, 0], nil, nil, &out, &error) == POISE_OK)
        #expect(out.flags & UInt32(POISE_GYRO_FLAG_INVALID) != 0 && out.yaw == 0)
        #expect(poise_gyro_process(gyro, 0, nil, nil, nil, &out, &error) == POISE_ERROR_NULL_ARGUMENT)
        var state = poise_gyro_calibration(bias: (.nan, 0, 0), uncertainty: 0, time: 0, calibrated: 1)
        #expect(poise_gyro_set_calibration(gyro, &state, &error) == POISE_ERROR_NON_FINITE)
        settings.space = 7
        #expect(poise_gyro_create(&settings, &error) == nil && message(error).contains("space"))
        _ = poise_gyro_settings_default(&settings, nil)
        settings.high_sensitivity = 3   // an acceleration curve needs high_speed > low_speed
        #expect(poise_gyro_create(&settings, &error) == nil && message(error).contains("highSpeed"))
        var flick = poise_flick_settings()
        var yaw = 0.0
        #expect(poise_flick_update(gyro, 0, 1, 0.01, &yaw, &error) == POISE_ERROR_INVALID_HANDLE)
        _ = poise_flick_settings_default(&flick, nil)
        flick.threshold = 2
        #expect(poise_flick_create(&flick, &error) == nil && message(error).contains("threshold"))
    }

    /// The C flick stick equals the Swift one.
    @Test func flickEqualsTheSwiftFlickStick() throws {
        var settings = poise_flick_settings()
        #expect(poise_flick_settings_default(&settings, nil) == POISE_OK)
        #expect(settings.flick_time == 0.1 && settings.threshold == 0.9)
        let flick = try #require(poise_flick_create(&settings, nil))
        defer { poise_flick_destroy(flick, nil) }
        var swift = try FlickStick()
        var yaw = 0.0
        for i in 0..<60 {
            let a = Double(i) * 0.1
            let stick = i < 40 ? SIMD2(Double.sin(a), Double.cos(a)) : SIMD2<Double>(0, 0)
            #expect(poise_flick_update(flick, stick.x, stick.y, 1.0 / 60, &yaw, nil) == POISE_OK)
            #expect(yaw == swift.update(stick: stick, dt: 1.0 / 60))
        }
    }

    /// Extreme but finite settings and inputs: no trap, finite outputs.
    @Test func anyNumbersNeitherTrapNorSpreadNaN() throws {
        var settings = poise_gyro_settings()
        _ = poise_gyro_settings_default(&settings, nil)
        settings.counts_per_degree = 1e300
        settings.sensitivity = 1e3
        settings.high_sensitivity = 1e3
        settings.maximum_time_step = 1e300
        settings.maximum_speed = 1e300
        let gyro = try #require(poise_gyro_create(&settings, nil))
        defer { poise_gyro_destroy(gyro, nil) }
        var out = poise_gyro_output()
        var frame = poise_gyro_frame()
        let values = [0, 1e-300, -1e300, 1e300, .greatestFiniteMagnitude, -.infinity, .nan, 5e-324]
        for (i, v) in values.enumerated() {
            for (j, w) in values.enumerated() {
                let t = Double(i * values.count + j)
                _ = poise_gyro_process(gyro, t, [v, w, v], [w, v, 1], [v, 0, w], &out, nil)
                #expect(out.yaw.isFinite || out.yaw.isInfinite)   // never NaN
                #expect(!out.yaw.isNaN && !out.pitch.isNaN)
                #expect(poise_gyro_take_frame(gyro, &frame, nil) == POISE_OK)
                #expect(!frame.yaw.isNaN && !frame.pitch.isNaN)
            }
        }
    }
}
