import Foundation

/// `scipy.signal.sosfilt` timed on the machine in the same run, as the reference for Poise's
/// SOS cascade (`filters` suite).
///
/// Writes the 3-axis input as float64 rows to a temporary file and runs a short Python program
/// (`$POISE_PYTHON`, default `python3`, which needs numpy and scipy) that times
/// `sosfilt(butter(order, 5, fs=100, output="sos"), x, axis=0)` — the median of 15 runs after 3
/// warm-up runs, like `measure` — once with the float64 design and once with the design cast to
/// float32 (scipy then filters in float32). Returns ns per 3-axis sample for each, or nil with
/// the reason when Python or scipy is missing.
func scipySosfilt(_ samples: [SIMD4<Float>], orders: [Int]) -> Result<[(label: String, nanoseconds: Double)], ScipyUnavailable> {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-sosfilt-\(getpid()).f64").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var rows = [Double]()
    rows.reserveCapacity(3 * samples.count)
    for s in samples { rows += [Double(s.x), Double(s.y), Double(s.z)] }
    guard (try? rows.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: path))) != nil else {
        return .failure(ScipyUnavailable(reason: "cannot write \(path)"))
    }
    let program = """
    import statistics, sys, time
    import numpy as np
    from scipy import signal
    x = np.fromfile(sys.argv[1], dtype=np.float64).reshape(-1, 3)
    for order in map(int, sys.argv[2:]):
        sos = signal.butter(order, 5, fs=100, output="sos")
        for label, s, data in [("float64", sos, x), ("float32", sos.astype(np.float32), x.astype(np.float32))]:
            for _ in range(3):
                signal.sosfilt(s, data, axis=0)
            times = []
            for _ in range(15):
                t = time.perf_counter(); signal.sosfilt(s, data, axis=0); times.append(time.perf_counter() - t)
            print(order, label, statistics.median(times) * 1e9 / len(x))
    """
    let python = ProcessInfo.processInfo.environment["POISE_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, "-c", program, path] + orders.map(String.init)
    let pipe = Pipe(), errors = Pipe()
    process.standardOutput = pipe
    process.standardError = errors
    do { try process.run() } catch { return .failure(ScipyUnavailable(reason: "cannot run \(python): \(error)")) }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        let last = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
        return .failure(ScipyUnavailable(reason: "\(python) with numpy and scipy: \(last)"))
    }
    var results: [(label: String, nanoseconds: Double)] = []
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count == 3, let ns = Double(fields[2]) else { continue }
        results.append(("order \(fields[0]) \(fields[1])", ns))
    }
    return .success(results)
}

/// Why the scipy reference could not be measured.
struct ScipyUnavailable: Error {
    var reason: String
}
