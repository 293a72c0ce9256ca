/// A type-erased filter for `Value` samples, as made by ``FilterSpec/makeFilter(_:sampleRate:)``.
///
/// Wraps any ``Filter`` with value semantics: copying an `AnyFilter` forks the state (the
/// wrapped filter lives in a private box copied on the first mutation of a shared copy).
/// `process` is one indirect call into code specialised for the wrapped type — not an
/// existential, whose witnesses would run the unspecialised generic code (hundreds of times
/// slower for SIMD values). No allocation per sample.
public struct AnyFilter<Value: SignalValue>: Filter, @unchecked Sendable {
    // @unchecked: `box` is owned by this value alone (copied before mutation when shared), and
    // the wrapped filter is Sendable.
    @usableFromInline var box: AnyFilterStorage
    @usableFromInline let operations: Operations

    /// Entry points specialised for the wrapped filter type.
    @usableFromInline
    struct Operations: Sendable {
        @usableFromInline let process: @Sendable (AnyFilterStorage, Value) -> Value
        @usableFromInline let processWithPeriod: @Sendable (AnyFilterStorage, Value, Double) -> Value
        @usableFromInline let processBuffer: @Sendable (AnyFilterStorage, UnsafeBufferPointer<Value>, UnsafeMutableBufferPointer<Value>) -> Void
        @usableFromInline let processBufferWithPeriods: @Sendable (AnyFilterStorage, UnsafeBufferPointer<Value>, UnsafeBufferPointer<Double>,
                                                                   UnsafeMutableBufferPointer<Value>) -> Void
        @usableFromInline let reset: @Sendable (AnyFilterStorage) -> Void
        @usableFromInline let copy: @Sendable (AnyFilterStorage) -> AnyFilterStorage

        @inlinable
        init(process: @escaping @Sendable (AnyFilterStorage, Value) -> Value,
             processWithPeriod: @escaping @Sendable (AnyFilterStorage, Value, Double) -> Value,
             processBuffer: @escaping @Sendable (AnyFilterStorage, UnsafeBufferPointer<Value>, UnsafeMutableBufferPointer<Value>) -> Void,
             processBufferWithPeriods: @escaping @Sendable (AnyFilterStorage, UnsafeBufferPointer<Value>, UnsafeBufferPointer<Double>,
                                                            UnsafeMutableBufferPointer<Value>) -> Void,
             reset: @escaping @Sendable (AnyFilterStorage) -> Void,
             copy: @escaping @Sendable (AnyFilterStorage) -> AnyFilterStorage) {
            self.process = process
            self.processWithPeriod = processWithPeriod
            self.processBuffer = processBuffer
            self.processBufferWithPeriods = processBufferWithPeriods
            self.reset = reset
            self.copy = copy
        }
    }

    /// Wraps `filter`. Call it where the filter's type is concrete (or from inlinable generic
    /// code) so that the entry points are specialised.
    @inlinable
    public init<Wrapped: Filter>(_ filter: Wrapped) where Wrapped.Value == Value {
        box = FilterBox(filter)
        operations = Operations(
            process: { unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter.process($1) },
            processWithPeriod: { unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter.process($1, dt: $2) },
            processBuffer: { unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter.process($1, into: $2) },
            processBufferWithPeriods: { unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter.process($1, dt: $2, into: $3) },
            reset: { unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter.reset() },
            copy: { FilterBox(unsafeDowncast($0, to: FilterBox<Wrapped>.self).filter) }
        )
    }

    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = operations.copy(box) }
    }

    @inlinable
    public mutating func process(_ input: Value) -> Value {
        makeUnique()
        return operations.process(box, input)
    }

    @inlinable
    public mutating func process(_ input: Value, dt: Double) -> Value {
        makeUnique()
        return operations.processWithPeriod(box, input, dt)
    }

    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, into output: UnsafeMutableBufferPointer<Value>) {
        makeUnique()
        operations.processBuffer(box, input, output)
    }

    /// The wrapped filter's loop over a buffer with per-sample periods (one indirect call per
    /// buffer, not per sample): `output[i] = process(input[i], dt: dt[i])` exactly.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, dt: UnsafeBufferPointer<Double>,
                                 into output: UnsafeMutableBufferPointer<Value>) {
        precondition(output.count >= input.count && dt.count >= input.count, "buffer shorter than input")
        makeUnique()
        operations.processBufferWithPeriods(box, input, dt, output)
    }

    @inlinable
    public mutating func reset() {
        makeUnique()
        operations.reset(box)
    }

    /// Runs `body` on the wrapped filter, in place, when it is a `Wrapped`, and returns what
    /// `body` returns; returns nil without running `body` for a filter of another type. For a
    /// loop written for one filter type (the C API reads interleaved rows straight into the
    /// one-pole low-pass).
    @inlinable
    public mutating func withWrapped<Wrapped: Filter, Result>(_ type: Wrapped.Type, _ body: (inout Wrapped) -> Result) -> Result?
    where Wrapped.Value == Value {
        guard Swift.type(of: box) == FilterBox<Wrapped>.self else { return nil }
        makeUnique()
        return body(&unsafeDowncast(box, to: FilterBox<Wrapped>.self).filter)
    }
}

/// Base of the boxes that hold type-erased filters.
@usableFromInline
class AnyFilterStorage {
    @usableFromInline init() {}
}

@usableFromInline
final class FilterBox<Wrapped: Filter>: AnyFilterStorage {
    // Only ever accessed through AnyFilter's mutating methods on a uniquely referenced box, so
    // the runtime exclusivity check (a measurable share of a per-sample call) is not needed.
    @exclusivity(unchecked) @usableFromInline var filter: Wrapped
    @usableFromInline init(_ filter: Wrapped) { self.filter = filter }
}
