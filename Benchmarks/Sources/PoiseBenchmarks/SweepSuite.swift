import Foundation
import Poise
import PoiseRun

/// `sweep`: the cost of one filter-parameter sweep (the engine behind `poise bench`).
///
/// Input: a deterministic 60 s, 100 Hz recording (still and tilting periods, as in the
/// PoiseRun tests). Measured: the factor default grid (25 points) on one thread and on all
/// cores, per point-sample; the reference is the bare filtering of the same samples for the same
/// 25 specs (what any sweep must at least do), measured in the same run.
func sweepSuite(_ r: Report) {
    let samples = sweepBenchmarkRecording(seconds: 60, rate: 100)
    guard let recording = try? SweepRecording(name: "simulated", samples: samples),
          let sweep = try? FilterSweep(filter: "factor") else {
        r.notes.append("could not prepare the sweep input")
        return
    }
    let items = sweep.settings.count * samples.count
    let filtersOnly = measure("sweep reference: filtering only (25 specs)", items: items, runs: 7, warmup: 1) {
        for setting in sweep.settings {
            guard var filter: AnyFilter<SIMD3<Double>> = try? setting.spec.makeFilter(sampleRate: 100) else { continue }
            blackHole(filterAcceleration(&filter, samples: samples))
        }
    }
    let single = measure("sweep factor default grid, 1 thread", items: items, runs: 7, warmup: 1) {
        blackHole(try? Sweeper.run(sweep.settings, on: [recording], threads: 1))
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let parallel = measure("sweep factor default grid, \(cores) threads", items: items, runs: 7, warmup: 1) {
        blackHole(try? Sweeper.run(sweep.settings, on: [recording], threads: cores))
    }
    r.add(filtersOnly)
    r.add(single)
    r.add(parallel)
    // Metrics (two step runs of 80 s each, jitter, a 100-shift lag search) cost a bounded
    // multiple of the filtering itself.
    r.check("sweep 1 thread / filtering only", single.nanosecondsPerItem / filtersOnly.nanosecondsPerItem, atMost: 60)
    r.notes.append(String(format: "parallel speed-up on %d cores: %.2f×", cores, single.medianNanoseconds / parallel.medianNanoseconds))
}

/// Still (with ±0.004 g noise) and tilting periods alternating every 3 s.
func sweepBenchmarkRecording(seconds: Double, rate: Double) -> [MotionSample] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func noise() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.008
    }
    return (0..<Int(seconds * rate)).map { i in
        let t = Double(i) / rate
        let moving = t.truncatingRemainder(dividingBy: 6) >= 3
        let angle = moving ? 0.8 * sin(2 * Double.pi * 0.7 * t) : 0
        return MotionSample(time: t, acceleration: SIMD3(noise(), sin(angle) + noise(), cos(angle) + noise()),
                            rotationRate: SIMD3(moving ? 3.5 * cos(2 * Double.pi * 0.7 * t) : 0, 0, 0))
    }
}
