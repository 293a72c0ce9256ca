import Foundation

extension RecordingInfo {
    /// A human-readable report (what `poise info` prints without `--json`).
    public var text: String {
        func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }
        var lines: [String] = []
        lines.append("\(path)")
        lines.append("  format \(format), \(rows) rows, \(f(durationS)) s (\(f(startS)) → \(f(endS)) s), sample rate \(f(sampleRateHz)) Hz")
        if let rate = nominalRateHz {
            lines.append("  rate for processing: \(String(format: "%.4f", rate)) Hz (\(nominalRateBasis); fuse, evaluate, replay, tilt, gyro and report set their filters and fusion up for it)")
        }
        if let rate = assignedSampleRateHz {
            lines.append("  no time column: row n is timed n / \(f(rate)) Hz (the rate given with --rate)")
        }
        if let dialect {
            lines.append("  recognised: \(formatName.isEmpty ? format : formatName); \(dialect.summary)")
        } else if sessionFiles != nil {
            lines.append("  recognised: \(formatName.isEmpty ? format : formatName) (\(sessionArchive == true ? "a ZIP archive" : "a folder"), one file per sensor, merged onto the fastest file's timeline)")
        }
        if let columnMapping { lines.append("  column mapping (--columns): \(columnMapping)") }
        if let mount { lines.append("  mount (--mount): \(mount): sensor axes turned into device axes as read (acceleration, rotation rate, magnetic field)") }
        if let files = sessionFiles {
            lines.append("  session files:")
            for file in files {
                guard file.isRead else {
                    lines.append("    \(file.name): ignored, \(file.use)")
                    continue
                }
                let rate = file.rateHz.map { "\(f($0, 1)) Hz" } ?? "rate unknown"
                var text = "    \(file.name): \(file.use); \(file.rows) rows, \(rate)"
                if file.isTimeline {
                    text += " (the timeline)"
                } else {
                    text += "; delivered with \(file.delivered) samples, held on \(file.heldSamples)"
                    if file.replaced > 0 { text += ", \(file.replaced) replaced by a later reading before the next sample" }
                }
                lines.append(text)
            }
            if let leading = leadingSamplesLeftOut, leading > 0 {
                lines.append("    \(leading) timeline samples before every file had a reading left out")
            }
        }
        for note in notes { lines.append("  note: \(note)") }
        lines.append("  columns:")
        for c in columns where !c.meaning.hasPrefix("ignored") {
            let unit = c.unit.isEmpty ? "" : " [\(c.unit)\(c.coreUnit.isEmpty || c.coreUnit == c.unit ? "" : " → \(c.coreUnit)")]"
            lines.append("    \(c.name) → \(c.meaning)\(unit)" + (c.convention.isEmpty ? "" : "; \(c.convention)"))
        }
        // Ignored columns, one line per reason.
        var ignored: [(reason: String, names: [String])] = []
        for c in columns where c.meaning.hasPrefix("ignored") {
            let name = c.name.isEmpty ? "(unnamed)" : c.name
            if let i = ignored.firstIndex(where: { $0.reason == c.convention }) {
                ignored[i].names.append(name)
            } else {
                ignored.append((c.convention, [name]))
            }
        }
        if !ignored.isEmpty {
            lines.append("  ignored columns:")
            for group in ignored { lines.append("    \(group.names.joined(separator: ", ")): \(group.reason)") }
        }
        if let i = intervals {
            lines.append("  intervals: median \(f(i.medianMs)) ms, min \(f(i.minimumMs)), max \(f(i.maximumMs)), mean \(f(i.meanMs))")
            for g in i.histogram {
                let spread = g.minimumMs == g.maximumMs ? "" : " (\(f(g.minimumMs))–\(f(g.maximumMs)))"
                lines.append("    \(f(g.intervalMs)) ms\(spread) × \(g.count)")
            }
        }
        if let t = timing {
            lines.append("  timestamp jitter: \(f(t.jitterMs, 4)) ms RMS; \(f(t.irregularFraction * 100, 1)) % of steps more than 0.1 % off the median (fuse integrates those with their own step, the rest as the nominal period)")
            let changes = t.rateChanges.prefix(5).map { "\(f($0.timeS)) s (\(f($0.fromHz, 1)) → \(f($0.toHz, 1)) Hz)" }
            lines.append("  rate changes: \(t.rateChangeCount)" + (changes.isEmpty ? "" : " — " + changes.joined(separator: ", ") + (t.rateChangeCount > 5 ? ", …" : "")))
        }
        lines.append("  gaps: \(gapCount)" + (gaps.isEmpty ? "" : " — " + gaps.prefix(5).map { "\(f($0.timeS)) s (\(f($0.intervalMs, 2)) ms)" }.joined(separator: ", ") + (gapCount > 5 ? ", …" : "")))
        lines.append("  repeated timestamps: \(duplicateTimestamps); rows dropped: \(droppedRows); repaired: \(repairedRows)"
            + (commentLines > 0 ? "; comment lines between rows skipped (--comment): \(commentLines)" : ""))
        for name in ["accelerometer", "gyroscope", "magnetometer"] {
            guard let r = ranges[name] else { continue }
            let h = held[name]
            let rest = r.restNorm.map { ", |v| at rest \(f($0, 4))" } ?? ""
            lines.append("  \(name) [\(r.unit)]: min (\(r.minimum.map { f($0, 4) }.joined(separator: ", "))) max (\(r.maximum.map { f($0, 4) }.joined(separator: ", "))), |v| \(f(r.normMinimum, 4))–\(f(r.normMaximum, 4))\(rest)")
            if let h { lines.append("    held (repeats previous row): \(h.rows) rows (\(f(h.fraction * 100, 1)) %), changes every \(f(h.updateIntervalMs, 2)) ms") }
            if let n = saturatedSamples[name] { lines.append("    saturated: \(n) samples at a clipping limit (see suspicious)") }
        }
        if let t = rowsWithTruth { lines.append("  ground truth: \(t) of \(rows) rows") }
        if let m = movementFraction { lines.append("  movement mask: \(f(m * 100, 1)) % of rows") }
        var tests: [String] = []
        if restDetector.useGyroscope { tests.append("|ω| < \(restDetector.gyroscopeThreshold) rad/s") }
        if restDetector.useAccelerometer {
            tests.append("acc RMS over \(restDetector.window) s < max(\(restDetector.accelerationThreshold) g, \(restDetector.noiseFloorMultiple) × noise floor)")
        }
        lines.append("  still segments (\(tests.joined(separator: ", ")), ≥ \(restDetector.minimumDuration) s): \(stillSegments.count)")
        for s in stillSegments.prefix(20) { lines.append("    \(f(s.startS)) – \(f(s.endS)) s (\(f(s.durationS, 2)) s)") }
        if stillSegments.count > 20 { lines.append("    …") }
        if carriageReturnLineEndings { lines.append("  line endings: carriage return only (classic Mac OS); read as usual") }
        if !issueCounts.isEmpty {
            // One line per kind: its count and first occurrence.
            lines.append("  reader issues:")
            for (kind, count) in issueCounts.sorted(by: { $0.key < $1.key }) {
                lines.append("    \(kind) × \(count)" + (firstIssues[kind].map { ", first: \($0)" } ?? ""))
            }
        }
        if suspicious.isEmpty {
            lines.append("  nothing suspicious")
        } else {
            lines.append("  suspicious:")
            for s in suspicious { lines.append("    - \(s)") }
        }
        return lines.joined(separator: "\n")
    }
}
