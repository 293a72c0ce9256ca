import PoiseRun

/// A deterministic clock starting at `origin`: every `sleep(until:)` whose deadline is still ahead
/// wakes exactly `lateness(deadline − origin)` ns after it; a sleep for a passed deadline returns
/// at once.
/// Each `now()` returns the current time and then advances it by `readCost` ns, which the replay
/// engine therefore measures as the processing cost of every sample.
struct ScriptedClock: PacingClock {
    static let origin: Int64 = 1_000_000_000
    var time: Int64 = origin
    var readCost: Int64 = 0
    var lateness: (Int64) -> Int64 = { _ in 0 }
    var sleeps = 0

    mutating func now() -> Int64 {
        defer { time += readCost }
        return time
    }

    mutating func sleep(until deadline: Int64) {
        guard deadline > time else { return }
        time = deadline + lateness(deadline - Self.origin)
        sleeps += 1
    }
}
