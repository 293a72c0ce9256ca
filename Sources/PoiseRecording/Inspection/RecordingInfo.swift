import Foundation
import Poise

/// What `poise info` reports about a recording. Computed in one pass over the reader in memory that
/// does not grow with the file: still segments come from the core `StillSegmentTracker`, medians
/// from histograms (intervals at 1 µs, norms at 0.024 % resolution).
/// Units: seconds (`_s`), milliseconds (`_ms`), Hz, and the core units g, rad/s, µT.
/// JSON keys are the snake_case forms of the property names (`duration_s`, `sample_rate_hz`…).
public struct RecordingInfo: Sendable, Codable {
    /// One column and what it maps to.
    public struct Column: Sendable, Codable, Equatable {
        public var name: String
        /// `time`, `acceleration.x`, `rotation_rate.y`, `magnetic_field.z`, `truth.w`, `movement`, `ignored`.
        public var meaning: String
        /// Unit in the file.
        public var unit: String
        /// Unit after conversion (core unit).
        public var coreUnit: String
        /// The frame and sign convention of the value after conversion, or why the column is ignored.
        public var convention: String = ""
    }

    /// A group of similar sample intervals (within 5 % of the group's smallest).
    public struct IntervalGroup: Sendable, Codable, Equatable {
        /// The most common interval of the group, ms (1 µs resolution).
        public var intervalMs: Double
        public var count: Int
        public var minimumMs: Double
        public var maximumMs: Double
    }

    /// Interval statistics (1 µs resolution).
    public struct Intervals: Sendable, Codable, Equatable {
        public var medianMs: Double
        public var minimumMs: Double
        public var maximumMs: Double
        public var meanMs: Double
        /// Histogram: groups of similar intervals, shortest first.
        public var histogram: [IntervalGroup]
    }

    /// An interval longer than 1.5 × the median.
    public struct Gap: Sendable, Codable, Equatable {
        /// Time of the sample after the gap, s.
        public var timeS: Double
        public var intervalMs: Double
        /// Estimated samples missing: round(interval / median) − 1.
        public var missingSamples: Int
    }

    /// Rows that repeat the previous row's reading exactly, per sensor.
    public struct Held: Sendable, Codable, Equatable {
        public var rows: Int
        public var fraction: Double
        /// Average time between changes of the reading, ms (≈ the sensor's real output period).
        public var updateIntervalMs: Double
    }

    /// Where the sample rate changes (`RateChangeTracker`: medians of blocks of 64 intervals).
    public struct RateChange: Sendable, Codable, Equatable {
        /// Start of the first block at the new rate, s.
        public var timeS: Double
        public var fromHz: Double
        public var toHz: Double
    }

    /// How regular the timestamps are, and what the fusion does with them.
    public struct Timing: Sendable, Codable, Equatable {
        /// RMS difference of the intervals from the median, ms (gaps, > 1.5 × the median, left out).
        public var jitterMs: Double
        /// Share of the intervals (gaps left out) more than 0.1 % from the median: the fusion
        /// integrates these with their own step, the others as the nominal period.
        public var irregularFraction: Double
        /// Rate changes (the first `RateChangeTracker.limit`) and their number.
        public var rateChanges: [RateChange]
        public var rateChangeCount: Int
    }

    /// Value range of a three-axis sensor in its core unit.
    public struct Range: Sendable, Codable, Equatable {
        public var unit: String
        public var minimum: [Double]
        public var maximum: [Double]
        public var normMinimum: Double
        public var normMaximum: Double
        /// Median norm over still segments (or all rows when there are none), to 0.024 %.
        public var restNorm: Double?
    }

