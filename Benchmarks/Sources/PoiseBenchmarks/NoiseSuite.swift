import Foundation
import Poise

/// Overlapping Allan deviation of 10^7 samples × 6 axes at octave cluster sizes (m = 1 … 2²²),
/// single-threaded — Poise (`AllanDeviation.overlapping`, and the streaming accumulator with the
/// `poise allan` default bound of 2¹⁹ samples) against allantools.oadev on the same data in the
/// same run (Benchmarks/scripts/bench_allan.py; `$POISE_PYTHON` needs numpy and allantools:
/// Benchmarks/peers/allan.sh makes such a Python). Target: under 2 s.
func noiseSuite(_ r: Report) {
    let samples = 10_000_000, rate = 400.0, channelCount = 6
    // Six channels: white noise, half of them with a random walk on top (deterministic LCG).
    var state: UInt64 = 0xA11A
    func uniform() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) * 0x1p-53 - 0.5
    }
    let channels: [[Double]] = (0..<channelCount).map { c in
        var walk = 0.0
        return (0..<samples).map { _ in
            if c % 2 == 1 { walk += 1e-4 * uniform() }
            return 0.01 * uniform() + walk + Double(c)
        }
    }
    let items = samples * channelCount
    var poise = AllanDeviation(sampleInterval: 0, sampleCount: 0, clusterSizes: [], termCounts: [], deviations: [])
    // CPU time too: on a shared machine the wall time includes waiting for a core.
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    }
    let cpuStart = cpuSeconds()
    let whole = measure("overlapping ADEV 10^7×6, octave m ≤ 2^22: Poise", items: items, runs: 3, warmup: 1) {
        poise = AllanDeviation.overlapping(channels, sampleRate: rate)
    }
    r.add(whole)
    r.notes.append(String(format: "overlapping ADEV 10^7×6 (m ≤ 2^22): Poise CPU time %.2f s per run (user time over the 4 runs)", (cpuSeconds() - cpuStart) / 4))
    r.check("overlapping ADEV 10^7×6: Poise seconds / 2 s", whole.medianNanoseconds / 1e9 / 2, atMost: 1)
    let streamed = measure("overlapping ADEV 10^7×6, octave m ≤ 2^19: Poise streaming (poise allan's bound)", items: items, runs: 3, warmup: 1) {
        var accumulator = AllanDeviationAccumulator(channelCount: channelCount, maximumClusterSize: 1 << 19)
        var row = [Double](repeating: 0, count: channelCount)
        for i in 0..<samples {
            for c in 0..<channelCount { row[c] = channels[c][i] }
            accumulator.add(row)
        }
        blackHole(accumulator.result(sampleInterval: 1 / rate))
    }
    r.add(streamed)

    // allantools on the same data, in the same run.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poise-bench-allan-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let dataURL = directory.appendingPathComponent("signal.f64"), outURL = directory.appendingPathComponent("adev.f64")
    guard (try? channels.flatMap { $0 }.withUnsafeBytes { Data($0) }.write(to: dataURL)) != nil else {
        r.notes.append("could not write \(dataURL.path)"); return
    }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Benchmarks/scripts/bench_allan.py").standardized
    let python = ProcessInfo.processInfo.environment["POISE_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script.path, "--data", dataURL.path, "--channels", "\(channelCount)", "--rate", "\(rate)", "--out", outURL.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { r.notes.append("\(python) not found: allantools ratio not measured"); return }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
          let seconds = json["seconds"] as? Double else {
        r.notes.append("Benchmarks/scripts/bench_allan.py failed (allantools missing? run Benchmarks/peers/allan.sh): ratio not measured"); return
    }
    r.notes.append(String(format: "allantools %@ oadev on the same data (one run): %.2f s", "\(json["allantools"] ?? "?")", seconds))
    r.notes.append(String(format: "overlapping ADEV: allantools / Poise = %.1f", seconds / (whole.medianNanoseconds / 1e9)))
    if let data = try? Data(contentsOf: outURL) {
        let theirs = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        let mine = poise.deviations.flatMap { $0 }
        if theirs.count == mine.count {
            let worst = zip(mine, theirs).map { abs($0 - $1) / $1 }.max() ?? 0
            r.notes.append(String(format: "overlapping ADEV: max relative difference to allantools %.2e", worst))
            r.check("overlapping ADEV: max relative difference to allantools / 1e-9", worst / 1e-9, atMost: 1)
        } else {
            r.notes.append("allantools gave \(theirs.count) deviations, Poise \(mine.count)")
        }
    }
}
