import Poise

/// Keeps the last record of a run (for a summary of the final state: attitude, bias); its
/// summary is that record, or `nil` when the run processed none.
public struct LastRecordSink: Sink, Sendable {
    private var last: ProcessedSample?

    public typealias Summary = ProcessedSample?

    public init() {}

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        last = record
    }

    public mutating func finish(_ end: RunEnd) -> ProcessedSample? { last }
}
