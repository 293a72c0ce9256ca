import CPoise
import Poise
import PoiseC
import Testing

@Suite struct COrientationAndMetricTests {
    @Test func tiltEqualsTheSwiftControllerOnBothPaths() throws {
        var settings = poise_tilt_settings()
        #expect(poise_tilt_settings_default(&settings, nil) == POISE_OK)
        #expect(settings.dead_zone == 3 && settings.saturation == 30 && settings.curve_exponent == 1 && settings.gravity_time_constant == 0.1)
        settings.curve_exponent = 2
        var error = poise_error()
        let tilt = try #require(poise_tilt_create(&settings, &error), "\(message(error))")
        defer { poise_tilt_destroy(tilt, nil) }
        var swift = try TiltController(settings: TiltSettings(stick: StickResponse(curve: .quadratic)))
        var output = poise_tilt_output()
        var events: [Int32] = []
        for i in 0..<300 {
            let angle = Double(min(i, 100)) * 0.005   // tilts to 0.5 rad about x
            let acc = SIMD3(0, Double.sin(angle), Double.cos(angle))
            if i == 200 { _ = poise_tilt_recalibrate(tilt, nil); swift.requestRecalibration() }
            #expect(poise_tilt_process_sample(tilt, Double(i) / 60, [acc.x, acc.y, acc.z], nil, &output, nil) == POISE_OK)
            let expected = swift.process(MotionSample(time: Double(i) / 60, acceleration: acc, rotationRate: SIMD3(repeating: .nan)))
            #expect(output.stick_x == expected.stick.x && output.stick_y == expected.stick.y && output.pitch == expected.angles.pitch)
            events.append(output.event)
        }
        #expect(events[0] == Int32(POISE_HOME_INITIAL) && events[200] == Int32(POISE_HOME_REQUESTED) && events[1] == Int32(POISE_HOME_NONE))
        // Fused path: a quaternion tilt of 20 degrees about x after a flat home.
        #expect(poise_tilt_reset(tilt, nil) == POISE_OK)
        _ = poise_tilt_process_attitude(tilt, 0, [1, 0, 0, 0], nil, &output, nil)
        let half = 10.0 * Double.pi / 180
        #expect(poise_tilt_process_attitude(tilt, 0.1, [Double.cos(half), Double.sin(half), 0, 0], nil, &output, nil) == POISE_OK)
        #expect(abs(output.pitch - 20 * Double.pi / 180) < 1e-12)
        #expect(output.stick_y < 0 && output.stick_x == 0)
        var home = [0.0, 0, 0, 0]
        var hasHome: Int32 = 0
        #expect(poise_tilt_get_home(tilt, &home, &hasHome, nil) == POISE_OK)
        #expect(hasHome == 1 && home == [1, 0, 0, 0])
        #expect(poise_tilt_process_attitude(tilt, .nan, [1, 0, 0, 0], nil, &output, &error) == POISE_ERROR_NON_FINITE)
        #expect(poise_tilt_process_attitude(tilt, 1, [0, 0, 0, 0], nil, &output, &error) == POISE_ERROR_INVALID_ARGUMENT)
        settings.saturation = 1
        #expect(poise_tilt_create(&settings, &error) == nil && message(error).contains("saturation"))
    }

    @Test func alignmentRemapsVectorsAndAttitudes() throws {
        var alignment = poise_alignment()
        var error = poise_error()
        #expect(poise_alignment_parse("+Y-X+Z", 0, &alignment, &error) == POISE_OK)
        var v = [1.0, 2, 3, -4, 5, 6]
        #expect(poise_alignment_apply(&alignment, &v, 2, nil) == POISE_OK)
        #expect(v == [2, -1, 3, 5, 4, 6])
        var f: [Float] = [1, 2, 3]
        #expect(poise_alignment_apply_f(&alignment, &f, 1, nil) == POISE_OK)
        #expect(f == [2, -1, 3])
        // The remapped attitude maps remapped vectors like the original maps the originals.
        let q = Quaternion<Double>(axis: SIMD3(1, 2, 3), angle: 0.7)
        var qs = [q.w, q.x, q.y, q.z]
        #expect(poise_alignment_apply_attitudes(&alignment, &qs, 1, nil) == POISE_OK)
        let remapped = Quaternion(w: qs[0], x: qs[1], y: qs[2], z: qs[3])
        let sensor = SIMD3(0.3, -0.2, 0.9)
        let body = SIMD3(sensor.y, -sensor.x, sensor.z)
        #expect(((remapped.act(body)) - q.act(sensor)).lengthSquared < 1e-28)
        #expect(poise_alignment_parse("+X+Y-Z", 0, &alignment, &error) == POISE_ERROR_PARSE)
        #expect(message(error).contains("reflection"))
        #expect(poise_alignment_parse("+X+Y-Z", 1, &alignment, &error) == POISE_OK)
        #expect(poise_alignment_apply_attitudes(&alignment, &qs, 1, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_alignment_parse("+X+X+Z", 0, &alignment, &error) == POISE_ERROR_PARSE)
        var hostile = poise_alignment(axis: (0, 0, 2), sign: (1, 1, 1))
        #expect(poise_alignment_apply(&hostile, &v, 2, &error) == POISE_ERROR_INVALID_ARGUMENT)
        hostile = poise_alignment(axis: (0, 7, 2), sign: (1, 1, 1))
        #expect(poise_alignment_apply(&hostile, &v, 2, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_alignment_apply(nil, &v, 2, &error) == POISE_ERROR_NULL_ARGUMENT)
    }

