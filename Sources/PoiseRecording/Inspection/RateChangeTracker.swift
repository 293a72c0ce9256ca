/// Finds where a recording's sample rate changes, in one pass with constant memory: the median
/// interval of each block of `blockSize` consecutive intervals is a block's rate; a block whose
/// rate differs from the current rate by more than `tolerance` (relative), followed by a block
/// that agrees with it, is a change at the first block's start. Medians make it blind to single
/// gaps and jitter; a change that lasts less than two blocks is not one.
struct RateChangeTracker: Sendable {
    /// Intervals per block (64).
    static let blockSize = 64
    /// Relative rate difference that counts as a change (5 %).
    static let tolerance = 0.05
    /// Changes kept in the report.
    static let limit = 20

    var block: [Double] = []
    var blockStart = 0.0
    var current: Double?
    var pending: (rate: Double, time: Double)?
    private(set) var changes: [RecordingInfo.RateChange] = []
    private(set) var count = 0

    /// Adds the interval (s, > 0) that ends at `time`.
    mutating func add(interval: Double, endingAt time: Double) {
        if block.isEmpty { blockStart = time - interval }
        block.append(interval)
        guard block.count == Self.blockSize else { return }
        block.sort()
        let rate = 1 / block[Self.blockSize / 2]
        block.removeAll(keepingCapacity: true)
        guard let now = current else { current = rate; return }
        func differs(_ a: Double, _ b: Double) -> Bool { (a - b).magnitude > Self.tolerance * b }
        guard differs(rate, now) else { pending = nil; return }
        if let p = pending, !differs(rate, p.rate) {
            count += 1
            if changes.count < Self.limit { changes.append(.init(timeS: p.time, fromHz: now, toHz: p.rate)) }
            current = p.rate
            pending = nil
        } else {
            pending = (rate, blockStart)
        }
    }
}
