import Foundation

// Suites register here: name → function that fills a report.
let suites: [(String, (Report) -> Void)] = [
    ("sweep", sweepSuite),
    ("peers", peersSuite),
    ("spectral", spectralSuite),
    ("orientation", orientationSuite),
    ("filters", filterSuite),
    ("ingest", ingestSuite),
    ("info", infoSuite),
    ("replay", replaySuite),
    ("fusion", fusionSuite),
    ("offline", offlineSuite),
    ("noise", noiseSuite),
    ("calibration", calibrationSuite),
    ("report", reportSuite),
]

// Arguments: suite names (none: all) and `--record-baselines` (rewrite their entries in
// Benchmarks/baselines.json instead of checking against them).
let arguments = CommandLine.arguments.dropFirst()
let recordBaselines = arguments.contains("--record-baselines")
let requested = Set(arguments.filter { !$0.hasPrefix("--") })
let unknown = requested.subtracting(suites.map(\.0))
if !unknown.isEmpty {
    print("error: unknown suite \(unknown.sorted().joined(separator: ", ")); suites: \(suites.map(\.0).joined(separator: ", "))")
    exit(64)
}
var baselines: Baselines
do { baselines = try Baselines.load() } catch { print("error: \(error)"); exit(1) }
var failed = false
for (name, run) in suites where requested.isEmpty || requested.contains(name) {
    let report = Report()
    run(report)
    if recordBaselines { baselines.record(report, suite: name) } else { baselines.check(report, suite: name) }
    report.print(suite: name)
    if report.checks.contains(where: { !$0.passed }) { failed = true }
}
if recordBaselines {
    do { try baselines.save(); print("recorded baselines in \(Baselines.url.path)") } catch { print("error: \(error)"); exit(1) }
}
exit(failed ? 1 : 0)
