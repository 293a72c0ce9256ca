import Foundation

/// Watches a live stream for pauses from its own thread, since the stream's reader blocks while
/// nothing arrives: once no sample has arrived for longer than `limit`, it reports `waiting`
/// every `tick` (announced at first and every `repeatInterval`), and `sampleArrived` reports
/// `resumed` when the next sample comes.
final class SilenceWatch: @unchecked Sendable {
    /// How often the watch looks, s.
    static let tick = 0.25
    /// A pause still going on is announced again after this many seconds, s.
    static let repeatInterval = 10.0

    /// Guards the state; `stop()` signals it so the thread ends at once instead of after a tick.
    private let lock = NSCondition()
    private let limit: Double
    private let report: @Sendable (LiveWait) -> Void
    private var last: Int64
    private var waiting = false
    private var nextAnnouncement = 0.0
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts watching from `start` (ns, `CLOCK_MONOTONIC`); `limit` in s.
    init(start: Int64, limit: Double, report: @escaping @Sendable (LiveWait) -> Void) {
        last = start
        self.limit = limit
        self.report = report
        let thread = Thread { [self] in watch() }
        thread.name = "poise live silence watch"
        thread.start()
    }

    /// A sample arrived at `time` (ns, `CLOCK_MONOTONIC`); reports `resumed` when a pause was
    /// being reported.
    func sampleArrived(at time: Int64) {
        lock.lock(); defer { lock.unlock() }
        if waiting { report(LiveWait(kind: .resumed, seconds: Double(time - last) * 1e-9, announce: true)) }
        waiting = false
        last = Swift.max(last, time)
    }

    /// Stops the watch thread and waits for it, so no report comes after this returns.
    func stop() {
        lock.lock()
        let running = !stopped
        stopped = true
        lock.signal()
        lock.unlock()
        if running { done.wait() }
    }

    private func watch() {
        defer { done.signal() }
        lock.lock()
        defer { lock.unlock() }
        while true {
            _ = lock.wait(until: Date(timeIntervalSinceNow: Self.tick))
            if stopped { return }
            let pause = Double(MonotonicClock().now() - last) * 1e-9
            if pause > limit {
                var announce = false
                if !waiting {
                    waiting = true
                    announce = true
                    nextAnnouncement = pause + Self.repeatInterval
                } else if pause >= nextAnnouncement {
                    announce = true
                    nextAnnouncement += Self.repeatInterval
                }
                // Reported under the lock, so a resumption is never reported before its wait.
                report(LiveWait(kind: .waiting, seconds: pause, announce: announce))
            }
        }
    }
}
