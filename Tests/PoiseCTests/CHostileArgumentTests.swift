import CPoise
import Poise
import PoiseC
import Testing

/// Every entry point with NULL or garbage arguments returns an error instead of trapping.
@Suite struct CHostileArgumentTests {
    @Test func everyEntryPointRejectsNullArguments() {
        var e = poise_error()
        let null = POISE_OK
        var statuses: [poise_status] = [
            poise_filter_reset(nil, &e), poise_filter_process(nil, nil, &e), poise_filter_process_buffer(nil, nil, 1, &e),
            poise_filter_process_buffer_f(nil, nil, 1, &e), poise_filter_spec(nil, nil, 0, &e),
            poise_fusion_config_default(nil, 100, &e), poise_fusion_config_vqf(nil, 100, 0, &e),
            poise_fusion_config_fast(nil, 100, 0, &e),
            poise_fusion_reset(nil, &e), poise_fusion_get_config(nil, nil, &e),
            poise_fusion_update(nil, 0, nil, nil, nil, nil, &e), poise_fusion_get_motion(nil, nil, &e),
            poise_fusion_update_buffer(nil, 1, nil, nil, nil, nil, nil, &e), poise_fusion_save_state(nil, nil, 0, nil, &e),
            poise_fusion_restore_state(nil, nil, 0, &e), poise_tilt_settings_default(nil, &e), poise_tilt_reset(nil, &e),
            poise_tilt_recalibrate(nil, &e), poise_tilt_process_sample(nil, 0, nil, nil, nil, &e),
            poise_tilt_process_attitude(nil, 0, nil, nil, nil, &e), poise_tilt_get_home(nil, nil, nil, &e),
            poise_alignment_parse(nil, 0, nil, &e), poise_alignment_apply(nil, nil, 1, &e), poise_alignment_apply_f(nil, nil, 1, &e),
            poise_alignment_apply_attitudes(nil, nil, 1, &e), poise_latency90(nil, 100, 0, nil, nil, &e),
            poise_jitter(nil, nil, nil, 1, nil, 0, 1, nil, &e),
        ]
        #expect(statuses.allSatisfy { $0 != null })
        #expect(poise_filter_create(nil, 100, &e) == nil && poise_fusion_create(nil, &e) == nil && poise_tilt_create(nil, &e) == nil)
        // Destroying NULL is a no-op, as free(NULL).
        statuses = [poise_filter_destroy(nil, &e), poise_fusion_destroy(nil, &e), poise_tilt_destroy(nil, &e)]
        #expect(statuses.allSatisfy { $0 == POISE_OK })
        // NULL error pointers are allowed everywhere.
        #expect(poise_filter_reset(nil, nil) == POISE_ERROR_INVALID_HANDLE)
    }

    @Test func aHugeSizeIsReportedAsTheUnsignedNumberPassed() throws {
        // size_t arrives as Int: SIZE_MAX must read 18446744073709551615 in the message, not -1.
        let filter = try #require(poise_filter_create("adaptive", 100, nil))
        defer { poise_filter_destroy(filter, nil) }
        var configuration = poise_fusion_config()
        poise_fusion_config_default(&configuration, 100, nil)
        let fusion = try #require(poise_fusion_create(&configuration, nil))
        defer { poise_fusion_destroy(fusion, nil) }
        var e = poise_error()
        var buffer = [Double](repeating: 0, count: 64)
        var text = [CChar](repeating: 0, count: 8)
        let input = [Double](repeating: 0, count: 3), times = [0.0]
        var result = poise_jitter_result()
        let sizeMax = -1
        let calls: [(String, () -> poise_status)] = [
            ("process_buffer", { poise_filter_process_buffer(filter, &buffer, sizeMax, &e) }),
            ("filter_spec", { poise_filter_spec(filter, &text, sizeMax, &e) }),
            ("save_state", { poise_fusion_save_state(fusion, &buffer, sizeMax, nil, &e) }),
            ("restore_state", { poise_fusion_restore_state(fusion, &buffer, sizeMax, &e) }),
            ("jitter", { poise_jitter(input, input, times, sizeMax, nil, 0, 1, &result, &e) }),
        ]
        for (name, call) in calls {
            e = poise_error()
            #expect(call() != POISE_OK, "\(name)")
            #expect(message(e).contains("18446744073709551615") && !message(e).contains("-1"), "\(name): \(message(e))")
        }
    }

