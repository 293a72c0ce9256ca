import CPoise
import Poise

/// What a `poise_filter` handle holds: a 3-axis filter and the spec it was built from.
///
/// The filter runs on `SIMD4<Double>` rows with a zero fourth lane: the same per-axis arithmetic
/// as `SIMD3<Double>` (the values are identical), but one vector instruction per step, where
/// `SIMD3` compiles to a scalar third lane plus shuffles on the recurrence's critical path.
///
/// From one buffer to another, the one-pole low-pass (`lowpass`, `factor`; reached by its
/// concrete type, `AnyFilter.withWrapped`) reads the caller's N x 3 values straight into its
/// recurrence and writes the output, with the finiteness check in the same loop: one pass over
/// the data with the state in a register, bound by the recurrence (one fused multiply-add per
/// row). The other filters, and every filter in place, filter chunks of rows gathered into
/// `SIMD4` rows (one dynamic dispatch per chunk, not per sample) after a check of the whole
/// buffer. Both give exactly the values of the per-sample calls.
struct FilterHandle {
    typealias Row = SIMD4<Double>
    var filter: AnyFilter<Row>
    let spec: FilterSpec
    let sampleRate: Double
    /// Rows of a chunked buffer call are gathered here and filtered by the filter's own buffer
    /// loop (one dynamic dispatch per chunk, not per sample); allocated once, at creation.
    var input = [Row](repeating: .zero, count: chunk)
    var output = [Row](repeating: .zero, count: chunk)
    static let chunk = 256

    /// Filters `count` rows of 3 scalars from `source` into `destination` (the same buffer, or
    /// buffers that do not overlap). A non-finite value throws naming its row and column, and
    /// leaves the filter's state as it was; in place nothing is written then, otherwise
    /// `destination` may be partly written.
    mutating func processRows<Scalar: BinaryFloatingPoint & SIMDScalar>(from source: UnsafePointer<Scalar>, to destination: UnsafeMutablePointer<Scalar>,
                                                                         count: Int, _ name: String) throws(CError) {
        // In place, rows are gathered first: the low-pass reads a block again when its output
        // overflows, after writing it.
        let inPlace = UInt(bitPattern: source) == UInt(bitPattern: destination)
        if !inPlace, let bad = filter.withWrapped(OnePoleLowPass<Row>.self, { Self.lowPassRows(&$0, from: source, to: destination, count: count) }) {
            if let bad { try requireFinite(source + 3 * bad, rows: 1, name, firstRow: bad, outcome: "the filter's state is unchanged") }
            return
        }
        if let index = firstNonFinite(source, count: 3 * count) {
            try requireFinite(source + 3 * (index / 3), rows: 1, name, firstRow: index / 3,
                              outcome: inPlace ? "nothing was processed" : "the filter's state is unchanged")
        }
        var input = self.input, output = self.output   // moved out for the loop (no copy: unique)
        self.input = []; self.output = []
        defer { self.input = input; self.output = output }
        Self.gatherAndFilter(&filter, from: source, to: destination, count: count, input: &input, output: &output)
    }

    /// The low-pass straight from the caller's rows to the output (one pass, the finiteness
    /// check in the same loop), on a copy of the filter that replaces it only when every value
    /// was finite. Returns nil, or a row holding a non-finite value.
    @inline(__always)
    private static func lowPassRows<Scalar: BinaryFloatingPoint & SIMDScalar>(_ filter: inout OnePoleLowPass<Row>, from source: UnsafePointer<Scalar>,
                                                                               to destination: UnsafeMutablePointer<Scalar>, count: Int) -> Int? {
        var copy = filter
        var probe = Row.zero   // x − x summed: stays 0 while every value is finite
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        let stride = 3 * MemoryLayout<Scalar>.stride
        func store(_ i: Int, _ y: Row) {
            let row = destination + 3 &* i
            row[0] = Scalar(y.x); row[1] = Scalar(y.y); row[2] = Scalar(y.z)
        }
        // Every row but the last is read and written as 4 values: its 3 and the next row's
        // first, whose output slot the next row then overwrites (input and output do not
        // overlap here). The fourth lane of the input becomes w − w: 0 when the next row's
        // first value is finite (and that row fails the check itself otherwise), but not a
        // constant the compiler could fold. So the three axes stay in one vector register: a
        // constant lane, or three scalar stores, make it split the recurrence into a 2-lane and
        // a 1-lane half joined by shuffles on its critical path.
        copy.process(count: count - 1, row: { i in
            let v = from.loadUnaligned(fromByteOffset: i &* stride, as: SIMD4<Scalar>.self)
            let d = v - v
            probe += Row(Double(d.x), Double(d.y), Double(d.z), Double(d.w))
            return Row(Double(v.x), Double(v.y), Double(v.z), Double(d.w))
        }, into: { i, y in
            to.storeBytes(of: SIMD4<Scalar>(Scalar(y.x), Scalar(y.y), Scalar(y.z), Scalar(y.w)), toByteOffset: i &* stride, as: SIMD4<Scalar>.self)
        })
        let last = source + 3 * (count - 1)
        let x = Row(Double(last[0]), Double(last[1]), Double(last[2]), 0)
        probe += x - x
        copy.process(count: 1, row: { _ in x }, into: { _, y in store(count - 1, y) })
        guard probe == .zero else { return firstNonFinite(source, count: 3 * count).map { $0 / 3 } ?? 0 }
        filter = copy
        return nil
    }

