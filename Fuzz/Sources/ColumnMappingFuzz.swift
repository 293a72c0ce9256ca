// libFuzzer target: arbitrary bytes as a column mapping (`--columns`), a mount (`--mount`) and a
// CSV file read through them. The first line is the mapping, the second the mount, the first
// byte of the third the number of lines to skip (0–3); the rest is the file. Parsing must end in
// a value or a `SpecError` that describes itself (caret included); reading must end in samples or
// a `RecordingError`, never a trap, a hang or unbounded memory; every delivered sample is finite,
// and `read(into:)` delivers what `next()` does. Built by scripts/fuzz.sh.
#if canImport(Glibc)
import Glibc
#endif
import Poise
import PoiseRecording

nonisolated(unsafe) var mappedPath: String = {
    let directory = getenv("POISE_FUZZ_TMP").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/poise-fuzz-columns-\(getpid()).csv"
}()

func readMapped(_ options: ReadOptions, batch: Bool) -> (count: Int, times: [UInt64], error: String?) {
    var times: [UInt64] = []
    var chunk: [MotionSample] = []  // batches: the samples appended before an error count too
    do {
        let source = try RecordingSources.open(path: mappedPath, options: options)
        if batch {
            while try source.read(into: &chunk, maximumCount: 5) > 0 {}
            return (chunk.count, chunk.map(\.time.bitPattern), nil)
        } else {
            while let sample = try source.next() {
                guard sample.time.isFinite, sample.acceleration.isFinite, sample.rotationRate.isFinite,
                      sample.magneticField.map({ $0.isFinite }) ?? true else { fatalError("non-finite sample \(sample)") }
                times.append(sample.time.bitPattern)
            }
        }
        return (times.count, times, nil)
    } catch let error as RecordingError {
        if batch { return (chunk.count, chunk.map(\.time.bitPattern), error.description) }
        return (times.count, times, error.description)
    } catch {
        fatalError("not a RecordingError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func columnMappingFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false)
    let mappingText = String(decoding: lines.first ?? [], as: UTF8.self)
    let mountText = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : ""
    let rest = lines.count > 2 ? Array(lines[2]) : []
    let skip = Int(rest.first ?? 0) % 4
    let file = Array(rest.dropFirst())
    var columns: ColumnSpec?
    do { columns = try ColumnSpec(mappingText) } catch { _ = error.description }
    var mount: SensorMount?
    do { mount = try SensorMount(mountText) } catch { _ = error.description }
    if let mount, !(mount.remap.matrix.apply(SIMD3(1.0, 2, 3))).isFinite { fatalError("mount \(mountText) is not finite") }
    guard let handle = fopen(mappedPath, "wb") else { return 0 }
    _ = file.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
    fclose(handle)
    for strict in [true, false] {
        let options = ReadOptions(strict: strict, bufferSize: 256, maximumStoredIssues: 20, sampleRate: 100,
                                  columns: columns, skipLines: skip, mount: mount)
        let rows = readMapped(options, batch: false)
        let batch = readMapped(options, batch: true)
        guard rows.times == batch.times, rows.error == batch.error else {
            fatalError("read(into:) differs from next(): \(batch.count) vs \(rows.count), \(String(describing: batch.error)) / \(String(describing: rows.error))")
        }
    }
    return 0
}
