// libFuzzer target: arbitrary bytes after the MCAP magic, opened through `RecordingSources.open`
// (which picks the MCAP reader) and read to the end, strict and lenient, with and without
// `--topic`. Any input must end in samples or a `RecordingError`, never a trap, a hang or
// unbounded memory; every delivered sample has a finite time, and a lenient read starts with the
// samples the strict read delivered before it stopped.
// Built by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address -parse-as-library).
#if canImport(Glibc)
import Glibc
#endif
import Poise
import PoiseRecording

nonisolated(unsafe) var mcapPath: String = {
    let directory = getenv("POISE_FUZZ_TMP").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/poise-fuzz-mcap-\(getpid()).mcap"
}()

/// The samples read before the end or the first error.
func readAll(_ options: ReadOptions) -> [MotionSample] {
    var samples: [MotionSample] = []
    do {
        let source = try RecordingSources.open(path: mcapPath, options: options)
        while let sample = try source.next() {
            if !sample.time.isFinite { fatalError("a sample with time \(sample.time)") }
            samples.append(sample)
        }
    } catch is RecordingError {
    } catch {
        fatalError("not a RecordingError: \(error)")
    }
    return samples
}

@_cdecl("LLVMFuzzerTestOneInput")
public func mcapFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A] + Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = fopen(mcapPath, "wb") else { return 0 }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    for topic in [nil, "/imu/data"] as [String?] {
        let strict = readAll(ReadOptions(strict: true, topic: topic))
        let lenient = readAll(ReadOptions(strict: false, topic: topic))
        // Lenient reading drops a bad sample where strict reading stops, and both stop at a
        // malformed record: what strict reading delivered, lenient reading delivers first.
        if lenient.count < strict.count || Array(lenient.prefix(strict.count)) != strict {
            fatalError("strict read delivered \(strict.count) samples, lenient \(lenient.count), not starting with them")
        }
    }
    return 0
}
