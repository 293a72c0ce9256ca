import Foundation

/// Committed baseline times (`Benchmarks/baselines.json`), so a slowdown shows up as a FAIL.
///
/// Each measurement `NAME` of suite `SUITE` is looked up as `SUITE/NAME`; its ns/item is compared
/// with the baseline and the ratio is checked against the entry's tolerance (default
/// `tolerance`). Baselines are absolute times on the machine named in the file, so the
/// tolerance is generous: the shared 2-vCPU machine varies by tens of per cent between runs.
/// `make bench-baseline SUITES=…` records new values for the suites run (other entries stay).
struct Baselines: Codable {
    /// Where the baselines were recorded (CPU model, cores).
    var machine: String
    /// Largest allowed measured / baseline ratio unless an entry has its own.
    var tolerance: Double
    /// Baseline ns/item by `suite/name`.
    var nanosecondsPerItem: [String: Double]
    /// Per-entry tolerances, by `suite/name`.
    var tolerances: [String: Double]

    enum CodingKeys: String, CodingKey {
        case machine, tolerance, nanosecondsPerItem = "ns_per_item", tolerances
    }

    /// `Benchmarks/baselines.json`, found from this source file's location.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("baselines.json")

    /// Reads the committed file; an empty set (tolerance 2) when there is none.
    /// - Throws: when the file exists but is not valid baseline JSON (with the reason).
    static func load() throws -> Baselines {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return Baselines(machine: machineDescription(), tolerance: 2, nanosecondsPerItem: [:], tolerances: [:])
        }
        do {
            return try JSONDecoder().decode(Baselines.self, from: Data(contentsOf: url))
        } catch {
            throw BaselineError(message: "\(url.path): not a valid baselines file: \(error)")
        }
    }

    /// Adds a `baseline NAME` check per measurement that has a baseline, and a note listing
    /// the measurements that have none.
    func check(_ report: Report, suite: String) {
        var missing: [String] = []
        for m in report.measurements {
            let key = "\(suite)/\(m.name)"
            guard let baseline = nanosecondsPerItem[key], baseline > 0 else { missing.append(m.name); continue }
            report.check("baseline \(m.name)", m.nanosecondsPerItem / baseline, atMost: tolerances[key] ?? tolerance)
        }
        if !missing.isEmpty {
            report.notes.append("no baseline for \(missing.count) measurement(s) (make bench-baseline SUITES=\(suite)): \(missing.joined(separator: "; "))")
        }
    }

    /// Replaces this suite's entries with the report's measurements.
    mutating func record(_ report: Report, suite: String) {
        nanosecondsPerItem = nanosecondsPerItem.filter { !$0.key.hasPrefix(suite + "/") }
        for m in report.measurements { nanosecondsPerItem["\(suite)/\(m.name)"] = (m.nanosecondsPerItem * 1000).rounded() / 1000 }
        machine = Self.machineDescription()
    }

    /// Writes the file atomically (temporary file, then rename).
    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(to: Self.url, options: .atomic)
    }

    /// CPU model and core count from /proc/cpuinfo (Linux), else the core count only.
    static func machineDescription() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        return "\(model ?? "unknown CPU"), \(cores) cores"
    }
}

struct BaselineError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
