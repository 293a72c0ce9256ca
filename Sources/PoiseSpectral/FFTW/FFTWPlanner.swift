import CFFTW
import Foundation

// FFTW's planner (every `fftw_plan_*` call and `fftw_destroy_plan`) is not thread-safe; only
// `fftw_execute` and the new-array execute functions (`fftw_execute_dft_r2c`, …) are. Poise keeps
// that rule in one place: every planner call goes through `FFTWPlanner.withLock`, and plans are
// only ever executed through the new-array functions on buffers from `fftw_malloc`, so one plan
// can serve any number of threads at once.

/// The kind of transform a cached plan computes.
enum FFTWPlanKind: Hashable, Sendable {
    /// Real → half-complex (`r2c`), out of place.
    case realForward
    /// Half-complex → real (`c2r`), out of place; destroys its input.
    case realInverse
}

/// What identifies a plan in the cache.
struct FFTWPlanKey: Hashable, Sendable {
    var kind: FFTWPlanKind
    /// Transform length in samples.
    var count: Int
    /// How hard FFTW looks for a fast algorithm.
    var planning: FFTPlanning
}

/// How much effort FFTW spends choosing an algorithm when a plan is first made. Plans are
/// cached per length and effort, so the cost is paid once per process.
///
/// Measured on this project's 2-core AMD EPYC machine (FFTW 3.3.10), length 1024: `estimate`
/// plans in well under 1 ms and runs in 1.39 µs; `measure` plans in about 250 ms and runs in
/// 1.04 µs. Up to 0.5 s of planning for some lengths makes `measure` worth it only for long,
/// repeated work (benchmarks, servers); one-shot tools should keep the default.
public enum FFTPlanning: String, Sendable, Hashable, Codable {
    /// `FFTW_ESTIMATE`: heuristic choice, no timing. The default.
    case estimate
    /// `FFTW_MEASURE`: times candidate algorithms once, keeps the fastest. Results may differ
    /// from `estimate` in the last bits (different summation order).
    case measure

    var flags: UInt32 {
        switch self {
        case .estimate: UInt32(FFTW_ESTIMATE)
        case .measure: UInt32(FFTW_MEASURE)
        }
    }
}

/// An FFTW plan. Owned by this object and destroyed (under the planner lock) in `deinit`.
///
/// Immutable after creation; safe to share across threads because Poise executes it only through
/// FFTW's thread-safe new-array functions.
final class FFTWPlan: @unchecked Sendable {
    let key: FFTWPlanKey
    let pointer: OpaquePointer

    fileprivate init(key: FFTWPlanKey, pointer: OpaquePointer) {
        self.key = key
        self.pointer = pointer
    }

    deinit {
        FFTWPlanner.withLock { fftw_destroy_plan(pointer) }
    }

    /// Runs a forward plan on `input` (`count` reals) into `output` (`count / 2 + 1` complex).
    /// Both must come from `fftw_malloc` (or be offsets of it that keep its alignment).
    @inline(__always)
    func executeForward(_ input: UnsafeMutablePointer<Double>, _ output: UnsafeMutablePointer<fftw_complex>) {
        precondition(key.kind == .realForward)
        fftw_execute_dft_r2c(pointer, input, output)
    }

    /// Runs an inverse plan; overwrites `input`. Both must come from `fftw_malloc`.
    @inline(__always)
    func executeInverse(_ input: UnsafeMutablePointer<fftw_complex>, _ output: UnsafeMutablePointer<Double>) {
        precondition(key.kind == .realInverse)
        fftw_execute_dft_c2r(pointer, input, output)
    }
}

/// The one lock around FFTW's planner, and a thread-safe cache of plans keyed by
/// kind, length and planning effort, so a plan is made once per shape and reused.
enum FFTWPlanner {
    private static let lock = NSLock()
    private static let cache = PlanCache()

    /// Plans kept at most; the oldest is dropped beyond this (a dropped plan stays alive for as
    /// long as someone still holds it, and is destroyed when the last holder lets go).
    static let cacheCapacity = 64

    /// Runs `body` holding the planner lock. Every FFTW planner call must go through here.
    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The cached plan for `key`, made on first use.
    static func plan(_ key: FFTWPlanKey) -> FFTWPlan {
        // An evicted plan may be the last reference; its deinit takes the (non-recursive) lock,
        // so it is released only after the lock is given back, when `evicted` goes out of scope.
        var evicted: FFTWPlan?
        let plan: FFTWPlan = withLock {
            if let plan = cache.plans[key] { return plan }
            let plan = makePlanLocked(key)
            evicted = cache.insert(plan)
            return plan
        }
        withExtendedLifetime(evicted) {}
        return plan
    }

    /// Number of plans in the cache (for tests and diagnostics).
    static var cachedPlanCount: Int { withLock { cache.plans.count } }

    /// Creates a plan on scratch buffers (planning with `FFTW_MEASURE` overwrites them).
    /// Caller holds the lock.
    private static func makePlanLocked(_ key: FFTWPlanKey) -> FFTWPlan {
        let real = fftw_alloc_real(key.count)!
        let complex = fftw_alloc_complex(key.count / 2 + 1)!
        defer { fftw_free(real); fftw_free(complex) }
        let pointer: OpaquePointer?
        switch key.kind {
        case .realForward:
            pointer = fftw_plan_dft_r2c_1d(Int32(key.count), real, complex, key.planning.flags)
        case .realInverse:
            pointer = fftw_plan_dft_c2r_1d(Int32(key.count), complex, real, key.planning.flags)
        }
        // FFTW returns NULL only for impossible requests (non-positive sizes), which the public
        // API rejects before getting here.
        guard let pointer else { fatalError("FFTW could not plan \(key)") }
        return FFTWPlan(key: key, pointer: pointer)
    }
}

/// Storage of the plan cache; only touched with the planner lock held.
private final class PlanCache: @unchecked Sendable {
    var plans: [FFTWPlanKey: FFTWPlan] = [:]
    var order: [FFTWPlanKey] = []

    /// Adds a plan; returns the plan dropped to stay within capacity, if any, for the caller
    /// to release after unlocking.
    func insert(_ plan: FFTWPlan) -> FFTWPlan? {
        plans[plan.key] = plan
        order.append(plan.key)
        guard order.count > FFTWPlanner.cacheCapacity else { return nil }
        return plans.removeValue(forKey: order.removeFirst())
    }
}