    /// `poise_nominal_rate` is the commands' rule (`NominalRate`): only the first
    /// POISE_NOMINAL_RATE_ROWS rows count.
    @Test func nominalRateIsTheCommandsRule() throws {
        var times = (0 ..< 5000).map { Double($0) / 128 }
        for i in 2048 ..< times.count { times[i] = times[2047] + Double(i - 2047) / 32 }
        var rate = 0.0
        var error = poise_error()
        #expect(poise_nominal_rate(times, times.count, &rate, &error) == POISE_OK)
        #expect(rate == 128 && rate == NominalRate.estimate(times: times) && POISE_NOMINAL_RATE_ROWS == NominalRate.rowCount)
        #expect(poise_nominal_rate(times, 3, &rate, &error) == POISE_OK && rate == 128)
        let still = [1.0, 1.0, 0.5]
        rate = -1
        #expect(poise_nominal_rate(still, 3, &rate, &error) == POISE_ERROR_INVALID_ARGUMENT && rate == -1)
        #expect(poise_nominal_rate(nil, 0, &rate, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_nominal_rate(nil, 4, &rate, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_nominal_rate(times, 4, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
    }

    @Test func latencyAndJitterEqualTheSwiftMetrics() throws {
        var milliseconds = 0.0
        var samples: Int64 = 0
        #expect(poise_latency90("lowpass:cutoff=5", 100, Int32(POISE_STEP_TILT.rawValue), &milliseconds, &samples, nil) == POISE_OK)
        var swiftFilter = try FilterSpec(parsing: "lowpass:cutoff=5").makeFilter(SIMD3<Double>.self, sampleRate: 100)
        let expected = latency90(&swiftFilter, step: .tilt, sampleRate: 100)
        #expect(samples == Int64(expected.samples!) && milliseconds == expected.milliseconds! && samples > 3)
        var error = poise_error()
        #expect(poise_latency90("lowpass:cutoff=5", 100, 7, &milliseconds, &samples, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_latency90("nonsense", 100, 0, &milliseconds, &samples, &error) == POISE_ERROR_PARSE)

        var random = TestRandom(state: 5)
        let n = 500
        let times = (0..<n).map { Double($0) / 100 }
        let input = (0..<3 * n).map { _ in 0.01 * random.unit() }
        var output = input
        let filter = try #require(poise_filter_create("lowpass:cutoff=2", 100, nil))
        defer { poise_filter_destroy(filter, nil) }
        _ = poise_filter_process_buffer(filter, &output, n, nil)
        var result = poise_jitter_result()
        let segments: [Int64] = [0, 250, 250, 500]
        #expect(poise_jitter(output, input, times, n, segments, 2, 1, &result, nil) == POISE_OK)
        func vectors(_ a: [Double]) -> [SIMD3<Double>] { (0..<n).map { SIMD3(a[3 * $0], a[3 * $0 + 1], a[3 * $0 + 2]) } }
        let swift = jitter(output: vectors(output), input: vectors(input), times: times, segments: [0..<250, 250..<500], window: 1)
        #expect(result.jitter == swift.jitter && result.raw_jitter == swift.rawJitter && result.evaluated_samples == Int64(swift.evaluatedSamples))
        #expect(result.attenuation > 1)
        #expect(poise_jitter(output, input, times, n, [0, 600], 1, 1, &result, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_jitter(output, input, times, n, nil, 0, 0, &result, &error) == POISE_ERROR_INVALID_ARGUMENT)
        var badTimes = times
        badTimes[3] = .nan
        #expect(poise_jitter(output, input, badTimes, n, nil, 0, 1, &result, &error) == POISE_ERROR_NON_FINITE)
        #expect(poise_jitter(nil, input, times, n, nil, 0, 1, &result, &error) == POISE_ERROR_NULL_ARGUMENT)
        // Times that go back inside a segment are refused (they would break the moving window).
        var shuffled = times
        shuffled.swapAt(100, 300)
        #expect(poise_jitter(output, input, shuffled, n, nil, 0, 1, &result, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(message(error).contains("row 101"), "\(message(error))")
        #expect(poise_jitter(output, input, shuffled, n, [0, 100, 301, 500], 2, 1, &result, &error) == POISE_OK)
    }
}