    public var path: String
    /// `poise`, `xioFusion`, `phyphox`, `euroc`, `xsens`, `coreMotion`, `ximu3`.
    public var format: String
    /// The format in words (`Xsens MT Manager export`).
    public var formatName: String = ""
    /// How the text is written: delimiter, decimal separator, byte order mark, comment lines.
    public var dialect: CSVDialect?
    /// How a container was read (an MCAP file's summary, or a scan of a file that was not closed).
    public var notes: [String] = []
    public var columns: [Column]
    /// Data rows delivered by the reader.
    public var rows: Int
    public var startS: Double
    public var endS: Double
    public var durationS: Double
    /// 1 / median interval of the whole recording (to the microsecond: the interval histogram's bins).
    public var sampleRateHz: Double
    /// The rate every command sets processing up for (`nominalSampleRate(of:)`: the median
    /// interval of the first `NominalRate.rowCount` rows, or the rate given for a file without
    /// times), Hz; nil when neither is known.
    public var nominalRateHz: Double?
    /// How `nominalRateHz` was found (`NominalRate.Basis.text`).
    public var nominalRateBasis: String
    /// The rate given for a file without a time column (its rows are timed n / rate), else nil.
    public var assignedSampleRateHz: Double?
    public var intervals: Intervals?
    public var gaps: [Gap]
    public var gapCount: Int
    /// Rows with the same timestamp as the row before.
    public var duplicateTimestamps: Int
    /// Rows dropped because their time went backwards (lenient read) or other dropped rows.
    public var droppedRows: Int
    public var repairedRows: Int
    /// Lines between rows skipped as comments (`--comment`).
    public var commentLines: Int = 0
    public var held: [String: Held]
    public var stillSegments: [TimeSegment]
    /// Rest detector used for `stillSegments` (the core `Poise.RestDetector`).
    public var restDetector: RestDetector
    public var ranges: [String: Range]
    public var rowsWithTruth: Int?
    public var movementFraction: Double?
    /// Reader issues by kind.
    public var issueCounts: [String: Int]
    /// The first reader issues, as `file:line:column: message`.
    public var issues: [String]
    /// Per issue kind, its first occurrence (`file:line:column: message`), so a kind that repeats
    /// thousands of times is shown once with its count (`issueCounts`).
    public var firstIssues: [String: String]
    /// The file ends its lines with a carriage return alone (classic Mac OS); it was read as usual.
    public var carriageReturnLineEndings: Bool
    /// The mount applied as the samples were read (`--mount`), as written, or nil.
    public var mount: String?
    /// The column mapping given (`--columns`), as written, or nil.
    public var columnMapping: String?
    /// A session folder's files: what each holds, its rows and rate, and how it was merged.
    public var sessionFiles: [SessionReader.File]?
    /// Session: timeline samples left out before every file had a reading.
    public var leadingSamplesLeftOut: Int?
    /// Session: it came as a ZIP archive.
    public var sessionArchive: Bool?
    /// Things that look wrong (saturation, units, sign, timing).
    public var suspicious: [String]
    /// Timestamp jitter and rate changes; nil without two increasing timestamps.
    public var timing: Timing?
    /// Per sensor, the samples of its axes that sit at a saturating extreme (see `suspicious`),
    /// counted once per axis; absent for a sensor that does not saturate.
    public var saturatedSamples: [String: Int] = [:]

    /// Inspects a recording (read leniently unless `options.strict`; a file without a time column
    /// needs `options.sampleRate`).
    ///
    /// - Throws: `RecordingError` for unreadable files and headers (and, in strict mode, the first bad row).
    public static func inspect(path: String, options: ReadOptions = ReadOptions(strict: false),
                               restDetector: RestDetector = RestDetector()) throws -> RecordingInfo {
        let reader = try RecordingSources.open(path: path, options: options)
        var inspector = RecordingInspector(schema: reader.schema, restDetector: restDetector)
        while let sample = try reader.next() { inspector.add(sample) }
        var info = inspector.finish(path: path, summary: reader.summary, issues: reader.issues)
        let base = reader.unmounted
        info.dialect = (base as? RecordingReader)?.dialect
        info.notes = (base as? McapReader)?.notes ?? []
        info.mount = options.mount?.text
        info.columnMapping = options.columns?.text
        if let session = base as? SessionReader {
            info.sessionFiles = session.files
            info.leadingSamplesLeftOut = session.leadingSamplesLeftOut
            info.sessionArchive = session.isArchive
            let halves = session.schema.columns.contains { if case .accelerationComponent(_, let scale) = $0.meaning { scale > 0 } else { false } }
            if session.schema.format == .sensorLogger && halves {
                info.suspicious.append("Accelerometer.csv + Gravity.csv were read in the specific-force sign (Android, or iOS with the app's 'Standardise Units & Frames'); an iOS export without that setting uses Apple's sign (−1 g up at rest): read it with --apple-accelerometer-sign")
            }
        }
        if reader.schema.magneticFieldIsArbitrary, var range = info.ranges["magnetometer"] {
            range.unit = ColumnSpec.arbitraryUnitLabel
            info.ranges["magnetometer"] = range
        }
        if let mount = options.mount {
            for i in info.columns.indices where !info.columns[i].meaning.hasPrefix("ignored") && info.columns[i].meaning != "time" {
                info.columns[i].convention += "; turned into device axes by --mount \(mount.text)"
            }
        }
        if options.appleAccelerometerSign {
            for i in info.columns.indices where info.columns[i].meaning.hasPrefix("acceleration.") {
                info.columns[i].convention = "specific force, device axes, negated from Apple's sign (+1 g up at rest)"
            }
        }
        if !reader.schema.hasTime {
            info.assignedSampleRateHz = options.sampleRate
            if let rate = options.sampleRate { (info.nominalRateHz, info.nominalRateBasis) = (rate, "given with --rate") }
        }
        info.carriageReturnLineEndings = (base as? RecordingReader)?.carriageReturnLineEndings ?? false
        return info
    }

