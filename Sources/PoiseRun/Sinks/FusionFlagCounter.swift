import Poise

/// Counts the records whose fusion status (`ProcessedSample.fusion`, written by a fusion stage)
/// has each of the given flags; a record without a status counts for none. The summary maps
/// each name to its count, with only the flags that were seen at least once.
public struct FusionFlagCounter: Sink, Sendable {
    /// The flags counted, each with the name it has in the summary.
    public let flags: [(name: String, flag: DeviceMotion.Flags)]
    private var counts: [Int]

    public typealias Summary = [String: Int]

    /// - Parameter flags: the flags to count and their names (for example
    ///   `("at_rest", .atRest)`).
    public init(_ flags: [(name: String, flag: DeviceMotion.Flags)]) {
        self.flags = flags
        counts = Array(repeating: 0, count: flags.count)
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        guard let status = record.fusion else { return }
        for index in flags.indices where status.flags.contains(flags[index].flag) { counts[index] += 1 }
    }

    /// The counts by name, only for the flags seen.
    public mutating func finish(_ end: RunEnd) -> [String: Int] {
        var seen: [String: Int] = [:]
        for (index, count) in counts.enumerated() where count > 0 { seen[flags[index].name] = count }
        return seen
    }
}
