import CPoise
import CPoiseReaders
import Poise
import PoiseC
import PoiseRecording

@_cdecl("poise_read_options_default")
public func cReadOptionsDefault(_ options: UnsafeMutablePointer<poise_read_options>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let options else { throw .null("options") }
        options.pointee = poise_read_options()
        options.pointee.decimal_comma = -1
    }
}

@_cdecl("poise_reader_open")
public func cReaderOpen(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<poise_read_options>?,
                        _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        let file = try string(path, "path")
        var defaults = poise_read_options()
        defaults.decimal_comma = -1
        let readOptions = try ReaderHandle.readOptions(options?.pointee ?? defaults)
        let source: any SampleSource
        do { source = try RecordingSources.open(path: file, options: readOptions) } catch { throw parseError(error) }
        handle = ReaderHandle.Box.make(ReaderHandle(source: source), tag: ReaderHandle.tag)
    }
    return handle
}

@_cdecl("poise_reader_destroy")
public func cReaderDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try ReaderHandle.Box.destroy(handle, tag: ReaderHandle.tag, kind: ReaderHandle.kind) }
}

@_cdecl("poise_reader_get_info")
public func cReaderGetInfo(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<poise_reader_info>?,
                           _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let reader = try ReaderHandle.open(handle).pointee.payload
        guard let out else { throw .null("out") }
        let schema = reader.source.schema, summary = reader.source.summary
        var info = poise_reader_info()
        info.has = ReaderHandle.has(schema)
        info.column_count = Int32(reader.columns.count)
        info.rows_delivered = Int64(summary.rowsDelivered)
        info.rows_dropped = Int64(summary.rowsDropped)
        info.rows_repaired = Int64(summary.rowsRepaired)
        setText(&info.format, schema.format.rawValue)
        setText(&info.format_name, schema.format.name)
        out.pointee = info
    }
}

@_cdecl("poise_reader_get_column")
public func cReaderGetColumn(_ handle: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<poise_reader_column>?,
                             _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let columns = try ReaderHandle.open(handle).pointee.payload.columns
        guard let out else { throw .null("out") }
        guard index >= 0, Int(index) < columns.count else {
            throw .invalid("index must be 0 to \(columns.count - 1) (column_count \(columns.count)), got \(index)")
        }
        let column = columns[Int(index)]
        var c = poise_reader_column()
        setText(&c.name, column.name)
        setText(&c.unit, column.unit)
        setText(&c.meaning, column.meaning.slot ?? "")
        out.pointee = c
    }
}

@_cdecl("poise_reader_read")
public func cReaderRead(_ handle: OpaquePointer?, _ capacity: Int, _ times: UnsafeMutablePointer<Double>?,
                        _ acc: UnsafeMutablePointer<Double>?, _ gyr: UnsafeMutablePointer<Double>?,
                        _ mag: UnsafeMutablePointer<Double>?, _ truth: UnsafeMutablePointer<Double>?,
                        _ movement: UnsafeMutablePointer<UInt8>?, _ count: UnsafeMutablePointer<Int>?,
                        _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try ReaderHandle.open(handle)
        _ = try elementCount(capacity, width: 4, "capacity")
        guard let count else { throw .null("count") }
        count.pointee = 0
        guard capacity > 0 else { return }
        var block = box.pointee.payload.block
        box.pointee.payload.block = []
        defer { box.pointee.payload.block = block }
        block.removeAll(keepingCapacity: true)
        let read: Int
        do { read = try box.pointee.payload.source.read(into: &block, maximumCount: min(capacity, 1 << 16)) } catch { throw parseError(error) }
        let nan = Double.nan
        for (i, sample) in block.prefix(read).enumerated() {
            times?[i] = sample.time
            if let acc { store(sample.acceleration, acc + 3 * i) }
            if let gyr { store(sample.rotationRate, gyr + 3 * i) }
            if let mag { store(sample.magneticField ?? SIMD3(repeating: nan), mag + 3 * i) }
            if let truth {
                let q = sample.truth
                truth[4 * i] = q?.w ?? nan; truth[4 * i + 1] = q?.x ?? nan
                truth[4 * i + 2] = q?.y ?? nan; truth[4 * i + 3] = q?.z ?? nan
            }
            movement?[i] = sample.movement == true ? 1 : 0
        }
        count.pointee = read
    }
}

@_cdecl("poise_reader_issues")
public func cReaderIssues(_ handle: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?, _ size: Int,
                          _ needed: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let issues = try ReaderHandle.open(handle).pointee.payload.source.issues
        let all = issues.map { "\($0)\n" }.joined()
        needed?.pointee = all.utf8.count + 1
        guard size > 0 else { throw CError(POISE_ERROR_BUFFER_TOO_SMALL, "the issues need \(all.utf8.count + 1) bytes, size is 0") }
        guard let text else { throw .null("text") }
        let fits = copyCString(all, into: UnsafeMutableRawBufferPointer(start: text, count: size))
        if !fits { throw CError(POISE_ERROR_BUFFER_TOO_SMALL, "the issues need \(all.utf8.count + 1) bytes, size is \(sizeText(size))") }
    }
}

@inline(__always)
private func store(_ v: SIMD3<Double>, _ p: UnsafeMutablePointer<Double>) { p[0] = v.x; p[1] = v.y; p[2] = v.z }
