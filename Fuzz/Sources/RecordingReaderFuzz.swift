// libFuzzer target: arbitrary bytes as a CSV recording, read strict and lenient, through the
// memory-mapped path and through read(2) with a small buffer.
// Built by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address -parse-as-library).
#if canImport(Glibc)
import Glibc
#endif
import Poise
import PoiseRecording

nonisolated(unsafe) var scratchPath: String = {
    let directory = getenv("POISE_FUZZ_TMP").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/poise-fuzz-recording-\(getpid()).csv"
}()

func write(_ data: UnsafePointer<UInt8>, _ size: Int, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    var written = 0
    while written < size {
        let n = Glibc.write(fd, data + written, size - written)
        precondition(n > 0, "cannot write \(path)")
        written += n
    }
    close(fd)
}

func check(_ sample: MotionSample, _ mode: String) {
    // The reader never hands out a non-finite value (documented: no NaN spreading).
    guard sample.time.isFinite, sample.acceleration.isFinite, sample.rotationRate.isFinite,
          sample.magneticField.map({ $0.isFinite }) ?? true else {
        fatalError("\(mode): non-finite sample delivered: \(sample)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func recordingReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    write(data, size, to: scratchPath)
    for (strict, memoryMap, bufferSize) in [(true, true, 1 << 20), (false, true, 1 << 20), (false, false, 64)] {
        let options = ReadOptions(strict: strict, bufferSize: bufferSize, maximumStoredIssues: 50, memoryMap: memoryMap)
        let mode = "strict=\(strict) mmap=\(memoryMap) buffer=\(bufferSize)"
        do {
            let reader = try RecordingReader(path: scratchPath, options: options)
            var count = 0
            while let sample = try reader.next() {
                check(sample, mode)
                count += 1
            }
            if reader.summary.rowsDelivered != count {
                fatalError("\(mode): summary says \(reader.summary.rowsDelivered) rows, delivered \(count)")
            }
        } catch {
            _ = "\(error)"  // every error must describe itself without trapping
        }
    }
    return 0
}
