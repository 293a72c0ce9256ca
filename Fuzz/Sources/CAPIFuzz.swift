// libFuzzer target: the C API (include/poise.h) driven by arbitrary bytes. The input is a
// program: a filter spec and rate, fusion and tilt settings taken raw from the bytes (any double:
// NaN, infinities, 1e308, negative zero), then a sequence of calls — filter samples and buffers
// (double and float, in place and from one buffer to another, overlapping ones refused), fusion
// updates one at a time and in buffers with any subset of outputs, state saved, corrupted and
// restored, tilt samples and attitudes, axis alignments from text, latency and jitter with
// arbitrary segments, gyro aiming (samples, frames, calibration set, begun and ended) and flick
// stick updates — each with hostile values and sometimes NULL pointers. Buffers are always as
// long as the counts passed (a C caller that lies about a length is outside what any C library
// can check). Checked on every call: the status is one of poise_status, the error's code equals
// it, the message is NUL-terminated within its array, and a failed creation returns NULL.
// AddressSanitizer checks every access.
import CPoise

struct Bytes {
    var data: UnsafeBufferPointer<UInt8>
    var index = 0
    var isEmpty: Bool { index >= data.count }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < data.count ? data[index] : 0
    }

    /// Eight raw bytes as a double (every bit pattern), or a tame value when the top bit of the
    /// first byte is clear.
    mutating func double() -> Double {
        let tag = byte()
        if tag & 0x80 == 0 { return Double(Int(tag & 0x3F) - 32) / 8 }
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    mutating func text(maximum: Int) -> [CChar] {
        let count = Int(byte()) % (maximum + 1)
        var characters = (0..<count).map { _ in CChar(bitPattern: byte()) }
        characters.append(0)
        return characters
    }
}

/// `body` with a pointer to `array`'s elements, or NULL when `null`.
func pointer<T, R>(_ null: Bool, _ array: inout [T], _ body: (UnsafeMutablePointer<T>?) -> R) -> R {
    array.withUnsafeMutableBufferPointer { body(null ? nil : $0.baseAddress) }
}

/// `body` with a pointer to `value`, or NULL when `null`.
func pointer<T, R>(_ null: Bool, to value: inout T, _ body: (UnsafeMutablePointer<T>?) -> R) -> R {
    withUnsafeMutablePointer(to: &value) { body(null ? nil : $0) }
}

/// `call(input, output, count)` on `values` for `poise_filter_process_into(_f)`: output a separate
/// buffer (mode 0), the input itself (1), or one value further on in the input (2: overlapping,
/// with one row less so it stays inside), NULL when `nullable`.
func processInto<T: Numeric>(_ values: [T], mode: Int, rows: Int, nullable: Bool,
                             _ call: (UnsafePointer<T>?, UnsafeMutablePointer<T>?, Int) -> poise_status) -> poise_status {
    var values = values
    var output = [T](repeating: 0, count: values.count)
    return values.withUnsafeMutableBufferPointer { v in
        output.withUnsafeMutableBufferPointer { o in
            let into = nullable ? nil : mode == 0 ? o.baseAddress : mode == 1 ? v.baseAddress : v.baseAddress! + 1
            return call(v.baseAddress, into, mode == 2 ? rows - 1 : rows)
        }
    }
}

