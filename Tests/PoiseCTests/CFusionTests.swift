import CLanes
import CPoise
import Poise
@testable import PoiseC
import Testing

@Suite struct CFusionTests {
    /// A rotating, accelerating device with a magnetometer (device frame), 100 Hz.
    struct Recording {
        var times: [Double] = [], acc: [Double] = [], gyr: [Double] = [], mag: [Double] = []
        init(count: Int) {
            var random = TestRandom(state: 3)
            var q = Quaternion<Double>.identity
            for i in 0..<count {
                let t = Double(i) * 0.01
                let w = i < 400 ? SIMD3<Double>.zero : SIMD3(0.8 * Double.sin(t), 0.5 * Double.cos(0.7 * t), i % 700 < 300 ? 0 : 1.2)
                q = (q * Quaternion(rotationVector: w * 0.01)).normalized
                let up = q.conjugate.act(SIMD3(0, 0, 1))
                let field = q.conjugate.act(SIMD3(0, 25, -43))
                times.append(t)
                acc += [up.x + 0.01 * random.unit(), up.y + 0.01 * random.unit(), up.z + 0.01 * random.unit()]
                gyr += [w.x + 0.01, w.y - 0.005, w.z + 0.002]
                mag += [field.x, field.y, field.z]
            }
        }
        func sample(_ i: Int) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
            (SIMD3(acc[3 * i], acc[3 * i + 1], acc[3 * i + 2]), SIMD3(gyr[3 * i], gyr[3 * i + 1], gyr[3 * i + 2]),
             SIMD3(mag[3 * i], mag[3 * i + 1], mag[3 * i + 2]))
        }
    }

    func makeFusion(_ config: poise_fusion_config) throws -> OpaquePointer {
        var config = config
        var error = poise_error()
        return try #require(poise_fusion_create(&config, &error), "\(message(error))")
    }

    @Test func defaultConfigurationHasTheSwiftDefaults() {
        var c = poise_fusion_config()
        #expect(poise_fusion_config_default(&c, 200, nil) == POISE_OK)
        let swift = DeviceMotionConfiguration(sampleRate: 200)
        #expect(c.sample_rate == 200 && c.reference == 2 && c.earth_frame == 0)
        #expect(c.bias_sigma_rest == swift.biasSigmaRest && c.rest_minimum_time == swift.restMinimumTime)
        #expect(c.correction_rate == 10 && c.rest_accelerometer_threshold == swift.restAccelerometerThreshold)
        #expect(c.motion_bias_estimation == 1 && c.skip_held_magnetometer_samples == 0)
        #expect(c.magnetic_offset_estimation == 1 && c.magnetic_offset_minimum_coverage == swift.magneticOffsetMinimumCoverage)
        #expect(poise_fusion_config_vqf(&c, 200, 0, nil) == POISE_OK)
        #expect(c.correction_rate == 0 && c.bias_sigma_rest == 0.03 && c.rest_minimum_time == 1.5 && c.reference == 0)
        #expect(c.magnetic_offset_estimation == 0)
        let fast = DeviceMotionConfiguration.fast(sampleRate: 50, reference: .arbitraryZVertical)
        #expect(poise_fusion_config_fast(&c, 50, 0, nil) == POISE_OK)
        #expect(c.sample_rate == 50 && c.reference == 0 && c.correction_rate == fast.correctionRate)
        #expect(c.bias_sigma_rest == fast.biasSigmaRest && c.rest_minimum_time == fast.restMinimumTime)
        var e = poise_error()
        #expect(poise_fusion_config_fast(&c, 50, 9, &e) == POISE_ERROR_INVALID_ARGUMENT)
    }

    @Test(arguments: [false, true])
    func bufferUpdateEqualsTheSwiftEstimatorBitForBit(vqf: Bool) throws {
        let n = 3000
        let recording = Recording(count: n)
        var c = poise_fusion_config()
        _ = vqf ? poise_fusion_config_vqf(&c, 100, 2, nil) : poise_fusion_config_default(&c, 100, nil)
        let fusion = try makeFusion(c)
        defer { poise_fusion_destroy(fusion, nil) }
        var attitude = [Double](repeating: 0, count: 4 * n), gravity = [Double](repeating: 0, count: 3 * n)
        var user = [Double](repeating: 0, count: 3 * n), bias = [Double](repeating: 0, count: 3 * n)
        var flags = [UInt32](repeating: 0, count: n)
        let status = attitude.withUnsafeMutableBufferPointer { q in gravity.withUnsafeMutableBufferPointer { g in
            user.withUnsafeMutableBufferPointer { u in bias.withUnsafeMutableBufferPointer { b in flags.withUnsafeMutableBufferPointer { f in
                var outputs = poise_fusion_outputs(attitude: q.baseAddress, gravity: g.baseAddress, user_acceleration: u.baseAddress,
                                                   rotation_rate: nil, bias: b.baseAddress, heading: nil, flags: f.baseAddress)
                return poise_fusion_update_buffer(fusion, n, recording.times, recording.acc, recording.gyr, recording.mag, &outputs, nil)
            } } } } }
        #expect(status == POISE_OK)
        var estimator = DeviceMotionEstimator(configuration: vqf ? .vqfDefaults(sampleRate: 100) : .init(sampleRate: 100))
        var differing = 0
        for i in 0..<n {
            let (a, w, m) = recording.sample(i)
            let motion = estimator.process(time: recording.times[i], acceleration: a, rotationRate: w, magneticField: m)
            let q = motion.attitude
            if [q.w, q.x, q.y, q.z] != Array(attitude[(4 * i)..<(4 * i + 4)])
                || [motion.gravity.x, motion.gravity.y, motion.gravity.z] != Array(gravity[(3 * i)..<(3 * i + 3)])
                || [motion.userAcceleration.z, motion.bias.y] != [user[3 * i + 2], bias[3 * i + 1]]
                || UInt32(motion.flags.rawValue) != flags[i] { differing += 1 }
        }
        #expect(differing == 0)
        #expect(flags.contains { $0 & UInt32(POISE_FLAG_AT_REST) != 0 })
        // The single-sample call and get_motion agree with the same estimator.
        var motion = poise_motion()
        let (a, w, m) = recording.sample(5)
        #expect(poise_fusion_update(fusion, 30.0, [a.x, a.y, a.z], [w.x, w.y, w.z], [m.x, m.y, m.z], &motion, nil) == POISE_OK)
        let expected = estimator.process(time: 30.0, acceleration: a, rotationRate: w, magneticField: m)
        #expect(motion.attitude.0 == expected.attitude.w && motion.attitude.3 == expected.attitude.z)
        #expect(motion.heading == expected.heading)
        var again = poise_motion()
        #expect(poise_fusion_get_motion(fusion, &again, nil) == POISE_OK)
        #expect(again.attitude.1 == motion.attitude.1 && again.time == 30)
    }

    /// A buffer long enough for two threads (`FusionLanes.minimumCount` samples and more)
    /// gives, for every requested output and in the saved state, what per-sample updates give,
    /// bit for bit: with every output, a few, none, without a magnetometer, and for VQF's
    /// schedule and a 6D reference. Hostile samples are mixed in.
    @Test(arguments: ["defaults all", "defaults few", "defaults none", "no magnetometer", "vqf", "6D"])
    func longBufferEqualsPerSampleUpdatesBitForBit(_ name: String) throws {
        let n = 2 * FusionLanes.minimumCount + 4321
        var recording = Recording(count: n)
        for i in stride(from: 777, to: n, by: 5003) {
            recording.gyr[3 * i] = .nan; recording.acc[3 * i + 4] = .infinity; recording.mag[3 * i + 8] = 0
            recording.mag[3 * i + 9] = 0; recording.mag[3 * i + 10] = 0; recording.mag[3 * i + 11] = 0
            recording.times[i + 3] = recording.times[i + 2]
        }
        var c = poise_fusion_config()
        switch name {
        case "vqf": _ = poise_fusion_config_vqf(&c, 100, 2, nil)
        case "6D": _ = poise_fusion_config_default(&c, 100, nil); c.reference = 0
        default: _ = poise_fusion_config_default(&c, 100, nil)
        }
        let buffered = try makeFusion(c), single = try makeFusion(c)
        defer { poise_fusion_destroy(buffered, nil); poise_fusion_destroy(single, nil) }
        #expect(poise_fusion_set_threads(buffered, 2, nil) == POISE_OK)
        let all = name != "defaults few" && name != "defaults none", none = name == "defaults none"
        let magnetometer = name != "no magnetometer"
        var attitude = [Double](repeating: 0, count: 4 * n), gravity = [Double](repeating: 0, count: 3 * n)
        var user = gravity, rate = gravity, bias = gravity, heading = [Double](repeating: 0, count: n)
        var flags = [UInt32](repeating: 0, count: n)
        let status = attitude.withUnsafeMutableBufferPointer { q in gravity.withUnsafeMutableBufferPointer { g in
            user.withUnsafeMutableBufferPointer { u in rate.withUnsafeMutableBufferPointer { r in bias.withUnsafeMutableBufferPointer { b in
                heading.withUnsafeMutableBufferPointer { h in flags.withUnsafeMutableBufferPointer { f in
                    var outputs = poise_fusion_outputs(attitude: q.baseAddress, gravity: all ? g.baseAddress : nil,
                                                       user_acceleration: all ? u.baseAddress : nil,
                                                       rotation_rate: all ? r.baseAddress : nil, bias: b.baseAddress,
                                                       heading: all ? h.baseAddress : nil, flags: f.baseAddress)
                    return withUnsafePointer(to: &outputs) { o in
                        poise_fusion_update_buffer(buffered, n, recording.times, recording.acc, recording.gyr,
                                                   magnetometer ? recording.mag : nil, none ? nil : o, nil)
                    }
                } }
            } } } } }
        #expect(status == POISE_OK)
        var differing = 0
        for i in 0..<n {
            var m = poise_motion()
            let sampleStatus = recording.acc.withUnsafeBufferPointer { a in recording.gyr.withUnsafeBufferPointer { w in
                recording.mag.withUnsafeBufferPointer { b in
                    poise_fusion_update(single, recording.times[i], a.baseAddress! + 3 * i, w.baseAddress! + 3 * i,
                                        magnetometer ? b.baseAddress! + 3 * i : nil, &m, nil)
                } } }
            guard !none else { continue }
            var expected = [m.attitude.0, m.attitude.1, m.attitude.2, m.attitude.3, m.bias.0, m.bias.1, m.bias.2]
            var got = Array(attitude[(4 * i)..<(4 * i + 4)]) + Array(bias[(3 * i)..<(3 * i + 3)])
            if all {
                expected += [m.gravity.0, m.gravity.1, m.gravity.2, m.user_acceleration.0, m.user_acceleration.1,
                             m.user_acceleration.2, m.rotation_rate.0, m.rotation_rate.1, m.rotation_rate.2, m.heading]
                got += Array(gravity[(3 * i)..<(3 * i + 3)]) + Array(user[(3 * i)..<(3 * i + 3)])
                    + Array(rate[(3 * i)..<(3 * i + 3)]) + [heading[i]]
            }
            if sampleStatus != POISE_OK || expected.map(\.bitPattern) != got.map(\.bitPattern) || m.flags != flags[i] { differing += 1 }
        }
        #expect(differing == 0)
        // The same state afterwards (compared as values: saved bytes may differ in padding),
        // and the same last sample.
        let a = try FusionHandle.open(buffered).pointee.payload.estimator, b = try FusionHandle.open(single).pointee.payload.estimator
        #expect(a.state == b.state && a.lastSample == b.lastSample)
        var ma = poise_motion(), mb = poise_motion()
        #expect(poise_fusion_get_motion(buffered, &ma, nil) == POISE_OK && poise_fusion_get_motion(single, &mb, nil) == POISE_OK)
        #expect(ma.flags == mb.flags && ma.heading.bitPattern == mb.heading.bitPattern && ma.user_acceleration == mb.user_acceleration
                && ma.attitude == mb.attitude && ma.rotation_rate == mb.rotation_rate)
    }

    /// The threads of the buffer call are the caller's choice: one by default, two after
    /// poise_fusion_set_threads(2); any other number is refused and leaves the choice as it was.
    @Test func threadsAreSetExplicitly() throws {
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let fusion = try makeFusion(c)
        defer { poise_fusion_destroy(fusion, nil) }
        var threads: Int32 = 0
        #expect(poise_fusion_get_threads(fusion, &threads, nil) == POISE_OK && threads == 1)
        #expect(poise_fusion_set_threads(fusion, 2, nil) == POISE_OK)
        #expect(poise_fusion_get_threads(fusion, &threads, nil) == POISE_OK && threads == 2)
        var error = poise_error()
        for bad: Int32 in [0, 3, -1] {
            #expect(poise_fusion_set_threads(fusion, bad, &error) == POISE_ERROR_INVALID_ARGUMENT)
            #expect(message(error).contains("threads must be 1 or 2"))
        }
        #expect(poise_fusion_get_threads(fusion, &threads, nil) == POISE_OK && threads == 2)
        #expect(poise_fusion_get_threads(fusion, nil, nil) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_set_threads(nil, 1, nil) == POISE_ERROR_INVALID_HANDLE)
    }

    /// The hold-off after a saturated gyroscope sample is the handle's to choose: on a clipped
    /// gyroscope 0 and 9 s give different outputs, each equal bit for bit to the Swift estimator
    /// with the same `saturationBiasHoldOff`; without the call it follows fixed_time_step (9 s
    /// for the defaults, 0 for VQF's); setting it starts the estimator again and keeps it across
    /// poise_fusion_reset; bad values are refused with the setting unchanged; saved state
    /// records it.
    @Test func saturationHoldOffIsSetOnTheHandle() throws {
        let n = 3000
        var recording = Recording(count: n)
        // The turn about z (1.2 rad/s) clips at 1.1 rad/s (a plateau counts from 1 rad/s).
        let limit = 1.1
        recording.gyr = recording.gyr.map { min(max($0, -limit), limit) }
        var c = poise_fusion_config(), vqf = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        _ = poise_fusion_config_vqf(&vqf, 100, 2, nil)
        var seconds = -1.0
        for (config, expected) in [(c, 9.0), (vqf, 0.0)] {
            let fusion = try makeFusion(config)
            #expect(poise_fusion_get_saturation_bias_hold_off(fusion, &seconds, nil) == POISE_OK && seconds == expected)
            poise_fusion_destroy(fusion, nil)
        }
        func run(_ holdOff: Double?) throws -> (attitude: [Double], bias: [Double], flags: [UInt32]) {
            let fusion = try makeFusion(c)
            defer { poise_fusion_destroy(fusion, nil) }
            if let holdOff {
                // Samples before the call are forgotten: the estimator starts again.
                #expect(poise_fusion_update_buffer(fusion, 500, recording.times, recording.acc, recording.gyr, recording.mag, nil, nil) == POISE_OK)
                var error = poise_error()
                #expect(poise_fusion_set_saturation_bias_hold_off(fusion, holdOff, &error) == POISE_OK, "\(message(error))")
            }
            var attitude = [Double](repeating: 0, count: 4 * n), bias = [Double](repeating: 0, count: 3 * n)
            var flags = [UInt32](repeating: 0, count: n)
            let status = attitude.withUnsafeMutableBufferPointer { q in bias.withUnsafeMutableBufferPointer { b in flags.withUnsafeMutableBufferPointer { f in
                var outputs = poise_fusion_outputs(attitude: q.baseAddress, gravity: nil, user_acceleration: nil,
                                                   rotation_rate: nil, bias: b.baseAddress, heading: nil, flags: f.baseAddress)
                return poise_fusion_update_buffer(fusion, n, recording.times, recording.acc, recording.gyr, recording.mag, &outputs, nil)
            } } }
            #expect(status == POISE_OK)
            return (attitude, bias, flags)
        }
        func swift(_ holdOff: Double) -> (attitude: [Double], bias: [Double], flags: [UInt32]) {
            var configuration = DeviceMotionConfiguration(sampleRate: 100)
            configuration.saturationBiasHoldOff = holdOff
            var estimator = DeviceMotionEstimator(configuration: configuration)
            var result: (attitude: [Double], bias: [Double], flags: [UInt32]) = ([], [], [])
            for i in 0..<n {
                let (a, w, m) = recording.sample(i)
                let motion = estimator.process(time: recording.times[i], acceleration: a, rotationRate: w, magneticField: m)
                result.attitude += [motion.attitude.w, motion.attitude.x, motion.attitude.y, motion.attitude.z]
                result.bias += [motion.bias.x, motion.bias.y, motion.bias.z]
                result.flags.append(UInt32(motion.flags.rawValue))
            }
            return result
        }
        let off = try run(0), nine = try run(9), unset = try run(nil)
        let saturated = off.flags.filter { $0 & (1 << 7) != 0 }.count
        #expect(saturated > 50, "\(saturated) samples flagged saturated")
        #expect(off.attitude != nine.attitude && off.bias != nine.bias)
        for (c, s) in [(off, swift(0)), (nine, swift(9)), (try run(2.5), swift(2.5))] {
            #expect(c.attitude == s.attitude && c.bias == s.bias && c.flags == s.flags)
        }
        #expect(unset.attitude == nine.attitude)

        let fusion = try makeFusion(c)
        defer { poise_fusion_destroy(fusion, nil) }
        var error = poise_error()
        #expect(poise_fusion_set_saturation_bias_hold_off(fusion, 4, nil) == POISE_OK)
        for bad in [-1, .nan, .infinity, 2e7] {
            #expect(poise_fusion_set_saturation_bias_hold_off(fusion, bad, &error) == POISE_ERROR_INVALID_ARGUMENT)
            #expect(message(error).contains("saturation_bias_hold_off must be a finite number >= 0 and <= 1e7 s"))
        }
        #expect(poise_fusion_reset(fusion, nil) == POISE_OK)
        #expect(poise_fusion_get_saturation_bias_hold_off(fusion, &seconds, nil) == POISE_OK && seconds == 4)
        #expect(poise_fusion_get_saturation_bias_hold_off(fusion, nil, nil) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_set_saturation_bias_hold_off(nil, 1, nil) == POISE_ERROR_INVALID_HANDLE)
        // State saved with one hold-off does not go into an estimator with another.
        var bytes = [UInt8](repeating: 0, count: poise_fusion_state_size())
        #expect(poise_fusion_save_state(fusion, &bytes, bytes.count, nil, nil) == POISE_OK)
        let other = try makeFusion(c)
        defer { poise_fusion_destroy(other, nil) }
        #expect(poise_fusion_restore_state(other, bytes, bytes.count, &error) == POISE_ERROR_STATE)
        #expect(poise_fusion_set_saturation_bias_hold_off(other, 4, nil) == POISE_OK)
        #expect(poise_fusion_restore_state(other, bytes, bytes.count, &error) == POISE_OK)
    }

    /// poise_fusion_smooth_with smooths with the handle's settings, the hold-off included: on a
    /// clipped gyroscope 0 and 9 s differ, each equal bit for bit to the Swift smoother with the
    /// same `saturationBiasHoldOff`; with the rule's value it equals poise_fusion_smooth.
    @Test func smootherTakesTheHandlesHoldOff() throws {
        let n = 3000
        var recording = Recording(count: n)
        recording.gyr = recording.gyr.map { min(max($0, -1.1), 1.1) }
        var c = poise_fusion_config()
        _ = poise_fusion_config_offline(&c, 100, 2, nil)
        func run(_ smooth: (UnsafePointer<poise_fusion_outputs>) -> poise_status) -> [Double] {
            var attitude = [Double](repeating: 0, count: 4 * n)
            let status = attitude.withUnsafeMutableBufferPointer { q in
                var outputs = poise_fusion_outputs()
                outputs.attitude = q.baseAddress
                return smooth(&outputs)
            }
            #expect(status == POISE_OK)
            return attitude
        }
        func handle(_ holdOff: Double) throws -> [Double] {
            let fusion = try makeFusion(c)
            defer { poise_fusion_destroy(fusion, nil) }
            #expect(poise_fusion_set_saturation_bias_hold_off(fusion, holdOff, nil) == POISE_OK)
            return run { poise_fusion_smooth_with(fusion, n, recording.times, recording.acc, recording.gyr, recording.mag, $0, nil) }
        }
        func swift(_ holdOff: Double) -> [Double] {
            var configuration = DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .magneticNorthZVertical)
            configuration.saturationBiasHoldOff = holdOff
            var attitude = [Double](repeating: 0, count: 4 * n)
            let samples = (0..<n).map { i in
                let (a, w, m) = recording.sample(i)
                return MotionSample(time: recording.times[i], acceleration: a, rotationRate: w, magneticField: m)
            }
            DeviceMotionSmoother(configuration: configuration).smooth(samples) { i, m in
                attitude[4 * i] = m.attitude.w; attitude[4 * i + 1] = m.attitude.x
                attitude[4 * i + 2] = m.attitude.y; attitude[4 * i + 3] = m.attitude.z
            }
            return attitude
        }
        let off = try handle(0), nine = try handle(9)
        #expect(off != nine)
        #expect(off == swift(0) && nine == swift(9))
        #expect(nine == run { poise_fusion_smooth(&c, n, recording.times, recording.acc, recording.gyr, recording.mag, $0, nil) })
        #expect(poise_fusion_smooth_with(nil, n, recording.times, recording.acc, recording.gyr, recording.mag, nil, nil)
                == POISE_ERROR_INVALID_HANDLE)
    }

    /// When two lanes can run: a long buffer with outputs or a magnetometer; not a short one,
    /// not one whose outputs overlap its inputs, not a 6D one without outputs.
    @Test func twoLanesRunOnlyWhereTheyShould() throws {
        let n = FusionLanes.minimumCount
        let recording = Recording(count: n)
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let estimator = DeviceMotionEstimator(configuration: .init(sampleRate: 100))
        var output = [Double](repeating: 0, count: 4 * n)
        var inputs = recording.acc + [Double](repeating: 0, count: n)
        try output.withUnsafeMutableBufferPointer { q in
            try inputs.withUnsafeMutableBufferPointer { a in
                let o = poise_fusion_outputs(attitude: q.baseAddress, gravity: nil, user_acceleration: nil, rotation_rate: nil,
                                             bias: nil, heading: nil, flags: nil)
                func run(_ count: Int, acc: UnsafePointer<Double>, mag: Bool, outputs: poise_fusion_outputs?) -> Bool {
                    var e = estimator
                    return FusionLanes.run(&e, count: count, times: recording.times, acc: acc, gyr: recording.gyr,
                                           mag: mag ? recording.mag : nil, outputs: outputs)
                }
                let acc = try #require(UnsafePointer(a.baseAddress))
                #expect(run(n, acc: acc, mag: true, outputs: o))
                #expect(run(n, acc: acc, mag: true, outputs: nil))
                #expect(!run(n - 1, acc: acc, mag: true, outputs: o))
                #expect(!run(n, acc: acc, mag: false, outputs: nil))
                // The quaternions written over the accelerometer samples (4 per row over 3).
                let aliased = poise_fusion_outputs(attitude: a.baseAddress, gravity: nil, user_acceleration: nil, rotation_rate: nil,
                                                   bias: nil, heading: nil, flags: nil)
                #expect(!run(n, acc: acc, mag: true, outputs: aliased))
                #expect(FusionLanes.overlap(aliased, count: n, inputs: [acc]))
                #expect(!FusionLanes.overlap(o, count: n, inputs: [acc]))
            }
        }
    }

    @Test func savedStateResumesExactlyAndBadBytesAreRefused() throws {
        let n = 2000
        let recording = Recording(count: n)
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let a = try makeFusion(c), b = try makeFusion(c)
        defer { poise_fusion_destroy(a, nil); poise_fusion_destroy(b, nil) }
        #expect(poise_fusion_update_buffer(a, 1000, recording.times, recording.acc, recording.gyr, recording.mag, nil, nil) == POISE_OK)
        var bytes = [UInt8](repeating: 0, count: poise_fusion_state_size())
        var written = 0
        var error = poise_error()
        #expect(poise_fusion_save_state(a, &bytes, bytes.count, &written, &error) == POISE_OK)
        #expect(written == bytes.count && written > 100)
        #expect(poise_fusion_restore_state(b, bytes, bytes.count, &error) == POISE_OK)
        // The restored estimator reports the saved one's last sample (inputs and flags too).
        var savedMotion = poise_motion(), restoredMotion = poise_motion()
        #expect(poise_fusion_get_motion(a, &savedMotion, nil) == POISE_OK)
        #expect(poise_fusion_get_motion(b, &restoredMotion, nil) == POISE_OK)
        #expect(restoredMotion.user_acceleration == savedMotion.user_acceleration
                && restoredMotion.rotation_rate == savedMotion.rotation_rate && restoredMotion.flags == savedMotion.flags
                && restoredMotion.attitude == savedMotion.attitude && savedMotion.user_acceleration.0 != 0)
        // Both continue identically over the second half.
        var qa = [Double](repeating: 0, count: 4 * 1000), qb = qa
        for (handle, q) in [(a, 0), (b, 1)] {
            var out = [Double](repeating: 0, count: 4 * 1000)
            out.withUnsafeMutableBufferPointer { p in
                var outputs = poise_fusion_outputs()
                outputs.attitude = p.baseAddress
                _ = recording.times.withUnsafeBufferPointer { t in recording.acc.withUnsafeBufferPointer { ac in
                    recording.gyr.withUnsafeBufferPointer { g in recording.mag.withUnsafeBufferPointer { m in
                        poise_fusion_update_buffer(handle, 1000, t.baseAddress! + 1000, ac.baseAddress! + 3000, g.baseAddress! + 3000,
                                                   m.baseAddress! + 3000, &outputs, nil)
                    } } } }
            }
            if q == 0 { qa = out } else { qb = out }
        }
        #expect(qa == qb && qa[4] != 0)
        // Too small, corrupted, truncated, other configuration: refused, state kept.
        var small = [UInt8](repeating: 0, count: 10)
        #expect(poise_fusion_save_state(a, &small, 10, nil, &error) == POISE_ERROR_BUFFER_TOO_SMALL)
        var corrupt = bytes
        corrupt[corrupt.count / 2] ^= 0x10
        #expect(poise_fusion_restore_state(b, corrupt, corrupt.count, &error) == POISE_ERROR_STATE)
        #expect(message(error).contains("checksum"))
        #expect(poise_fusion_restore_state(b, bytes, bytes.count - 1, &error) == POISE_ERROR_STATE)
        #expect(poise_fusion_restore_state(b, nil, 0, &error) == POISE_ERROR_NULL_ARGUMENT)
        var other = c
        other.accelerometer_time_constant = 2
        let d = try makeFusion(other)
        defer { poise_fusion_destroy(d, nil) }
        #expect(poise_fusion_restore_state(d, bytes, bytes.count, &error) == POISE_ERROR_STATE)
        #expect(message(error).contains("configuration"))
    }

    @Test func badConfigurationsNameTheirField() {
        var error = poise_error()
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let cases: [(WritableKeyPath<poise_fusion_config, Double>, Double, String)] = [
            (\.sample_rate, .nan, "sample_rate"), (\.sample_rate, 0, "sample_rate"), (\.accelerometer_time_constant, -1, "accelerometer_time_constant"),
            (\.correction_rate, .infinity, "correction_rate"), (\.maximum_time_step, 0, "maximum_time_step"), (\.declination, .nan, "declination"),
            (\.magnetic_offset_time_constant, 0, "magnetic_offset_time_constant"),
            (\.magnetic_offset_minimum_coverage, -1, "magnetic_offset_minimum_coverage"),
        ]
        for (path, value, name) in cases {
            var bad = c
            bad[keyPath: path] = value
            #expect(poise_fusion_create(&bad, &error) == nil)
            #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue) && message(error).hasPrefix(name), "\(message(error))")
        }
        var bad = c
        bad.reference = 9
        #expect(poise_fusion_create(&bad, &error) == nil && message(error).hasPrefix("reference"))
        bad = c
        bad.rest_bias_estimation = 2
        #expect(poise_fusion_create(&bad, &error) == nil && message(error).hasPrefix("rest_bias_estimation"))
        #expect(poise_fusion_create(nil, &error) == nil && error.code == Int32(POISE_ERROR_NULL_ARGUMENT.rawValue))
    }

    @Test func hostileSamplesAreFlaggedAndNeverReachTheState() throws {
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let fusion = try makeFusion(c)
        defer { poise_fusion_destroy(fusion, nil) }
        var random = TestRandom(state: 11)
        let specials = [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0, .leastNonzeroMagnitude, 1]
        var motion = poise_motion()
        var error = poise_error()
        for i in 0..<5000 {
            func value() -> Double { random.next() % 3 == 0 ? specials[Int(random.next() % 8)] : random.unit() }
            let t = random.next() % 5 == 0 ? value() : Double(i) * 0.01
            let status = poise_fusion_update(fusion, t, [value(), value(), value()], [value(), value(), value()],
                                             random.next() % 2 == 0 ? nil : [value(), value(), value()], &motion, &error)
            #expect(status == POISE_OK)
        }
        let finalAttitude = [motion.attitude.0, motion.attitude.1, motion.attitude.2, motion.attitude.3]
        #expect(finalAttitude.allSatisfy { $0.isFinite })
        #expect(poise_fusion_update(fusion, 0, nil, [0, 0, 0], nil, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_update(fusion, 0, [0, 0, 1], nil, nil, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_update_buffer(fusion, 5, nil, nil, nil, nil, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_update_buffer(fusion, Int.max / 2, [0], [0], [0], nil, nil, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_fusion_update_buffer(fusion, 0, nil, nil, nil, nil, nil, &error) == POISE_OK)
    }

    @Test func repeatedAndBackwardTimesAreFlagged() throws {
        var c = poise_fusion_config()
        _ = poise_fusion_config_default(&c, 100, nil)
        let fusion = try makeFusion(c)
        defer { poise_fusion_destroy(fusion, nil) }
        var motion = poise_motion()
        var flagged: [Bool] = []
        for t in [0.0, 0.01, 0.01, 0.005, 0.015] {
            #expect(poise_fusion_update(fusion, t, [0, 0, 1], [0, 0, 0.5], [0, 20, -45], &motion, nil) == POISE_OK)
            flagged.append(motion.flags & UInt32(POISE_FLAG_TIME_NOT_INCREASING) != 0)
        }
        #expect(flagged == [false, false, true, true, false])
    }
}
