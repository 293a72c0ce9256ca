import Foundation
import PoiseRun

/// Renders `poise bench` results as a table, JSON or CSV.
struct BenchReport {
    enum Format { case table, json, csv }

    var recordings: [SweepRecording]

    // MARK: One sweep

    func render(_ result: SweepResult, sweep: FilterSweep, format: Format) throws -> String {
        let front = Set(result.front)
        switch format {
        case .json:
            let object: [String: Any] = [
                "filter": sweep.base, "grid": sweep.grid.text, "target": result.target.description,
                "recordings": recordingObjects(),
                "points": result.points.indices.map { pointObject(result.points[$0], pareto: front.contains($0),
                                                                  recommended: $0 == result.recommendation) },
                "recommendation": result.recommendation.map { result.points[$0].setting.spec.description } ?? NSNull(),
            ]
            return try jsonText(object)
        case .csv:
            let names = sweep.grid.parameters.map(\.name)
            var lines = [(["kind", "spec"] + names + Self.metricColumns).joined(separator: ",")]
            for (index, point) in result.points.enumerated() {
                let values = point.setting.parameters.map { FilterSweepFormat.number($0.value) }
                lines.append(csvRow(point, leading: values, pareto: front.contains(index), recommended: index == result.recommendation))
            }
            return lines.joined(separator: "\n")
        case .table:
            var lines = header("sweep \(sweep.base) over \(sweep.grid.text) (\(result.points.count) points)", target: result.target)
            let names = sweep.grid.parameters.map(\.name)
            let widths = names.map { name in max(name.count, result.points.map { FilterSweepFormat.number($0.setting.parameters.first { $0.name == name }?.value ?? 0).count }.max() ?? 0) }
            let parameterHeader = zip(names, widths).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            lines.append("     " + parameterHeader + "  " + Self.tableHeader)
            for (index, point) in result.points.enumerated() {
                let marker = (index == result.recommendation ? ">" : " ") + (front.contains(index) ? "*" : " ")
                let values = zip(point.setting.parameters, widths).map { FilterSweepFormat.number($0.0.value).padding(toLength: $0.1, withPad: " ", startingAt: 0) }
                lines.append("  \(marker) " + values.joined(separator: "  ") + "  " + metrics(point))
            }
            lines.append("")
            lines.append("Pareto front (*): \(result.front.count) of \(result.points.count) points: " +
                         result.front.map { result.points[$0].setting.parameters.map { "\($0.name)=\(FilterSweepFormat.number($0.value))" }.joined(separator: ",") }.joined(separator: "  "))
            lines.append(recommendationLine(result.recommendation.map { result.points[$0] }, target: result.target))
            return lines.joined(separator: "\n")
        }
    }

    // MARK: Comparison

    func render(_ comparison: SweepComparison, format: Format) throws -> String {
        let front = Set(comparison.front)
        switch format {
        case .json:
            let kinds: [[String: Any]] = comparison.entries.indices.map { index in
                let entry = comparison.entries[index]
                return ["kind": entry.kind.rawValue, "grid": entry.grid, "points": entry.result.points.count,
                        "best": entry.best.map { pointObject($0, pareto: front.contains(index), recommended: index == comparison.recommendation) } ?? NSNull()]
            }
            return try jsonText(["target": comparison.target.description, "recordings": recordingObjects(), "kinds": kinds,
                                 "recommendation": comparison.recommendation.map { comparison.entries[$0].best!.setting.spec.description } ?? NSNull()])
        case .csv:
            var lines = [(["kind", "spec"] + Self.metricColumns).joined(separator: ",")]
            for (index, entry) in comparison.entries.enumerated() {
                guard let best = entry.best else { continue }
                lines.append(csvRow(best, leading: [], pareto: front.contains(index), recommended: index == comparison.recommendation))
            }
            return lines.joined(separator: "\n")
        case .table:
            var lines = header("compare kinds at their best points (each kind's default grid)", target: comparison.target)
            let specWidth = max(4, comparison.entries.compactMap { $0.best?.setting.spec.description.count }.max() ?? 0)
            lines.append("     " + "kind".padding(toLength: 11, withPad: " ", startingAt: 0) + "spec".padding(toLength: specWidth, withPad: " ", startingAt: 0) + "  " + Self.tableHeader)
            for (index, entry) in comparison.entries.enumerated() {
                let marker = (index == comparison.recommendation ? ">" : " ") + (front.contains(index) ? "*" : " ")
                let kind = entry.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                guard let best = entry.best else {
                    lines.append("  \(marker) \(kind)no point of \(entry.result.points.count) meets the target")
                    continue
                }
                lines.append("  \(marker) \(kind)" + best.setting.spec.description.padding(toLength: specWidth, withPad: " ", startingAt: 0) + "  " + metrics(best))
            }
            lines.append("")
            lines.append("* on the Pareto front of the best points; > lowest jitter within the target")
            lines.append(recommendationLine(comparison.recommendation.flatMap { comparison.entries[$0].best }, target: comparison.target))
            return lines.joined(separator: "\n")
        }
    }

