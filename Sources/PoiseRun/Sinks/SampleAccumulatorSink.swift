import Poise

/// A sink that hands every record's input sample (`ProcessedSample.input`, as read) to a
/// `SampleAccumulator` and returns the accumulator as its summary: how `poise calibrate` gathers
/// what its fit needs (the still segments' means, the bias sums, the distinct field readings) in
/// one `Run`.
public struct SampleAccumulatorSink<Accumulator: SampleAccumulator>: Sink {
    public var accumulator: Accumulator

    public init(_ accumulator: Accumulator) { self.accumulator = accumulator }

    @inlinable
    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        accumulator.add(record.input)
    }

    public mutating func finish(_ end: RunEnd) throws -> Accumulator { accumulator }
}
