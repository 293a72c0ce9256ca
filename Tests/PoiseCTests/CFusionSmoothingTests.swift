import CPoise
import Poise
import PoiseC
import Testing

/// `poise_fusion_smooth` and `poise_fusion_config_offline`: the Swift `DeviceMotionSmoother` over
/// the caller's arrays.
@Suite struct CFusionSmoothingTests {
    @Test func offlineConfigurationIsTheSmoothersDefault() {
        var c = poise_fusion_config()
        #expect(poise_fusion_config_offline(&c, 200, 0, nil) == POISE_OK)
        let swift = DeviceMotionSmoother.defaultConfiguration(sampleRate: 200, reference: .arbitraryZVertical)
        #expect(c.sample_rate == 200 && c.reference == 0 && c.magnetometer_time_constant == swift.magnetometerTimeConstant)
        #expect(c.magnetometer_time_constant != DeviceMotionConfiguration().magnetometerTimeConstant)
        var e = poise_error()
        #expect(poise_fusion_config_offline(&c, 200, 7, &e) == POISE_ERROR_INVALID_ARGUMENT)
    }

    @Test(arguments: [2, 0] as [Int32])
    func smoothEqualsTheSwiftSmootherBitForBit(reference: Int32) throws {
        let n = 3000
        let recording = CFusionTests.Recording(count: n)
        var c = poise_fusion_config()
        #expect(poise_fusion_config_offline(&c, 100, reference, nil) == POISE_OK)
        var attitude = [Double](repeating: 0, count: 4 * n), gravity = [Double](repeating: 0, count: 3 * n)
        var bias = [Double](repeating: 0, count: 3 * n), heading = [Double](repeating: 0, count: n)
        var flags = [UInt32](repeating: 0, count: n)
        let status = attitude.withUnsafeMutableBufferPointer { q in gravity.withUnsafeMutableBufferPointer { g in
            bias.withUnsafeMutableBufferPointer { b in heading.withUnsafeMutableBufferPointer { h in flags.withUnsafeMutableBufferPointer { f in
                var outputs = poise_fusion_outputs(attitude: q.baseAddress, gravity: g.baseAddress, user_acceleration: nil,
                                                   rotation_rate: nil, bias: b.baseAddress, heading: h.baseAddress, flags: f.baseAddress)
                return poise_fusion_smooth(&c, n, recording.times, recording.acc, recording.gyr, recording.mag, &outputs, nil)
            } } } } }
        #expect(status == POISE_OK)
        let nine = reference != 0
        let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(
            sampleRate: 100, reference: nine ? .magneticNorthZVertical : .arbitraryZVertical))
        let samples = (0..<n).map { i in
            let (a, w, m) = recording.sample(i)
            return MotionSample(time: recording.times[i], acceleration: a, rotationRate: w, magneticField: nine ? m : nil)
        }
        var differing = 0
        for (i, motion) in smoother.smooth(samples).enumerated() {
            let q = motion.attitude
            if [q.w, q.x, q.y, q.z] != Array(attitude[(4 * i)..<(4 * i + 4)])
                || [motion.gravity.x, motion.gravity.y, motion.gravity.z] != Array(gravity[(3 * i)..<(3 * i + 3)])
                || [motion.bias.x, motion.bias.y, motion.bias.z] != Array(bias[(3 * i)..<(3 * i + 3)])
                || UInt32(motion.flags.rawValue) != flags[i] { differing += 1 }
            if nine ? heading[i] != motion.heading : !heading[i].isNaN { differing += 1 }
        }
        #expect(differing == 0)
        // Not the online estimate.
        let fusion = try #require(poise_fusion_create(&c, nil))
        defer { poise_fusion_destroy(fusion, nil) }
        var online = [Double](repeating: 0, count: 4 * n)
        online.withUnsafeMutableBufferPointer { q in
            var outputs = poise_fusion_outputs()
            outputs.attitude = q.baseAddress
            _ = poise_fusion_update_buffer(fusion, n, recording.times, recording.acc, recording.gyr, recording.mag, &outputs, nil)
        }
        #expect(online != attitude)
    }

    @Test func badArgumentsAreReported() {
        var c = poise_fusion_config()
        _ = poise_fusion_config_offline(&c, 100, 2, nil)
        var error = poise_error()
        #expect(poise_fusion_smooth(nil, 1, [0], [0, 0, 1], [0, 0, 0], nil, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_smooth(&c, 5, nil, nil, nil, nil, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_fusion_smooth(&c, Int.max / 2, [0], [0], [0], nil, nil, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_fusion_smooth(&c, 0, nil, nil, nil, nil, nil, &error) == POISE_OK)
        var bad = c
        bad.accelerometer_time_constant = -1
        #expect(poise_fusion_smooth(&bad, 1, [0], [0, 0, 1], [0, 0, 0], nil, nil, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(message(error).hasPrefix("accelerometer_time_constant"))
        // Non-finite samples: flagged, finite outputs.
        var q = [Double](repeating: 0, count: 12), f = [UInt32](repeating: 0, count: 3)
        let status = q.withUnsafeMutableBufferPointer { qp in f.withUnsafeMutableBufferPointer { fp in
            var outputs = poise_fusion_outputs()
            outputs.attitude = qp.baseAddress
            outputs.flags = fp.baseAddress
            return poise_fusion_smooth(&c, 3, [0, 0.01, 0.02], [0, 0, 1, .nan, 0, 1, 0, 0, 1], [0, 0, 0, 0, 0, 0, .infinity, 0, 0],
                                       [0, 20, -40, 0, 20, -40, 0, 20, -40], &outputs, &error)
        } }
        #expect(status == POISE_OK && q.allSatisfy(\.isFinite))
        #expect(f[1] & UInt32(POISE_FLAG_INVALID_INPUT) != 0 && f[2] & UInt32(POISE_FLAG_INVALID_INPUT) != 0)
    }
}
