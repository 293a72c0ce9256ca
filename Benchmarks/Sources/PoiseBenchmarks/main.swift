import Foundation

// Suites register here: name → function that fills a report.
let suites: [(String, (Report) -> Void)] = [
    ("spectral", spectralSuite),
    ("orientation", orientationSuite),
]

let requested = Set(CommandLine.arguments.dropFirst())
var failed = false
for (name, run) in suites where requested.isEmpty || requested.contains(name) {
    let report = Report()
    run(report)
    report.print(suite: name)
    if report.checks.contains(where: { !$0.passed }) { failed = true }
}
exit(failed ? 1 : 0)