    /// Pretty-printed JSON with snake_case keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// Accumulates `RecordingInfo` one sample at a time.
public struct RecordingInspector: Sendable {
    let schema: RecordingSchema
    var rows = 0
    var first: Double?
    var last = 0.0
    var previous: MotionSample?
    /// The rate commands use (the first rows' timestamps).
    var nominalRate = NominalRate.Estimator()
    /// Interval histogram (µs bins), gap count and the first gaps.
    var gapCandidates = GapCandidates(limit: 100)
    var rateChanges = RateChangeTracker()
    var intervalSum = 0.0
    var intervalMin = Double.infinity
    var intervalMax = -Double.infinity
    var duplicateTimestamps = 0
    var heldCounts = [0, 0, 0]
    var rest: RestDetector
    var tracker: StillSegmentTracker
    var segments: [TimeSegment] = []
    /// Norms (accelerometer, gyroscope, magnetometer; NaN when absent) of the samples the tracker
    /// has not decided yet: `pendingNorms[pendingHead...]` are samples `decided...`.
    var pendingNorms: [SIMD4<Double>] = []
    var pendingHead = 0
    var decided = 0
    var verdicts: [Bool] = []
    /// Norm histograms per sensor: all rows, confirmed still rows, the quiet run being built, and
    /// closed runs waiting to hear whether they became a segment (keyed by first index).
    var allNorms = [NormHistogram](repeating: NormHistogram(), count: 3)
    var stillNorms = [NormHistogram](repeating: NormHistogram(), count: 3)
    var runNorms: [NormHistogram]? = nil
    var runStart = 0
    var closedRuns: [Int: [NormHistogram]] = [:]
    var minimum = [SIMD3<Double>](repeating: SIMD3(repeating: .infinity), count: 3)
    var maximum = [SIMD3<Double>](repeating: SIMD3(repeating: -.infinity), count: 3)
    var atMinimum = [SIMD3<Int>](repeating: .zero, count: 3)
    var atMaximum = [SIMD3<Int>](repeating: .zero, count: 3)
    var normMinimum = [Double](repeating: .infinity, count: 3)
    var normMaximum = [Double](repeating: -.infinity, count: 3)
    var rowsWithTruth = 0
    var truthNormOff = 0
    var movementRows = 0

    /// - Parameter restDetector: settings for still segments; its gyroscope/accelerometer tests
    ///   are switched off when the recording lacks that sensor.
    public init(schema: RecordingSchema, restDetector: RestDetector = RestDetector()) {
        self.schema = schema
        var detector = restDetector
        detector.useGyroscope = detector.useGyroscope && schema.hasGyroscope
        detector.useAccelerometer = detector.useAccelerometer && schema.hasAccelerometer
        rest = detector
        tracker = StillSegmentTracker(detector: detector)
    }

    func vectors(_ s: MotionSample) -> [SIMD3<Double>?] {
        [schema.hasAccelerometer ? s.acceleration : nil, schema.hasGyroscope ? s.rotationRate : nil, s.magneticField]
    }

