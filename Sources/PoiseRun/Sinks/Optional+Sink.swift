import Poise

/// A sink that may be absent (an output a command writes only when asked for): `nil` takes
/// nothing and its summary is `nil`.
extension Optional: Sink where Wrapped: Sink {
    public typealias Summary = Wrapped.Summary?

    public mutating func begin(_ schema: RunSchema) throws {
        try self?.begin(schema)
    }

    @inlinable
    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        try self?.consume(record, delivery)
    }

    public mutating func consume(frame: FrameDelivery) throws {
        try self?.consume(frame: frame)
    }

    public mutating func finish(_ end: RunEnd) throws -> Wrapped.Summary? {
        try self?.finish(end)
    }
}
