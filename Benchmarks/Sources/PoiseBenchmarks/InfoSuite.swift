import Foundation
import Poise
import PoiseRecording

/// `poise info`'s inspection (`RecordingInspector`) is linear: rows per second stay about the same
/// from 10 thousand to 10 million rows.
///
/// Samples come from a generator (nothing is stored): 100 Hz with ±15 % timestamp jitter (so most
/// intervals differ and many are long compared with the shortest, which a gap list kept in an
/// array and pruned per row would make quadratic), one very short interval at the start, a 0.5 s
/// gap every 5000 rows, and movement alternating with still phases every 10 s. The check: ns per row at 10 M rows over ns per row at 100 k rows ≤ 2.
func infoSuite(_ r: Report) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-info-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let header = folder.appendingPathComponent("header.csv").path
    let text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n0,0,0,1,0,0,0\n"
    guard FileManager.default.createFile(atPath: header, contents: Data(text.utf8)),
          let schema = try? RecordingReader(path: header).schema else {
        r.notes.append("could not make the recording schema"); return
    }

    func inspect(rows: Int) -> RecordingInfo {
        var inspector = RecordingInspector(schema: schema)
        var random = SplitMix(seed: 7)
        var time = 0.0
        for i in 0..<rows {
            time += i == 1 ? 0.0002 : 0.01 * (1 + 0.3 * (random.unit() - 0.5)) + (i % 5000 == 4999 ? 0.5 : 0)
            let moving = Int(time / 10) % 2 == 1
            let wobble = moving ? 0.2 * Double.sin(2 * Double.pi * time) : 0
            let noise = SIMD3(random.unit() - 0.5, random.unit() - 0.5, random.unit() - 0.5) * 0.002
            inspector.add(MotionSample(time: time, acceleration: SIMD3(wobble, 0, 1) + noise,
                                       rotationRate: SIMD3(0, moving ? 0.5 : 0, 0) + noise))
        }
        var summary = ReadSummary()
        summary.rowsDelivered = rows
        return inspector.finish(path: "generated", summary: summary, issues: [])
    }

    var perRow: [Int: Double] = [:]
    for (rows, runs) in [(10_000, 5), (100_000, 3), (1_000_000, 1), (10_000_000, 1)] {
        var gaps = 0
        let m = measure("RecordingInspector, \(rows) rows", items: rows, runs: runs, warmup: rows <= 100_000 ? 1 : 0) {
            let info = inspect(rows: rows)
            gaps = info.gapCount
            blackHole(info)
        }
        r.add(m)
        perRow[rows] = m.nanosecondsPerItem
        r.notes.append(String(format: "%d rows: %.2f M rows/s, %d gaps found (%d inserted)",
                              rows, 1e3 / m.nanosecondsPerItem, gaps, rows / 5000))
    }
    if let small = perRow[100_000], let large = perRow[10_000_000] {
        r.check("ns/row at 10 M rows ÷ at 100 k rows", large / small, atMost: 2)
    }
}

/// SplitMix64, for reproducible generated samples.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
