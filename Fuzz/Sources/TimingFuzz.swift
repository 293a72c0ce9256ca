// libFuzzer target: arbitrary timestamps (nanoseconds read as seconds, repeats, jumps back,
// 1e300, subnormal steps) through `poise info`'s inspection and the saturating conversions. The
// gap bookkeeping must stay consistent (count ≥ listed, at most 100 listed, every listed
// interval above 1.5 × the median, in time order, missing samples ≥ 1) and no conversion may trap.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise
import PoiseRecording

/// The schema of a minimal recording (time and accelerometer), from a header read once.
let timingSchema: RecordingSchema = {
    let folder = String(cString: getenv("POISE_FUZZ_TMP") ?? strdup("/tmp"))
    let path = folder + "/poise-fuzz-timing-\(getpid()).csv"
    let file = fopen(path, "w")
    fputs("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n", file)
    fclose(file)
    defer { unlink(path) }
    return try! RecordingReader(path: path).schema
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func timingFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Each 9 bytes: a mode byte and 8 bytes. Mode picks how the next time is made from them.
    var inspector = RecordingInspector(schema: timingSchema)
    var time = 0.0
    var offset = 0
    var times: [Double] = []
    while offset + 9 <= size {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(data[offset + 1 + k]) << (8 * UInt64(k)) }
        let raw = Double(bitPattern: bits)
        switch data[offset] % 4 {
        case 0: time += 0.01 * (1 + Double(bits % 1000) / 5000)           // jittery 100 Hz
        case 1: time = 1.7e18 + Double(bits % 1_000_000_000)                 // epoch nanoseconds
        case 2: if raw.isFinite { time = raw }                               // anything finite
        default: time += Double(bits % 100_000) * 1e-6                       // µs steps, repeats
        }
        offset += 9
        times.append(time)
        inspector.add(MotionSample(time: time, acceleration: SIMD3(0, 0, 1)))
        for x in [raw, time * 1e9, time / 1e-300] {
            let i = Int64(saturating: x)
            if x.isNaN { if i != 0 { fatalError("NaN gave \(i)") } }
            else if x >= 9.223372036854775807e18 { if i != .max { fatalError("\(x) gave \(i)") } }
            else if x <= -9.223372036854775808e18 { if i != .min { fatalError("\(x) gave \(i)") } }
            else if i != Int64(x) { fatalError("\(x) gave \(i), not \(Int64(x))") }
        }
    }
    var summary = ReadSummary()
    summary.rowsDelivered = times.count
    let info = inspector.finish(path: "fuzz", summary: summary, issues: [])
    if info.gaps.count > 100 || info.gaps.count > info.gapCount { fatalError("\(info.gaps.count) gaps listed of \(info.gapCount)") }
    if info.gapCount > Swift.max(0, times.count - 1) { fatalError("\(info.gapCount) gaps in \(times.count) samples") }
    let ordered = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
    if let median = info.intervals?.medianMs {
        var previous = -Double.infinity
        for gap in info.gaps {
            if !(gap.intervalMs > 1.5 * median * (1 - 1e-12)) { fatalError("gap \(gap.intervalMs) ms not above 1.5 × \(median) ms") }
            if gap.missingSamples < 1 { fatalError("gap with \(gap.missingSamples) missing samples") }
            if ordered && gap.timeS < previous { fatalError("gaps out of time order") }
            previous = gap.timeS
        }
    } else if info.gapCount != 0 {
        fatalError("gaps without intervals")
    }
    return 0
}