    // MARK: Pieces

    static let tableHeader = " tilt  shake  latency ms    jitter g     raw g   atten    lag ms"
    static let metricColumns = ["tilt_samples", "tilt_ms", "shake_samples", "shake_ms", "latency_samples", "latency_ms",
                                "jitter_g", "raw_jitter_g", "attenuation", "lag_ms", "pareto", "recommended"]

    func header(_ title: String, target: SweepTarget) -> [String] {
        var lines = [title]
        for recording in recordings {
            let still = recording.stillSegments.reduce(0.0) { $0 + recording.samples[$1.upperBound - 1].time - recording.samples[$1.lowerBound].time }
            lines.append(String(format: "  %@  %.2f Hz, %d samples, still %d segments %.1f s, moving %d segments",
                                recording.name, recording.sampleRate, recording.samples.count,
                                recording.stillSegments.count, still, recording.movingSegments.count))
        }
        lines.append("target: \(target)   (* Pareto front: nothing has both lower latency and lower jitter; > recommended)")
        lines.append("")
        return lines
    }

    func metrics(_ point: SweepPoint) -> String {
        func samples(_ value: LatencyValue) -> String { value.samples.map(String.init) ?? "—" }
        func right(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return [right(samples(point.tilt), 5), right(samples(point.shake), 6),
                right(point.latency.milliseconds.map { String(format: "%.1f", $0) } ?? "never", 12),
                right(String(format: "%.3e", point.jitter), 12), right(String(format: "%.2e", point.rawJitter), 10),
                right(point.attenuation.map { String(format: "%.1f×", $0) } ?? "∞", 8),
                right(point.lagMilliseconds.map { String(format: "%.1f", $0) } ?? "—", 10)].joined()
    }

    func recommendationLine(_ point: SweepPoint?, target: SweepTarget) -> String {
        guard let point else { return "recommendation: no point meets the target (\(target))" }
        return String(format: "recommendation for %@: %@  (latency %@ samples, %@ ms; jitter %.3e g)",
                      target.description, point.setting.spec.description,
                      point.latency.samples.map(String.init) ?? "—",
                      point.latency.milliseconds.map { String(format: "%.1f", $0) } ?? "—", point.jitter)
    }

    func recordingObjects() -> [[String: Any]] {
        recordings.map { ["file": $0.name, "rate_hz": $0.sampleRate, "samples": $0.samples.count,
                          "still_segments": $0.stillSegments.count, "moving_segments": $0.movingSegments.count] }
    }

    func pointObject(_ point: SweepPoint, pareto: Bool, recommended: Bool) -> [String: Any] {
        var parameters: [String: Any] = [:]
        for value in point.setting.parameters { parameters[value.name] = value.value }
        return ["kind": point.setting.kind.rawValue, "spec": point.setting.spec.description, "parameters": parameters,
                "tilt_samples": point.tilt.samples ?? NSNull(), "tilt_ms": point.tilt.milliseconds ?? NSNull(),
                "shake_samples": point.shake.samples ?? NSNull(), "shake_ms": point.shake.milliseconds ?? NSNull(),
                "latency_samples": point.latency.samples ?? NSNull(), "latency_ms": point.latency.milliseconds ?? NSNull(),
                "jitter_g": point.jitter, "raw_jitter_g": point.rawJitter, "attenuation": point.attenuation ?? NSNull(),
                "lag_ms": point.lagMilliseconds ?? NSNull(), "pareto": pareto, "recommended": recommended]
    }

    func csvRow(_ point: SweepPoint, leading: [String], pareto: Bool, recommended: Bool) -> String {
        func optional<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "" }
        let spec = point.setting.spec.description
        let fields = [point.setting.kind.rawValue, spec.contains(",") ? "\"\(spec)\"" : spec] + leading + [
            optional(point.tilt.samples), optional(point.tilt.milliseconds), optional(point.shake.samples),
            optional(point.shake.milliseconds), optional(point.latency.samples), optional(point.latency.milliseconds),
            "\(point.jitter)", "\(point.rawJitter)", optional(point.attenuation), optional(point.lagMilliseconds),
            pareto ? "1" : "0", recommended ? "1" : "0",
        ]
        return fields.joined(separator: ",")
    }

    func jsonText(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Number formatting shared by the table and CSV: whole numbers without a fraction.
enum FilterSweepFormat {
    static func number(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : String(value)
    }
}
