import Foundation
import Poise
import PoiseRecording
import PoiseReports

/// `report`: `poise report`'s whole page (`RecordingReport` of a file: the scan, which parses the
/// CSV once and spools the samples, then the passes over the spool with the 210-setting sweep)
/// on 10 minutes of the `rotations-with-breaks` scenario at 200 Hz (120,000 rows, still
/// segments, so the full sweep runs), per sample, on all cores.
///
/// Reference in the same run: one parse of the same file (`RecordingScan`, one read: the rate
/// comes from the first rows). Check: the report costs at most 32 parses (a 2-vCPU machine busy
/// with other builds: 21–24; the report parses the CSV once and reads its spool in a few passes,
/// and the sweep is most of the rest). The hour at 200 Hz that
/// docs/reports.md times is six times this recording.
func reportSuite(_ r: Report) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-report-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("rotations-with-breaks-600s.csv").path
    var count = 0
    do {
        let writer = try RecordingWriter(path: path, options: WriteOptions(includeMagneticField: true, includeTruth: true, includeMovement: true))
        for sample in Simulator(SimulationConfiguration(scenario: .rotationsWithBreaks, rate: 200, duration: 600)) {
            try writer.write(sample)
            count += 1
        }
        try writer.close()
    } catch {
        r.notes.append("could not write the recording: \(error)"); return
    }
    let parse = measure("report reference: one parse of the CSV (RecordingScan)", items: count, runs: 5, warmup: 1) {
        blackHole(try? RecordingScan(path: path))
    }
    var options = ReportOptions()
    options.threads = ProcessInfo.processInfo.activeProcessorCount
    var pipeline = ""
    let report = measure("poise report (RecordingReport of the file, \(options.threads) threads)", items: count, runs: 3, warmup: 1) {
        let page = try? RecordingReport(input: ReportInput(path: path), options: options)
        pipeline = page?.pipeline ?? "no page"
        blackHole(page?.html().count)
    }
    r.add(parse)
    r.add(report)
    r.check("report ÷ one parse of the file", report.medianNanoseconds / parse.medianNanoseconds, atMost: 32)
    r.notes.append(String(format: "%d rows; report %.2f s, one parse %.3f s; pipeline shown: %@", count,
                          report.medianNanoseconds / 1e9, parse.medianNanoseconds / 1e9, pipeline))
}