func check(_ status: poise_status, _ error: poise_error, _ call: String) {
    guard status.rawValue <= POISE_ERROR_BUFFER_TOO_SMALL.rawValue else { fatalError("\(call): status \(status.rawValue)") }
    guard error.code == Int32(status.rawValue) else { fatalError("\(call): error code \(error.code) for status \(status.rawValue)") }
    let terminated = withUnsafeBytes(of: error.message) { $0.contains(0) }
    guard terminated else { fatalError("\(call): message not NUL-terminated") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func cAPIFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Bytes(data: UnsafeBufferPointer(start: data, count: size))
    var error = poise_error()

    let spec = input.text(maximum: 40)
    var filter = spec.withUnsafeBufferPointer { poise_filter_create($0.baseAddress, input.double(), &error) }
    if filter == nil && error.code == 0 { fatalError("poise_filter_create: NULL with POISE_OK") }
    if filter == nil { filter = poise_filter_create("lowpass:cutoff=5", 100, &error) }

    var config = poise_fusion_config()
    check(poise_fusion_config_default(&config, 100, &error), error, "config_default")
    switch input.byte() % 4 {
    case 0: break
    case 1: check(poise_fusion_config_vqf(&config, input.double(), Int32(input.byte() % 6), &error), error, "config_vqf")
    case 2: check(poise_fusion_config_fast(&config, input.double(), Int32(input.byte() % 6), &error), error, "config_fast")
    default:
        config.sample_rate = input.double(); config.bias_sigma_rest = input.double()
        config.correction_rate = input.double(); config.maximum_time_step = input.double()
        config.reference = Int32(bitPattern: UInt32(input.byte()) % 6)
    }
    var fusion = poise_fusion_create(&config, &error)
    if fusion == nil { check(poise_fusion_config_default(&config, 100, &error), error, "config_default"); fusion = poise_fusion_create(&config, &error) }

    var tiltSettings = poise_tilt_settings()
    check(poise_tilt_settings_default(&tiltSettings, &error), error, "tilt_settings_default")
    if input.byte() & 1 == 1 {
        tiltSettings.gravity_time_constant = input.double(); tiltSettings.recalibration_angle = input.double()
        tiltSettings.stillness_rate = input.double()
    }
    var tilt = poise_tilt_create(&tiltSettings, &error)
    if tilt == nil { check(poise_tilt_settings_default(&tiltSettings, &error), error, "tilt_settings_default"); tilt = poise_tilt_create(&tiltSettings, &error) }
    var gyroSettings = poise_gyro_settings()
    check(poise_gyro_settings_default(&gyroSettings, &error), error, "gyro_settings_default")
    if input.byte() & 1 == 1 {
        gyroSettings.space = Int32(bitPattern: UInt32(input.byte()) % 4); gyroSettings.sensitivity = input.double()
        gyroSettings.smoothing_threshold = input.double(); gyroSettings.sample_rate = input.double()
        gyroSettings.maximum_time_step = input.double(); gyroSettings.counts_per_degree = input.double()
    }
    var gyro = poise_gyro_create(&gyroSettings, &error)
    if gyro == nil { check(poise_gyro_settings_default(&gyroSettings, &error), error, "gyro_settings_default"); gyro = poise_gyro_create(&gyroSettings, &error) }
    var flickSettings = poise_flick_settings()
    check(poise_flick_settings_default(&flickSettings, &error), error, "flick_settings_default")
    if input.byte() & 1 == 1 { flickSettings.threshold = input.double(); flickSettings.flick_time = input.double() }
    var flick = poise_flick_create(&flickSettings, &error)
    if flick == nil { check(poise_flick_settings_default(&flickSettings, &error), error, "flick_settings_default"); flick = poise_flick_create(&flickSettings, &error) }
    defer {
        check(poise_gyro_destroy(gyro, &error), error, "gyro_destroy")
        check(poise_flick_destroy(flick, &error), error, "flick_destroy")
        check(poise_filter_destroy(filter, &error), error, "filter_destroy")
        check(poise_fusion_destroy(fusion, &error), error, "fusion_destroy")
        check(poise_tilt_destroy(tilt, &error), error, "tilt_destroy")
    }

    var steps = 0
    while !input.isEmpty && steps < 200 {
        steps += 1
        let operation = input.byte()
        let nullable = operation & 0x80 != 0   // some pointer argument is NULL
        let rows = Int(input.byte() % 17)
        var values = (0..<(4 * max(rows, 1))).map { _ in input.double() }
        switch (operation & 0x7F) % 16 {
        case 0:
            let status = nullable ? poise_filter_process(filter, nil, &error) : poise_filter_process(filter, &values, &error)
            check(status, error, "filter_process")
        case 1:
            check(pointer(nullable, &values) { poise_filter_process_buffer(filter, $0, rows, &error) }, error, "filter_process_buffer")
        case 2:
            var floats = values.map { Float($0) }
            check(pointer(nullable, &floats) { poise_filter_process_buffer_f(filter, $0, rows, &error) }, error, "filter_process_buffer_f")
        case 3:
            var motion = poise_motion()
            let status = values.withUnsafeBufferPointer { v in
                pointer(rows % 3 == 0, to: &motion) {
                    poise_fusion_update(fusion, v[0], v.baseAddress! + 1, nullable ? nil : v.baseAddress!, rows % 2 == 0 ? nil : v.baseAddress! + 1, $0, &error)
                }
            }
            check(status, error, "fusion_update")
        case 4:
            let times = (0..<rows).map { _ in input.double() }
            var attitude = [Double](repeating: 0, count: 4 * rows), vectors = [Double](repeating: 0, count: 3 * rows)
            var headings = [Double](repeating: 0, count: rows), flags = [UInt32](repeating: 0, count: rows)
            let mask = input.byte()
            let status = attitude.withUnsafeMutableBufferPointer { q in vectors.withUnsafeMutableBufferPointer { g in
                headings.withUnsafeMutableBufferPointer { h in flags.withUnsafeMutableBufferPointer { f in
                    var outputs = poise_fusion_outputs(attitude: mask & 1 != 0 ? q.baseAddress : nil, gravity: mask & 2 != 0 ? g.baseAddress : nil,
                                                       user_acceleration: nil, rotation_rate: mask & 4 != 0 ? g.baseAddress : nil,
                                                       bias: nil, heading: mask & 8 != 0 ? h.baseAddress : nil, flags: mask & 16 != 0 ? f.baseAddress : nil)
                    return times.withUnsafeBufferPointer { t in values.withUnsafeBufferPointer { v in
                        pointer(mask & 64 != 0, to: &outputs) {
                            poise_fusion_update_buffer(fusion, rows, nullable ? nil : t.baseAddress, v.baseAddress, v.baseAddress,
                                                       mask & 32 != 0 ? v.baseAddress : nil, $0, &error)
                        }
                    } }
                } }
            } }
            check(status, error, "fusion_update_buffer")
        case 5:
            let size = poise_fusion_state_size()
            var state = [UInt8](repeating: 0, count: size)
            var written = 0
            let capacity = nullable ? Int(input.byte()) : size
            check(poise_fusion_save_state(fusion, &state, min(capacity, size), &written, &error), error, "fusion_save_state")
            if input.byte() & 1 == 1, !state.isEmpty { state[Int(input.byte()) % state.count] ^= input.byte() | 1 }
            let length = input.byte() & 1 == 1 ? Int(input.byte()) % (size + 1) : size
            check(poise_fusion_restore_state(fusion, &state, length, &error), error, "fusion_restore_state")
        case 6:
            var output = poise_tilt_output()
            let status = values.withUnsafeBufferPointer { v in
                poise_tilt_process_sample(tilt, v[0], nullable ? nil : v.baseAddress! + 1, rows % 2 == 0 ? nil : v.baseAddress! + 1, &output, &error)
            }
            check(status, error, "tilt_process_sample")
        case 7:
            var output = poise_tilt_output()
            let status = values.withUnsafeBufferPointer { v in
                pointer(nullable, to: &output) { poise_tilt_process_attitude(tilt, input.double(), v.baseAddress!, rows % 2 == 0 ? nil : v.baseAddress!, $0, &error) }
            }
            check(status, error, "tilt_process_attitude")
            var home = [Double](repeating: 0, count: 4)
            var hasHome: Int32 = 0
            check(poise_tilt_get_home(tilt, &home, &hasHome, &error), error, "tilt_get_home")
        case 8:
            let text = input.text(maximum: 24)
            var alignment = poise_alignment()
            let status = text.withUnsafeBufferPointer { poise_alignment_parse(nullable ? nil : $0.baseAddress, Int32(rows % 2), &alignment, &error) }
            check(status, error, "alignment_parse")
            if status == POISE_OK {
                check(poise_alignment_apply(&alignment, &values, values.count / 3, &error), error, "alignment_apply")
                check(poise_alignment_apply_attitudes(&alignment, &values, values.count / 4, &error), error, "alignment_apply_attitudes")
            }
        case 9:
            let text = input.text(maximum: 40)
            var milliseconds = 0.0
            var samples: Int64 = 0
            let status = text.withUnsafeBufferPointer {
                let (spec, rate, step) = ($0.baseAddress, input.double(), Int32(bitPattern: UInt32(input.byte()) % 4))
                return pointer(nullable, to: &samples) { poise_latency90(spec, rate, step, &milliseconds, $0, &error) }
            }
            check(status, error, "latency90")
        case 10:
            let count = values.count / 3
            let times = (0..<count).map { _ in input.double() }
            let segments = (0..<(2 * Int(input.byte() % 4))).map { _ in Int64(Int8(bitPattern: input.byte())) }
            var result = poise_jitter_result()
            let status = values.withUnsafeBufferPointer { v in
                poise_jitter(v.baseAddress, nullable ? nil : v.baseAddress, times, count, segments, segments.count / 2, input.double(), &result, &error)
            }
            check(status, error, "jitter")
        case 11:
            var output = poise_gyro_output()
            let status = values.withUnsafeBufferPointer { v in
                pointer(nullable, to: &output) {
                    poise_gyro_process(gyro, v[0], v.baseAddress! + 1, rows % 2 == 0 ? nil : v.baseAddress! + 1,
                                       rows % 3 == 0 ? nil : v.baseAddress!, $0, &error)
                }
            }
            check(status, error, "gyro_process")
            var frame = poise_gyro_frame()
            check(pointer(rows % 5 == 0, to: &frame) { poise_gyro_take_frame(gyro, $0, &error) }, error, "gyro_take_frame")
        case 12:
            var calibration = poise_gyro_calibration()
            check(poise_gyro_get_calibration(gyro, &calibration, &error), error, "gyro_get_calibration")
            if input.byte() & 1 == 1 {
                calibration.bias = (input.double(), input.double(), input.double())
                calibration.uncertainty = input.double(); calibration.time = input.double()
                calibration.calibrated = Int32(bitPattern: UInt32(input.byte()))
            }
            check(pointer(nullable, to: &calibration) { poise_gyro_set_calibration(gyro, $0, &error) }, error, "gyro_set_calibration")
            check(poise_gyro_calibration_begin(gyro, &error), error, "gyro_calibration_begin")
            var set: Int32 = 0
            check(pointer(rows % 2 == 0, to: &set) { poise_gyro_calibration_end(gyro, input.double(), $0, &error) }, error, "gyro_calibration_end")
        case 15:
            // Out of place (double or float): a separate output, the input itself, or an output
            // overlapping the input one value further on (refused unless there are no rows).
            let mode = Int(input.byte() % 6)
            let status = mode < 3
                ? processInto(values, mode: mode, rows: rows, nullable: nullable) { poise_filter_process_into(filter, $0, $1, $2, &error) }
                : processInto(values.map { Float($0) }, mode: mode - 3, rows: rows, nullable: nullable) {
                    poise_filter_process_into_f(filter, $0, $1, $2, &error)
                }
            check(status, error, "filter_process_into")
            if mode % 3 == 2 && rows > 1 && status == POISE_OK { fatalError("filter_process_into: overlap accepted") }
        case 13:
            var yaw = 0.0
            let (x, y, dt) = (input.double(), input.double(), input.double())
            check(pointer(nullable, to: &yaw) { poise_flick_update(flick, x, y, dt, $0, &error) }, error, "flick_update")
        default:
            check(poise_gyro_reset(gyro, &error), error, "gyro_reset")
            check(poise_flick_reset(flick, &error), error, "flick_reset")
            check(poise_filter_reset(filter, &error), error, "filter_reset")
            check(poise_fusion_reset(fusion, &error), error, "fusion_reset")
            check(poise_tilt_recalibrate(tilt, &error), error, "tilt_recalibrate")
            var text = [CChar](repeating: 0, count: Int(input.byte() % 40))
            let capacity = text.count
            check(pointer(nullable, &text) { poise_filter_spec(filter, $0, capacity, &error) }, error, "filter_spec")
        }
    }
    return 0
}
