// libFuzzer target: arbitrary bytes as a CSV recording, read strict and lenient, through the
// memory-mapped path and through read(2) with a small buffer, without and with comment prefixes
// (`%`, `;`: skipped before the header and between rows), row by row (`next()`) and in batches
// (`read(into:)`, the fast path): both must deliver the same samples and end the same way.
// The same bytes with every line feed turned into a carriage return (when they hold none) must
// read exactly as the line-feed file does; every time unit must read without trapping, and the
// sample-rate check must describe any rate the timestamps give.
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

nonisolated(unsafe) var carriageReturnPath: String = scratchPath + ".cr.csv"

/// All samples of `path` row by row and the error that ended the read (nil at the end of file).
func readAll(_ path: String, _ options: ReadOptions) -> (samples: [MotionSample], error: String?, schema: RecordingSchema?) {
    var samples: [MotionSample] = []
    var schema: RecordingSchema?
    do {
        let reader = try RecordingReader(path: path, options: options)
        schema = reader.schema
        while let sample = try reader.next() { samples.append(sample) }
        return (samples, nil, schema)
    } catch {
        return (samples, "\(error)", schema)
    }
}

/// Bit patterns, so NaN-free samples compare exactly (and -0 differs from 0).
func bits(_ s: MotionSample) -> [UInt64] {
    var v = [s.time, s.acceleration.x, s.acceleration.y, s.acceleration.z,
             s.rotationRate.x, s.rotationRate.y, s.rotationRate.z].map(\.bitPattern)
    if let m = s.magneticField { v += [m.x, m.y, m.z].map(\.bitPattern) }
    if let q = s.truth { v += [q.w, q.x, q.y, q.z].map(\.bitPattern) }
    if let moving = s.movement { v.append(moving ? 1 : 0) }
    return v
}

/// Carriage-return line ends and time units (see the top of the file).
func checkLineEndsAndTimeUnits(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if !bytes.contains(13), bytes.contains(10) {
        let translated = bytes.map { $0 == 10 ? UInt8(13) : $0 }
        translated.withUnsafeBufferPointer { write($0.baseAddress!, size, to: carriageReturnPath) }
        for options in [ReadOptions(strict: false, bufferSize: 64), ReadOptions(), ReadOptions(strict: false, memoryMap: true)] {
            var plainOptions = options
            plainOptions.memoryMap = false
            let plain = readAll(scratchPath, plainOptions)
            let cr = readAll(carriageReturnPath, options)
            let crError = cr.error?.replacingOccurrences(of: carriageReturnPath, with: scratchPath)
            guard plain.samples.count == cr.samples.count, zip(plain.samples, cr.samples).allSatisfy({ bits($0) == bits($1) }),
                  plain.error == crError else {
                fatalError("CR-only copy reads differently: \(cr.samples.count) vs \(plain.samples.count) samples, errors \(String(describing: crError)) / \(String(describing: plain.error))")
            }
        }
    }
    for unit in TimeUnit.allCases {
        let read = readAll(scratchPath, ReadOptions(strict: false, timeUnit: unit))
        for sample in read.samples { check(sample, "timeUnit=\(unit)") }
        if let schema = read.schema, let rate = nominalSampleRate(of: read.samples) {
            if SampleRateCheck.message(rate: rate, schema: schema).isEmpty { fatalError("empty rate message") }
            _ = try? SampleRateCheck.check(rate: rate, schema: schema, file: scratchPath)
        }
    }
}

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
    let modes: [(Bool, Bool, Int, [String])] = [(true, true, 1 << 20, []), (false, true, 1 << 20, []), (false, false, 64, []),
                                                 (false, true, 1 << 20, ["%", ";"]), (false, false, 64, ["%", ";"])]
    for (strict, memoryMap, bufferSize, comments) in modes {
        let options = ReadOptions(strict: strict, bufferSize: bufferSize, maximumStoredIssues: 50, memoryMap: memoryMap,
                                  commentPrefixes: comments)
        let mode = "strict=\(strict) mmap=\(memoryMap) buffer=\(bufferSize) comments=\(comments)"
        var rows: [MotionSample] = []
        var rowError: String?
        do {
            let reader = try RecordingReader(path: scratchPath, options: options)
            while let sample = try reader.next() {
                check(sample, mode)
                rows.append(sample)
            }
            if reader.summary.rowsDelivered != rows.count {
                fatalError("\(mode): summary says \(reader.summary.rowsDelivered) rows, delivered \(rows.count)")
            }
        } catch {
            rowError = "\(error)"  // every error must describe itself without trapping
        }
        var batch: [MotionSample] = []
        var batchError: String?
        do {
            let reader = try RecordingReader(path: scratchPath, options: options)
            var chunk: [MotionSample] = []
            while true {
                chunk.removeAll(keepingCapacity: true)
                defer { batch += chunk }
                guard try reader.read(into: &chunk, maximumCount: 7) > 0 else { break }
            }
        } catch {
            batchError = "\(error)"
        }
        guard rows.count == batch.count, zip(rows, batch).allSatisfy({ bits($0) == bits($1) }), rowError == batchError else {
            fatalError("\(mode): read(into:) differs from next(): \(batch.count) vs \(rows.count) samples, errors \(String(describing: batchError)) / \(String(describing: rowError))")
        }
    }
    checkLineEndsAndTimeUnits(data, size)
    return 0
}