    /// Adds one sample.
    public mutating func add(_ s: MotionSample) {
        rows += 1
        if first == nil { first = s.time }
        last = s.time
        if rows <= NominalRate.rowCount { nominalRate.add(time: s.time) }
        let current = vectors(s)
        if let p = previous {
            let dt = s.time - p.time
            if dt == 0 { duplicateTimestamps += 1 }
            if dt > 0 {
                gapCandidates.add(time: s.time, interval: dt)
                rateChanges.add(interval: dt, endingAt: s.time)
                intervalSum += dt
                intervalMin = min(intervalMin, dt)
                intervalMax = max(intervalMax, dt)
            }
            let before = vectors(p)
            for k in 0..<3 { if let a = current[k], let b = before[k], a == b { heldCounts[k] += 1 } }
        }
        var norms = SIMD4<Double>(repeating: .nan)
        for k in 0..<3 {
            guard let v = current[k] else { continue }
            let n = (v * v).sum().squareRoot()
            norms[k] = n
            allNorms[k].add(n)
            normMinimum[k] = min(normMinimum[k], n)
            normMaximum[k] = max(normMaximum[k], n)
            for axis in 0..<3 {
                if v[axis] > maximum[k][axis] { maximum[k][axis] = v[axis]; atMaximum[k][axis] = 1 } else if v[axis] == maximum[k][axis] { atMaximum[k][axis] += 1 }
                if v[axis] < minimum[k][axis] { minimum[k][axis] = v[axis]; atMinimum[k][axis] = 1 } else if v[axis] == minimum[k][axis] { atMinimum[k][axis] += 1 }
            }
        }
        if let q = s.truth {
            rowsWithTruth += 1
            if abs(q.length - 1) > 0.01 { truthNormOff += 1 }
        }
        if s.movement == true { movementRows += 1 }
        previous = s
        pendingNorms.append(norms)
        verdicts.removeAll(keepingCapacity: true)
        let completed = tracker.add(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, verdicts: &verdicts)
        for quiet in verdicts { record(quiet: quiet) }
        settle(completed)
    }

    /// Files the norms of sample `index` (the next undecided one) by the tracker's verdict.
    mutating func record(quiet: Bool) {
        let index = decided
        decided += 1
        let norms = pendingNorms[pendingHead]
        pendingHead += 1
        if pendingHead == pendingNorms.count { pendingNorms.removeAll(keepingCapacity: true); pendingHead = 0 }
        else if pendingHead >= 1024 && 2 * pendingHead >= pendingNorms.count { pendingNorms.removeFirst(pendingHead); pendingHead = 0 }
        if quiet {
            if runNorms == nil { runNorms = [NormHistogram](repeating: NormHistogram(), count: 3); runStart = index }
            for k in 0..<3 where !norms[k].isNaN { runNorms?[k].add(norms[k]) }
        } else if let run = runNorms {
            closedRuns[runStart] = run
            runNorms = nil
        }
    }

    /// Moves the norms of runs that became still segments into `stillNorms`; the other closed
    /// runs were too short.
    mutating func settle(_ completed: [StillSegment]) {
        for segment in completed {
            segments.append(TimeSegment(startS: segment.startTime, endS: segment.endTime))
            if let run = closedRuns[segment.indices.lowerBound] { for k in 0..<3 { stillNorms[k].merge(run[k]) } }
        }
        if !closedRuns.isEmpty { closedRuns.removeAll(keepingCapacity: true) }
    }

    static let sensorNames = ["accelerometer", "gyroscope", "magnetometer"]
    static let coreUnits = ["g", "rad/s", "µT"]

