#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock that can wait for an absolute deadline. The replay engine takes one as a
/// generic parameter, so tests inject a scripted clock and get deterministic timing.
///
/// Times are integer nanoseconds on the clock's own monotonic time line (only differences
/// matter).
public protocol PacingClock {
    /// The current time, ns.
    mutating func now() -> Int64
    /// Returns at or as soon as possible after `deadline` (ns); returns at once when the
    /// deadline has passed.
    mutating func sleep(until deadline: Int64)
}

/// The real clock: `CLOCK_MONOTONIC`, an absolute `clock_nanosleep` to `spinThreshold` before the
/// deadline, then a busy wait reading the clock until the deadline.
///
/// On this project's machine kind a plain absolute sleep wakes late: p50 ≈ 100 µs and p90
/// 130–200 µs on an idle virtual machine (the vCPU halts and the hypervisor wakes it), less on a
/// busy one, with a millisecond tail. A 200 µs margin was enough under load but missed about one
/// deadline in ten on an idle machine (p90 lateness 240 µs), so the default is 1 ms: sleep to 1 ms
/// before the deadline and spin the rest, at the cost of ≤ 1 ms of busy CPU per sample (about
/// 10 % of one core at 100 Hz). Stalls longer than the margin still show as lateness.
/// `spinThreshold: 0` gives a plain absolute sleep, for comparison.
public struct MonotonicClock: PacingClock, Sendable {
    /// How long before the deadline to stop sleeping and start spinning, ns (default 1 ms).
    public var spinThreshold: Int64

    /// Creates the clock. `spinThreshold` in ns, ≥ 0 (default 1 000 000 = 1 ms).
    public init(spinThreshold: Int64 = 1_000_000) {
        self.spinThreshold = max(0, spinThreshold)
    }

    @inlinable
    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    public func sleep(until deadline: Int64) {
        let wake = deadline - spinThreshold
        if now() < wake {
            var spec = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
            #if canImport(Glibc)
            // Absolute sleep: an interrupted sleep resumes toward the same deadline.
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
            #else
            var remaining = timespec()
            var relative = wake - now()
            while relative > 0 {
                var request = timespec(tv_sec: Int(relative / 1_000_000_000), tv_nsec: Int(relative % 1_000_000_000))
                if nanosleep(&request, &remaining) == 0 { break }
                relative = wake - now()
            }
            _ = spec
            #endif
        }
        while now() < deadline {}
    }
}

/// Process CPU time (user + system) in nanoseconds, from `getrusage`. Used to report how much
/// CPU the pacing loop burns relative to wall time.
public func processCPUTime() -> Int64 {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func nanoseconds(_ t: timeval) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1_000 }
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}

/// Real-time scheduling for the pacing thread (Linux `SCHED_FIFO`), so that on a busy machine the
/// thread waiting for a deadline is not preempted by ordinary processes during its final spin.
///
/// Needs permission (root, `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` allowance); without it `raise`
/// returns `nil` and pacing runs at normal priority. The kernel's real-time throttling
/// (`sched_rt_runtime_us`, 95 % by default) keeps a real-time thread from starving the machine,
/// and the replay engine only spins for the last millisecond before each deadline.
public struct RealTimeScheduling: Sendable {
    private let policy: Int32
    private let priority: Int32

    /// Switches the calling thread to `SCHED_FIFO` at `priority` (1…99, default 10); `nil` when
    /// not permitted or not supported. Call `restore()` on the same thread afterwards.
    public static func raise(priority: Int32 = 10) -> RealTimeScheduling? {
        #if canImport(Glibc)
        var oldPolicy: Int32 = 0
        var oldParameters = sched_param()
        guard pthread_getschedparam(pthread_self(), &oldPolicy, &oldParameters) == 0 else { return nil }
        var parameters = sched_param()
        parameters.sched_priority = priority
        guard pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters) == 0 else { return nil }
        return RealTimeScheduling(policy: oldPolicy, priority: oldParameters.sched_priority)
        #else
        return nil
        #endif
    }

    /// Returns the calling thread to the scheduling it had before `raise`.
    public func restore() {
        #if canImport(Glibc)
        var parameters = sched_param()
        parameters.sched_priority = priority
        _ = pthread_setschedparam(pthread_self(), policy, &parameters)
        #endif
    }
}
