import CPoise
import Poise

/// What a `poise_filter` handle holds: a 3-axis filter and the spec it was built from.
struct FilterHandle {
    var filter: AnyFilter<SIMD3<Double>>
    let spec: FilterSpec
    let sampleRate: Double

    typealias Box = HandleBox<FilterHandle>
    static let kind = "poise_filter"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.filter, kind: kind)
    }

    /// Builds the filter of `spec` at `sampleRate`, with the spec errors as C errors.
    static func make(spec text: String, sampleRate: Double) throws(CError) -> FilterHandle {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw .invalid("sample rate must be a finite number > 0 Hz, got \(sampleRate)")
        }
        let spec: FilterSpec
        do { spec = try FilterSpec(parsing: text) } catch { throw CError(POISE_ERROR_PARSE, error.description) }
        do {
            let filter = try spec.makeFilter(SIMD3<Double>.self, sampleRate: sampleRate)
            return FilterHandle(filter: filter, spec: spec, sampleRate: sampleRate)
        } catch {
            throw .invalid(error.description)
        }
    }
}

/// Checks that an N x 3 buffer holds only finite values; throws naming the first bad row.
@inline(__always)
func requireFinite<Scalar: BinaryFloatingPoint>(_ values: UnsafePointer<Scalar>, rows: Int, width: Int = 3, _ name: String) throws(CError) {
    for index in 0..<(rows * width) where !values[index].isFinite {
        throw CError(POISE_ERROR_NON_FINITE, "\(name): row \(index / width), column \(index % width) is \(values[index]); nothing was processed")
    }
}

@_cdecl("poise_filter_create")
public func cFilterCreate(_ spec: UnsafePointer<CChar>?, _ sampleRate: Double, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        let filter = try FilterHandle.make(spec: try string(spec, "spec"), sampleRate: sampleRate)
        handle = FilterHandle.Box.make(filter, tag: HandleTag.filter)
    }
    return handle
}

@_cdecl("poise_filter_destroy")
public func cFilterDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FilterHandle.Box.destroy(handle, tag: HandleTag.filter, kind: FilterHandle.kind) }
}

@_cdecl("poise_filter_reset")
public func cFilterReset(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try FilterHandle.open(handle).pointee.payload.filter.reset() }
}

@_cdecl("poise_filter_process")
public func cFilterProcess(_ handle: OpaquePointer?, _ xyz: UnsafeMutablePointer<Double>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        guard let xyz else { throw .null("xyz") }
        try requireFinite(xyz, rows: 1, "xyz")
        let y = box.pointee.payload.filter.process(SIMD3(xyz[0], xyz[1], xyz[2]))
        xyz[0] = y.x; xyz[1] = y.y; xyz[2] = y.z
    }
}

@_cdecl("poise_filter_process_buffer")
public func cFilterProcessBuffer(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Double>?, _ count: Int,
                                 _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        _ = try elementCount(count, width: 3, "samples")
        guard count > 0 else { return }
        guard let samples else { throw .null("samples") }
        try requireFinite(samples, rows: count, "samples")
        var row = samples
        for _ in 0..<count {
            let y = box.pointee.payload.filter.process(SIMD3(row[0], row[1], row[2]))
            row[0] = y.x; row[1] = y.y; row[2] = y.z
            row += 3
        }
    }
}

@_cdecl("poise_filter_process_buffer_f")
public func cFilterProcessBufferFloat(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Float>?, _ count: Int,
                                      _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        _ = try elementCount(count, width: 3, "samples")
        guard count > 0 else { return }
        guard let samples else { throw .null("samples") }
        try requireFinite(samples, rows: count, "samples")
        var row = samples
        for _ in 0..<count {
            let y = box.pointee.payload.filter.process(SIMD3(Double(row[0]), Double(row[1]), Double(row[2])))
            row[0] = Float(y.x); row[1] = Float(y.y); row[2] = Float(y.z)
            row += 3
        }
    }
}

@_cdecl("poise_filter_spec")
public func cFilterSpec(_ handle: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                        _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        guard let text else { throw .null("text") }
        let spec = box.pointee.payload.spec.description
        guard capacity > spec.utf8.count else {
            throw CError(POISE_ERROR_BUFFER_TOO_SMALL, "the spec needs \(spec.utf8.count + 1) bytes, capacity is \(capacity)")
        }
        copyCString(spec, into: UnsafeMutableRawBufferPointer(start: text, count: capacity))
    }
}
