import Foundation

/// Minimal benchmark harness: runs a body repeatedly, reports the median, and compares
/// ratios against a reference measured in the same run.
struct Measurement {
    var name: String
    /// Median wall time per run in nanoseconds.
    var medianNanoseconds: Double
    /// Work items per run (samples, rows, updates…), to report time per item.
    var items: Int
    var nanosecondsPerItem: Double { medianNanoseconds / Double(items) }
}

/// Times `body` `runs` times (after `warmup` runs) and returns the median.
func measure(_ name: String, items: Int, runs: Int = 15, warmup: Int = 3, _ body: () -> Void) -> Measurement {
    for _ in 0..<warmup { body() }
    var times: [Double] = []
    times.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let end = DispatchTime.now().uptimeNanoseconds
        times.append(Double(end - start))
    }
    times.sort()
    return Measurement(name: name, medianNanoseconds: times[times.count / 2], items: items)
}

/// A checked target: `value` must be `<=` `limit` (ratios: lower is better).
struct Check {
    var name: String
    var value: Double
    var limit: Double
    var passed: Bool { value <= limit }
}

/// Everything a suite reports.
final class Report {
    var measurements: [Measurement] = []
    var checks: [Check] = []
    var notes: [String] = []

    func add(_ m: Measurement) { measurements.append(m) }
    func check(_ name: String, _ value: Double, atMost limit: Double) {
        checks.append(Check(name: name, value: value, limit: limit))
    }

    func print(suite: String) {
        Swift.print("== \(suite)")
        for m in measurements {
            Swift.print(String(format: "  %-52@ %12.3f ns/item  (median %.3f ms, %d items)",
                               m.name as NSString, m.nanosecondsPerItem, m.medianNanoseconds / 1e6, m.items))
        }
        for c in checks {
            Swift.print(String(format: "  %@ %-48@ %8.3f (limit %.3f)",
                               (c.passed ? "PASS" : "FAIL") as NSString, c.name as NSString, c.value, c.limit))
        }
        for n in notes { Swift.print("  note: \(n)") }
    }
}

/// Keeps a value alive so the optimiser cannot delete the work that produced it.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
