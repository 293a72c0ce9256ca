// libFuzzer target: arbitrary bytes as a ZIP archive (a Sensor Logger or phyphox export), opened through
// `RecordingSources.open` (which picks the session reader: ZipArchive, ZipEntryStream over zlib, the
// per-file CSV readers and the merge) and read to the end, strict and lenient. The input is the
// archive after its first 4 bytes (`PK\3\4` is put in front). Any input must end in samples or a
// `RecordingError`, never a trap, a hang or unbounded memory; every delivered sample is finite.
// Built by scripts/fuzz.sh; seeds from scripts/fuzz_zip_seeds.py.
#if canImport(Glibc)
import Glibc
#endif
import Poise
import PoiseRecording

nonisolated(unsafe) var zipPath: String = {
    let directory = getenv("POISE_FUZZ_TMP").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/poise-fuzz-zip-\(getpid()).zip"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func zipSessionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Always a ZIP by its first bytes, so the session reader is chosen.
    let bytes = Array("PK\u{3}\u{4}".utf8) + Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = fopen(zipPath, "wb") else { return 0 }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    for strict in [true, false] {
        do {
            let source = try RecordingSources.open(path: zipPath, options: ReadOptions(appleAccelerometerSign: !strict, strict: strict))
            while let sample = try source.next() {
                guard sample.time.isFinite, sample.acceleration.isFinite, sample.rotationRate.isFinite,
                      sample.magneticField.map({ $0.isFinite }) ?? true else { fatalError("non-finite sample \(sample)") }
            }
        } catch is RecordingError {
        } catch {
            fatalError("not a RecordingError: \(error)")
        }
    }
    return 0
}