    /// The report.
    public mutating func finish(path: String, summary: ReadSummary, issues: [RecordingIssue]) -> RecordingInfo {
        verdicts.removeAll(keepingCapacity: true)
        let completed = tracker.finish(verdicts: &verdicts)
        for quiet in verdicts { record(quiet: quiet) }
        if let run = runNorms { closedRuns[runStart] = run; runNorms = nil }
        settle(completed)
        // Median norm per sensor over the still samples (all samples when there are none).
        let restNorms: [Double?] = (0..<3).map { k in segments.isEmpty ? allNorms[k].median : stillNorms[k].median }
        let intervalCounts = gapCandidates.counts
        let intervalCount = intervalCounts.values.reduce(0, +)
        var intervals: RecordingInfo.Intervals?
        var median = 0.0
        var medianKey: Int64 = 0
        if intervalCount > 0 {
            let keys = intervalCounts.keys.sorted()
            var seen = 0
            medianKey = keys[0]
            for k in keys {
                seen += intervalCounts[k] ?? 0
                if 2 * seen >= intervalCount { medianKey = k; break }
            }
            median = Double(medianKey) * 1e-6
            var groups: [RecordingInfo.IntervalGroup] = []
            var groupStart: Int64 = -1
            var mode: (key: Int64, count: Int) = (0, 0)
            for k in keys {
                let c = intervalCounts[k] ?? 0
                if groupStart < 0 || Double(k) > Double(groupStart) * 1.05 + 1 {
                    if !groups.isEmpty { groups[groups.count - 1].intervalMs = Double(mode.key) / 1000 }
                    groups.append(.init(intervalMs: 0, count: 0, minimumMs: Double(k) / 1000, maximumMs: Double(k) / 1000))
                    groupStart = k
                    mode = (k, 0)
                }
                groups[groups.count - 1].count += c
                groups[groups.count - 1].maximumMs = Double(k) / 1000
                if c > mode.count { mode = (k, c) }
            }
            if !groups.isEmpty { groups[groups.count - 1].intervalMs = Double(mode.key) / 1000 }
            intervals = .init(medianMs: median * 1000, minimumMs: intervalMin * 1000, maximumMs: intervalMax * 1000,
                              meanMs: intervalSum / Double(intervalCount) * 1000, histogram: groups)
        }
        var gaps: [RecordingInfo.Gap] = []
        var gapCount = 0
        if median > 0 {
            gapCount = gapCandidates.count(medianKey: medianKey)
            for (time, interval) in gapCandidates.first(medianKey: medianKey) {
                let periods = (interval / median).rounded()
                let missing = periods < Double(Int.max) ? Int(periods) - 1 : Int.max
                gaps.append(.init(timeS: time, intervalMs: interval * 1000, missingSamples: max(1, missing)))
            }
        }
        var held: [String: RecordingInfo.Held] = [:]
        var ranges: [String: RecordingInfo.Range] = [:]
        let present = [schema.hasAccelerometer, schema.hasGyroscope, schema.hasMagnetometer]
        for k in 0..<3 where present[k] && rows > 0 {
            let changes = rows - heldCounts[k]
            held[Self.sensorNames[k]] = .init(rows: heldCounts[k],
                                             fraction: rows > 1 ? Double(heldCounts[k]) / Double(rows - 1) : 0,
                                             updateIntervalMs: changes > 0 ? (last - (first ?? last)) / Double(changes) * 1000 : 0)
            ranges[Self.sensorNames[k]] = .init(unit: Self.coreUnits[k],
                                               minimum: [minimum[k].x, minimum[k].y, minimum[k].z],
                                               maximum: [maximum[k].x, maximum[k].y, maximum[k].z],
                                               normMinimum: normMinimum[k], normMaximum: normMaximum[k],
                                               restNorm: restNorms[k])
        }
        var suspicious: [String] = []
        let (saturationNotes, saturatedSamples) = saturation(present: present)
        suspicious += saturationNotes
        let timing = median > 0 ? timing(intervalCounts: intervalCounts, medianKey: medianKey) : nil
        if let timing, timing.rateChangeCount > 0 {
            suspicious.append("the sample rate changes \(timing.rateChangeCount) time(s), first at \(Self.format(timing.rateChanges[0].timeS)) s (\(Self.format(timing.rateChanges[0].fromHz)) → \(Self.format(timing.rateChanges[0].toHz)) Hz); the fusion integrates each sample's own step, but its filters are set up for the rate of the first rows")
        }
        suspicious += unitChecks(ranges: ranges, median: median)
        if gapCount > 0 { suspicious.append("\(gapCount) gap(s): intervals longer than 1.5 × the median \(String(format: "%.3f", median * 1000)) ms (dropped samples?)") }
        if duplicateTimestamps > 0 { suspicious.append("\(duplicateTimestamps) repeated timestamp(s)") }
        suspicious += droppedRowChecks(summary: summary)
        if truthNormOff > 0 { suspicious.append("\(truthNormOff) ground-truth quaternion(s) are not unit length (|q| off by more than 1 %)") }
        if let mag = held["magnetometer"], mag.fraction > 0.2, median > 0 {
            suspicious.append(String(format: "magnetometer repeats its previous reading in %.0f %% of rows (updates about every %.1f ms)", mag.fraction * 100, mag.updateIntervalMs))
        }
        let start = first ?? 0
        var info = RecordingInfo(
            path: path, format: schema.format.rawValue, formatName: schema.format.name,
            columns: schema.columns.map(Self.describe),
            rows: rows, startS: start, endS: rows > 0 ? last : 0, durationS: rows > 0 ? last - start : 0,
            sampleRateHz: median > 0 ? 1 / median : 0,
            nominalRateHz: nominalRate.rate,
            nominalRateBasis: nominalRate.rate == nil ? NominalRate.Basis.assumed.text
                : NominalRate.Basis.timestamps(rows: nominalRate.rowsUsed).text,
            assignedSampleRateHz: nil, intervals: intervals, gaps: gaps, gapCount: gapCount,
            duplicateTimestamps: duplicateTimestamps, droppedRows: summary.rowsDropped, repairedRows: summary.rowsRepaired,
            held: held, stillSegments: segments, restDetector: rest, ranges: ranges,
            rowsWithTruth: schema.hasTruth ? rowsWithTruth : nil,
            movementFraction: schema.hasMovement && rows > 0 ? Double(movementRows) / Double(rows) : nil,
            issueCounts: Dictionary(uniqueKeysWithValues: summary.issueCounts.map { ($0.key.rawValue, $0.value) }),
            issues: issues.prefix(20).map(\.description),
            firstIssues: issues.reduce(into: [String: String]()) { first, issue in
                if first[issue.kind.rawValue] == nil { first[issue.kind.rawValue] = issue.description }
            },
            carriageReturnLineEndings: false, suspicious: suspicious)
        info.commentLines = summary.commentLines
        info.timing = timing
        info.saturatedSamples = saturatedSamples
        return info
    }

