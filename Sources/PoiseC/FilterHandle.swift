import CPoise
import Poise

/// What a `poise_filter` handle holds: a 3-axis filter and the spec it was built from.
///
/// The filter runs on `SIMD4<Double>` rows with a zero fourth lane: the same per-axis arithmetic
/// as `SIMD3<Double>` (the values are identical), but one vector instruction per step, where
/// `SIMD3` compiles to a scalar third lane plus shuffles on the recurrence's critical path.
struct FilterHandle {
    typealias Row = SIMD4<Double>
    var filter: AnyFilter<Row>
    let spec: FilterSpec
    let sampleRate: Double
    /// Rows of a buffer call are gathered here and filtered by the filter's own buffer loop
    /// (one dynamic dispatch per chunk, not per sample); allocated once, at creation.
    var input = [Row](repeating: .zero, count: chunk)
    var output = [Row](repeating: .zero, count: chunk)
    static let chunk = 256

    /// Filters `count` rows of 3 scalars at `rows` in place, in chunks.
    mutating func processRows<Scalar: BinaryFloatingPoint>(_ rows: UnsafeMutablePointer<Scalar>, count: Int) {
        var input = self.input, output = self.output   // moved out for the loop (no copy: unique)
        self.input = []; self.output = []
        defer { self.input = input; self.output = output }
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var done = 0
                while done < count {
                    let n = min(Self.chunk, count - done)
                    let base = rows + 3 * done
                    for i in 0..<n {
                        inBuffer[i] = Row(Double(base[3 * i]), Double(base[3 * i + 1]), Double(base[3 * i + 2]), 0)
                    }
                    filter.process(UnsafeBufferPointer(rebasing: inBuffer[0..<n]), into: UnsafeMutableBufferPointer(rebasing: outBuffer[0..<n]))
                    for i in 0..<n {
                        let y = outBuffer[i]
                        base[3 * i] = Scalar(y.x); base[3 * i + 1] = Scalar(y.y); base[3 * i + 2] = Scalar(y.z)
                    }
                    done += n
                }
            }
        }
    }

    typealias Box = HandleBox<FilterHandle>
    static let kind = "poise_filter"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.filter, kind: kind)
    }

    /// Builds the filter of `spec` at `sampleRate`, with the spec errors as C errors.
    static func make(spec text: String, sampleRate: Double) throws(CError) -> FilterHandle {
        let (filter, spec) = try filter(Row.self, spec: text, sampleRate: sampleRate)
        return FilterHandle(filter: filter, spec: spec, sampleRate: sampleRate)
    }

    /// The filter of `spec` at `sampleRate` on values of type `V`, and the parsed spec; the
    /// spec errors as C errors.
    static func filter<V: SignalValue>(_ type: V.Type, spec text: String, sampleRate: Double) throws(CError) -> (AnyFilter<V>, FilterSpec) {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw .invalid("sample rate must be a finite number > 0 Hz, got \(sampleRate)")
        }
        let spec: FilterSpec
        // One-line messages (the caret drawing of SpecError.description does not suit a C string).
        do { spec = try FilterSpec(parsing: text) } catch { throw CError(POISE_ERROR_PARSE, error.headline) }
        do {
            return (try spec.makeFilter(V.self, sampleRate: sampleRate), spec)
        } catch {
            throw .invalid(error.headline)
        }
    }
}

/// Checks that an N x 3 buffer holds only finite values; throws naming the first bad row.
@inline(__always)
func requireFinite<Scalar: BinaryFloatingPoint & SIMDScalar>(_ values: UnsafePointer<Scalar>, rows: Int, width: Int = 3, _ name: String) throws(CError) {
    // x − x is 0 for a finite x and NaN otherwise; summed lane-wise in a vector (a NaN stays),
    // one pass at memory speed tells whether all are finite. Only then is the first bad value
    // looked for.
    let count = rows * width
    var lanes = SIMD8<Scalar>()
    var index = 0
    let raw = UnsafeRawPointer(values)
    while index + 8 <= count {
        let v = raw.loadUnaligned(fromByteOffset: index * MemoryLayout<Scalar>.stride, as: SIMD8<Scalar>.self)
        lanes += v - v
        index += 8
    }
    var probe = lanes.sum()
    while index < count { probe += values[index] - values[index]; index += 1 }
    guard !probe.isFinite else { return }
    for index in 0..<count where !values[index].isFinite {
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
        let y = box.pointee.payload.filter.process(FilterHandle.Row(xyz[0], xyz[1], xyz[2], 0))
        xyz[0] = y.x; xyz[1] = y.y; xyz[2] = y.z
    }
}

@_cdecl("poise_filter_process_buffer")
public func cFilterProcessBuffer(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Double>?, _ count: Int,
                                 _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    processBuffer(handle, samples, count, error)
}

@_cdecl("poise_filter_process_buffer_f")
public func cFilterProcessBufferFloat(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Float>?, _ count: Int,
                                      _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    processBuffer(handle, samples, count, error)
}

/// The body of both buffer entry points: `count` rows of 3 values, filtered in place.
private func processBuffer<Scalar: BinaryFloatingPoint & SIMDScalar>(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Scalar>?,
                                                        _ count: Int, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        _ = try elementCount(count, width: 3, "samples")
        guard count > 0 else { return }
        guard let samples else { throw .null("samples") }
        try requireFinite(samples, rows: count, "samples")
        box.pointee.payload.processRows(samples, count: count)
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