    @Test func randomSpecStringsAndSettingsNeverTrap() {
        var random = TestRandom(state: 99)
        let alphabet = Array("lowpass:cutoff=5,highbutterorder1e309nan-+.:=,adaptive oneeuro accelgraph é\t")
        let valid = ["lowpass:cutoff=5", "butter:bandpass,order=4,low=1,high=10", "adaptive:cutoff=5,threshold=0.2",
                     "oneeuro:mincutoff=1,beta=0.5", "accelgraph:highpass,cutoff=2,adaptive", "factor:k=0.3,start=zero"]
        var created = 0
        for _ in 0..<3000 {
            // A valid spec with up to three characters replaced, or random characters.
            var characters = Array(valid[Int(random.next() % UInt64(valid.count))])
            if random.next() % 4 == 0 {
                characters = (0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            } else {
                for _ in 0..<Int(random.next() % 4) {
                    characters[Int(random.next() % UInt64(characters.count))] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                }
            }
            let spec = String(characters)
            let rates = [100.0, 0, -1, .nan, .infinity, 1e-300, 1e300, 3]
            var e = poise_error()
            if let f = poise_filter_create(spec, rates[Int(random.next() % 8)], &e) {
                created += 1
                var x = [random.unit(), random.unit(), random.unit()]
                #expect(poise_filter_process(f, &x, &e) == POISE_OK)
                poise_filter_destroy(f, nil)
            } else {
                #expect(e.code != 0 && !message(e).isEmpty)
            }
        }
        #expect(created > 0)
        // Random fusion configurations: created or rejected, never a trap; created ones run.
        let specials = [Double.nan, .infinity, -.infinity, 0, -1, 1e-300, 1e300, 1, 0.5, 100]
        var accepted = 0
        for _ in 0..<500 {
            var c = poise_fusion_config()
            _ = poise_fusion_config_default(&c, 100, nil)
            withUnsafeMutableBytes(of: &c) { bytes in
                let doubles = bytes.count / 8
                for _ in 0..<3 {
                    let slot = Int(random.next() % UInt64(doubles))
                    bytes.storeBytes(of: specials[Int(random.next() % UInt64(specials.count))], toByteOffset: 8 * slot, as: Double.self)
                }
            }
            var e = poise_error()
            if let f = poise_fusion_create(&c, &e) {
                accepted += 1
                for i in 0..<200 {
                    _ = poise_fusion_update(f, Double(i) * 0.01, [0, 0.1, 1], [0.5, 0, 0.1], [20, 0, -40], nil, nil)
                }
                var m = poise_motion()
                #expect(poise_fusion_get_motion(f, &m, nil) == POISE_OK)
                poise_fusion_destroy(f, nil)
            } else {
                #expect(e.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue))
            }
        }
        #expect(accepted > 0)
    }

    @Test func tiltAndAlignmentTakeAnyNumbers() throws {
        var random = TestRandom(state: 21)
        let specials = [Double.nan, .infinity, -.infinity, 0, 1e300, -1e300, 1e-310, 1, -1]
        func value() -> Double { random.next() % 3 == 0 ? specials[Int(random.next() % UInt64(specials.count))] : random.unit() }
        var settings = poise_tilt_settings()
        _ = poise_tilt_settings_default(&settings, nil)
        settings.dynamic_recalibration = 1
        settings.hold_time = 0.05
        let tilt = try #require(poise_tilt_create(&settings, nil))
        defer { poise_tilt_destroy(tilt, nil) }
        var output = poise_tilt_output()
        var alignment = poise_alignment()
        _ = poise_alignment_parse("-Z+X-Y", 0, &alignment, nil)
        for i in 0..<3000 {
            let t = random.next() % 7 == 0 ? value() : Double(i) * 0.01
            let status = i % 2 == 0
                ? poise_tilt_process_sample(tilt, t, [value(), value(), value()], random.next() % 2 == 0 ? nil : [value(), value(), value()], &output, nil)
                : poise_tilt_process_attitude(tilt, t, [value(), value(), value(), value()], nil, &output, nil)
            #expect([POISE_OK, POISE_ERROR_NON_FINITE, POISE_ERROR_INVALID_ARGUMENT].contains(status))
            #expect(abs(output.stick_x) <= 1 && abs(output.stick_y) <= 1, "stick \(output.stick_x), \(output.stick_y)")
            var vectors = [value(), value(), value()]
            #expect(poise_alignment_apply(&alignment, &vectors, 1, nil) == POISE_OK)
            var q = [value(), value(), value(), value()]
            #expect(poise_alignment_apply_attitudes(&alignment, &q, 1, nil) == POISE_OK)
        }
        // Random tilt settings: created or refused with a message, never a trap.
        for _ in 0..<300 {
            var s = settings
            withUnsafeMutableBytes(of: &s) { bytes in
                let slot = Int(random.next() % UInt64(bytes.count / 8))
                bytes.storeBytes(of: specials[Int(random.next() % UInt64(specials.count))], toByteOffset: 8 * slot, as: Double.self)
            }
            var e = poise_error()
            if let other = poise_tilt_create(&s, &e) { poise_tilt_destroy(other, nil) } else { #expect(!message(e).isEmpty) }
        }
    }
}
