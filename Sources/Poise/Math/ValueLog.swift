/// Where a measurement keeps the values it gathers one per sample and reads again, in order, in
/// later passes: the errors of `OrientationErrorAccumulator`'s 6D heading alignment, the
/// readings of `MagnetometerCalibrator`'s rejection rounds. Values are appended at the end and
/// visited forward, every one or every k-th; a pass may change them in place.
///
/// `InMemoryValueLog` keeps them in the heap (the default; an embedder's choice). A caller that
/// measures recordings longer than it wants in memory provides a log that keeps them elsewhere,
/// such as `poise`'s temporary file read and written through one block (`ValueLogFile` in
/// PoiseRun). A log whose storage fails (a full disk) says so in `failure` and goes on without
/// keeping values: the owner checks `failure` before it uses a result.
///
/// A log is a reference: it belongs to one measurement (one accumulator), used from one thread
/// at a time.
public protocol ValueLog<Element>: AnyObject, Sendable {
    /// The value type: numbers, SIMD vectors and structs of them (no references).
    associatedtype Element: BitwiseCopyable

    /// Values appended.
    var count: Int { get }

    /// The first error of the storage (for example a full temporary folder), or nil. After it,
    /// values are no longer kept and passes visit what was kept before it.
    var failure: (any Error)? { get }

    /// Appends `value` at index `count`.
    func append(_ value: Element)

    /// Calls `body` with index and value of the values at `stride(from: 0, to: count, by: step)`,
    /// in order.
    func forEach(every step: Int, _ body: (Int, Element) -> Void)

    /// Calls `body` with every value, in order, one block of consecutive values at a time: the
    /// index of the block's first value and the values, which `body` may change when `writing`
    /// is true (the changes are kept). A pass that visits every value is a plain loop over each
    /// block, not a call per value.
    func forEachBlock(writing: Bool, _ body: (_ first: Int, _ values: UnsafeMutableBufferPointer<Element>) -> Void)
}

extension ValueLog {
    /// Calls `body` with index and value of every value, in order.
    public func forEach(_ body: (Int, Element) -> Void) { forEach(every: 1, body) }

    /// Calls `body` with index and value of every value, in order; `body` may change the value
    /// (it is kept).
    public func update(_ body: (Int, inout Element) -> Void) {
        forEachBlock(writing: true) { first, values in
            for j in values.indices { body(first + j, &values[j]) }
        }
    }
}

/// A value log in the heap: one array, `count` × the element's stride bytes.
public final class InMemoryValueLog<Element: BitwiseCopyable>: ValueLog, @unchecked Sendable {
    private var values: [Element] = []

    public init() {}

    /// A log holding `values`, in order.
    init(values: [Element]) { self.values = values }

    public var count: Int { values.count }
    /// Always nil: the heap does not fail (an allocation failure ends the process).
    public var failure: (any Error)? { nil }

    public func append(_ value: Element) { values.append(value) }

    public func forEach(every step: Int, _ body: (Int, Element) -> Void) {
        precondition(step > 0)
        values.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count { body(i, buffer[i]); i += step }
        }
    }

    /// One block: the whole array.
    public func forEachBlock(writing: Bool, _ body: (_ first: Int, _ values: UnsafeMutableBufferPointer<Element>) -> Void) {
        values.withUnsafeMutableBufferPointer { body(0, $0) }
    }
}
