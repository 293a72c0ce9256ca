// libFuzzer target: arbitrary bytes after the `#ROSBAG V2.0` line, opened through
// `RecordingSources.open` (which picks the bag reader) and read to the end. Any input must end in
// samples or a `RecordingError`, never a trap, a hang or unbounded memory; every delivered sample
// has a finite time. Built by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address -parse-as-library).
#if canImport(Glibc)
import Glibc
#endif
import Poise
import PoiseRecording

nonisolated(unsafe) var bagPath: String = {
    let directory = getenv("POISE_FUZZ_TMP").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/poise-fuzz-rosbag-\(getpid()).bag"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func rosBagFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array("#ROSBAG V2.0\n".utf8) + Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = fopen(bagPath, "wb") else { return 0 }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    for topic in [nil, "/imu/data"] as [String?] {
        do {
            let source = try RecordingSources.open(path: bagPath, options: ReadOptions(topic: topic))
            while let sample = try source.next() {
                if !sample.time.isFinite { fatalError("a sample with time \(sample.time)") }
            }
        } catch is RecordingError {
        } catch {
            fatalError("not a RecordingError: \(error)")
        }
    }
    return 0
}