    /// Jitter from the interval histogram (µs bins; gaps left out) and the rate changes found.
    func timing(intervalCounts: [Int64: Int], medianKey: Int64) -> RecordingInfo.Timing {
        let median = Double(medianKey)
        var squares = 0.0, regular = 0, total = 0
        for (k, c) in intervalCounts where 2 * k <= 3 * medianKey {
            let d = Double(k) - median
            squares += d * d * Double(c)
            total += c
            if d.magnitude <= 0.001 * median + 0.5 { regular += c }  // (± half a bin)
        }
        return .init(jitterMs: total > 0 ? (squares / Double(total)).squareRoot() / 1000 : 0,
                     irregularFraction: total > 0 ? Double(total - regular) / Double(total) : 0,
                     rateChanges: rateChanges.changes, rateChangeCount: rateChanges.count)
    }

    /// Share of data rows above which dropped rows are called suspicious (1 %).
    static let droppedFractionLimit = 0.01

    /// Every row dropped, or more than `droppedFractionLimit` of them: the report then describes
    /// what was left, not the file.
    func droppedRowChecks(summary: ReadSummary) -> [String] {
        let dropped = summary.rowsDropped
        let seen = rows + dropped
        guard dropped > 0 else { return [] }
        if rows == 0 {
            return ["every data row (\(dropped)) was dropped: no number in this report comes from the file; read it with --strict to stop at the first bad row"]
        }
        let fraction = Double(dropped) / Double(seen)
        guard fraction > Self.droppedFractionLimit else { return [] }
        return ["\(dropped) of \(seen) data rows (\(Self.format(fraction * 100)) %) were dropped: the figures describe the rows that were kept"]
    }

    /// An axis whose extreme value repeats at least 3 times at a large magnitude is clipping.
    /// Returns the notes and, per saturating sensor, its samples at the limits.
    func saturation(present: [Bool]) -> ([String], [String: Int]) {
        // g, rad/s, µT: below these a repeated extreme is not saturation (2 rad/s: below the
        // smallest MEMS gyroscope full scale, 125 °/s)
        let large = [1.5, 2.0, 200.0]
        var out: [String] = []
        var counts: [String: Int] = [:]
        for k in 0..<3 where present[k] && rows > 0 {
            for axis in 0..<3 {
                let name = "\(Self.sensorNames[k]) \(["X", "Y", "Z"][axis])"
                if atMaximum[k][axis] >= 3, maximum[k][axis] >= large[k] {
                    out.append("\(name) saturates at +\(Self.format(maximum[k][axis])) \(Self.coreUnits[k]) (\(atMaximum[k][axis]) samples at the limit)")
                    counts[Self.sensorNames[k], default: 0] += atMaximum[k][axis]
                }
                if atMinimum[k][axis] >= 3, minimum[k][axis] <= -large[k] {
                    out.append("\(name) saturates at \(Self.format(minimum[k][axis])) \(Self.coreUnits[k]) (\(atMinimum[k][axis]) samples at the limit)")
                    counts[Self.sensorNames[k], default: 0] += atMinimum[k][axis]
                }
            }
        }
        return (out, counts)
    }