    /// The chunked loop (the buffer already checked), through the scratch rows `input` and
    /// `output`: each chunk is read before its output is written, so in place is fine.
    private static func gatherAndFilter<F: Filter, Scalar: BinaryFloatingPoint>(_ filter: inout F, from source: UnsafePointer<Scalar>,
                                                                     to destination: UnsafeMutablePointer<Scalar>, count: Int,
                                                                     input: inout [Row], output: inout [Row]) where F.Value == Row {
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var done = 0
                while done < count {
                    let n = min(chunk, count - done)
                    let from = source + 3 * done, to = destination + 3 * done
                    for i in 0..<n {
                        inBuffer[i] = Row(Double(from[3 * i]), Double(from[3 * i + 1]), Double(from[3 * i + 2]), 0)
                    }
                    filter.process(UnsafeBufferPointer(rebasing: inBuffer[0..<n]), into: UnsafeMutableBufferPointer(rebasing: outBuffer[0..<n]))
                    for i in 0..<n {
                        let y = outBuffer[i]
                        to[3 * i] = Scalar(y.x); to[3 * i + 1] = Scalar(y.y); to[3 * i + 2] = Scalar(y.z)
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
        try requireInRange(sampleRate, .sampleRate, "sample_rate")
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

/// The index of the first non-finite value of `values[0..<count]`, or nil when all are finite.
@inline(__always)
func firstNonFinite<Scalar: BinaryFloatingPoint & SIMDScalar>(_ values: UnsafePointer<Scalar>, count: Int) -> Int? {
    // x − x is 0 for a finite x and NaN otherwise; summed lane-wise in a vector (a NaN stays),
    // one pass at memory speed tells whether all are finite. Only then is the first bad value
    // looked for.
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
    guard !probe.isFinite else { return nil }
    return (0..<count).first { !values[$0].isFinite }
}

/// Checks that an N x `width` buffer holds only finite values; throws naming the first bad row
/// (counted from `firstRow`, the row `values` starts at).
@inline(__always)
func requireFinite<Scalar: BinaryFloatingPoint & SIMDScalar>(_ values: UnsafePointer<Scalar>, rows: Int, width: Int = 3, _ name: String,
                                                            firstRow: Int = 0, outcome: String = "nothing was processed") throws(CError) {
    guard let index = firstNonFinite(values, count: rows * width) else { return }
    throw CError(POISE_ERROR_NON_FINITE, "\(name): row \(firstRow + index / width), column \(index % width) is \(values[index]); \(outcome)")
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

/// The body of both in-place buffer entry points: `count` rows of 3 values, checked first, then
/// filtered in place (`FilterHandle.processRows`).
private func processBuffer<Scalar: BinaryFloatingPoint & SIMDScalar>(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Scalar>?,
                                                        _ count: Int, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        _ = try elementCount(count, width: 3, "samples")
        guard count > 0 else { return }
        guard let samples else { throw .null("samples") }
        try box.pointee.payload.processRows(from: samples, to: samples, count: count, "samples")
    }
}

@_cdecl("poise_filter_process_into")
public func cFilterProcessInto(_ handle: OpaquePointer?, _ input: UnsafePointer<Double>?, _ output: UnsafeMutablePointer<Double>?, _ count: Int,
                               _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    processInto(handle, input, output, count, error)
}

@_cdecl("poise_filter_process_into_f")
public func cFilterProcessIntoFloat(_ handle: OpaquePointer?, _ input: UnsafePointer<Float>?, _ output: UnsafeMutablePointer<Float>?, _ count: Int,
                                    _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    processInto(handle, input, output, count, error)
}

/// The body of both out-of-place entry points: `count` rows of 3 values from `input` to
/// `output` in one pass (the check in the same loop for the one-pole filters).
private func processInto<Scalar: BinaryFloatingPoint & SIMDScalar>(_ handle: OpaquePointer?, _ input: UnsafePointer<Scalar>?,
                                                                   _ output: UnsafeMutablePointer<Scalar>?, _ count: Int,
                                                                   _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FilterHandle.open(handle)
        let values = try elementCount(count, width: 3, "input")
        guard count > 0 else { return }
        guard let input else { throw .null("input") }
        guard let output else { throw .null("output") }
        let from = UInt(bitPattern: input), to = UInt(bitPattern: output)
        let distance = from > to ? from - to : to - from
        guard distance == 0 || distance >= UInt(values * MemoryLayout<Scalar>.stride) else {
            throw .invalid("input and output overlap without being the same buffer")
        }
        try box.pointee.payload.processRows(from: input, to: output, count: count, "input")
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
            throw CError(POISE_ERROR_BUFFER_TOO_SMALL, "the spec needs \(spec.utf8.count + 1) bytes, capacity is \(sizeText(capacity))")
        }
        copyCString(spec, into: UnsafeMutableRawBufferPointer(start: text, count: capacity))
    }
}
