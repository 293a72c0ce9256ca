/// A type-erased filter for `Value` samples, as made by ``FilterSpec/makeFilter(_:sampleRate:)``.
///
/// Wraps any ``Filter``; `process` forwards to it (one dynamic call per sample, no allocation
/// while the wrapped filter is not shared with a copy). Copying forks the state.
public struct AnyFilter<Value: SignalValue>: Filter {
    @usableFromInline var base: any Filter<Value>

    /// Wraps `filter`.
    public init<Wrapped: Filter>(_ filter: Wrapped) where Wrapped.Value == Value {
        base = filter
    }

    @inlinable
    public mutating func process(_ input: Value) -> Value { base.process(input) }

    @inlinable
    public mutating func process(_ input: Value, dt: Double) -> Value { base.process(input, dt: dt) }

    @inlinable
    public mutating func reset() { base.reset() }
}