    func unitChecks(ranges: [String: RecordingInfo.Range], median: Double) -> [String] {
        var out: [String] = []
        if let acc = ranges["accelerometer"], let rest = acc.restNorm {
            if rest > 7 && rest < 13 {
                out.append("accelerometer reads about \(Self.format(rest)) g at rest: the values are probably m/s² although the column unit says g")
            } else if rest > 0.07 && rest < 0.14 {
                out.append("accelerometer reads about \(Self.format(rest)) g at rest: the values are probably g although the column unit says m/s²")
            } else if abs(rest - 1) > 0.1 {
                out.append("accelerometer norm at rest is \(Self.format(rest)) g, not 1 g (unit, scale or calibration problem?)")
            }
        }
        if let gyro = ranges["gyroscope"] {
            let peak = max(gyro.maximum.map(abs).max() ?? 0, gyro.minimum.map(abs).max() ?? 0)
            if peak > 2000 * Double.pi / 180 * 1.5 {
                out.append("gyroscope peaks at \(Self.format(peak)) rad/s (> 3000 °/s): the values are probably °/s although the column unit says rad/s")
            }
        }
        if let mag = ranges["magnetometer"], let rest = mag.restNorm, !schema.magneticFieldIsArbitrary {
            if rest > 0.15 && rest < 0.8 {
                out.append("magnetic field norm is \(Self.format(rest)) µT: the values are probably gauss (×100) although the column unit says µT")
            } else if rest > 15_000 && rest < 80_000 {
                out.append("magnetic field norm is \(Self.format(rest)) µT: the values are probably nT although the column unit says µT")
            } else if rest < 15 || rest > 100 {
                out.append("magnetic field norm is \(Self.format(rest)) µT, outside the earth's 25–65 µT (uncalibrated or disturbed magnetometer?)")
            }
        }
        if median > 0, !SampleRateCheck.plausibleRange.contains(1 / median) {
            out.append(SampleRateCheck.message(rate: 1 / median, schema: schema))
        }
        return out
    }

    static func format(_ v: Double) -> String { String(format: "%.4g", v) }

    static func describe(_ c: ColumnMapping) -> RecordingInfo.Column {
        let axes = ["x", "y", "z"]
        switch c.meaning {
        case .time: return .init(name: c.name, meaning: "time", unit: c.unit, coreUnit: "s")
        case .acceleration(let a, let scale):
            return .init(name: c.name, meaning: "acceleration.\(axes[a])", unit: c.unit, coreUnit: "g",
                         convention: scale < 0 ? "specific force, device axes, Apple's sign negated (+1 g up at rest)"
                                               : "specific force, device axes, as in the file (+1 g up at rest)")
        case .accelerationComponent(let a, let scale):
            return .init(name: c.name, meaning: "acceleration.\(axes[a]) (added)", unit: c.unit, coreUnit: "g",
                         convention: "added to the acceleration column of the same axis: gravity + user acceleration = specific force"
                            + (scale < 0 ? ", Apple's sign negated (+1 g up at rest)" : ", as in the file (+1 g up at rest)"))
        case .rotationRate(let a, _):
            return .init(name: c.name, meaning: "rotation_rate.\(axes[a])", unit: c.unit, coreUnit: "rad/s",
                         convention: "device axes, right-handed, as in the file")
        case .magneticField(let a, _):
            let arbitrary = c.unit == ColumnSpec.arbitraryUnitLabel
            return .init(name: c.name, meaning: "magnetic_field.\(axes[a])", unit: c.unit, coreUnit: arbitrary ? c.unit : "µT",
                         convention: arbitrary ? "device axes, as in the file; arbitrary units kept as they are (direction and relative norm only, not µT)"
                                               : "device axes, as in the file")
        case .truth(let k):
            return .init(name: c.name, meaning: "truth.\(["w", "x", "y", "z"][k])", unit: "", coreUnit: "",
                         convention: "ground-truth orientation quaternion")
        case .movement: return .init(name: c.name, meaning: "movement", unit: "0/1", coreUnit: "")
        case .ignored(let reason):
            return .init(name: c.name, meaning: "ignored (\(reason))", unit: c.unit, coreUnit: "", convention: reason)
        }
    }
}
