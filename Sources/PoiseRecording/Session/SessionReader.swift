import Foundation
import Poise

/// Reads a recording session: a folder with one CSV per sensor, each at its own rate, merged
/// onto one timeline; or the same files in a ZIP archive (Sensor Logger's and phyphox's exports),
/// each entry streamed from the archive as it is read (`ZipArchive`, `ZipEntryStream`: stored or
/// inflated by zlib, size and CRC-32 checked; nothing extracted, memory bounded whatever the
/// entries' sizes). Errors inside an archive name the entry as `export.zip/Gyroscope.csv:3:4`.
///
/// Recognised layouts (`SessionLayout`):
/// - **Sensor Logger** (iOS and Android; `time` ns since the epoch, columns `z,y,x` in any order):
///   `Gyroscope.csv` (rad/s; else `GyroscopeUncalibrated.csv`), `Magnetometer.csv` (µT; else
///   `MagnetometerUncalibrated.csv`), and the accelerometer from `TotalAcceleration.csv` (m/s²,
///   with gravity: Android), else `Accelerometer.csv` + `Gravity.csv` added (m/s²; iOS writes
///   the two halves of CoreMotion's reading, Android linear acceleration and gravity). Without
///   either, `Accelerometer.csv` alone is gravity-free and not an accelerometer reading: the
///   session is read without one (gyroscope and magnetometer only) and the schema says why.
/// - **phyphox** "Export data → CSV" (the zip, or its folder): one CSV per export set, each with
///   its own `Time (s)` (s since the experiment started), recognised by their headers
///   (`SessionLayout.phyphox`): `Acceleration x (m/s^2)` (with gravity), `Gyroscope x (rad/s)`,
///   `Magnetic field x (µT)`; `Linear Acceleration.csv` (gravity-free) and `meta/` are ignored
///   with the reason. Comma, tab or semicolon delimiters, decimal points or commas, E-notation.
/// - **x-io x-IMU3 logged session**: `Inertial.csv` (`Timestamp (us)`, gyroscope °/s,
///   accelerometer g) and `Magnetometer.csv` in the device's **arbitrary units** (`a.u.`): its
///   values are kept as they are (direction and a consistent norm are all fusion needs) and are
///   never labelled µT (`RecordingSchema.magneticFieldIsArbitrary`).
///
/// Sign: acceleration is taken as specific force (+1 g up at rest), as everywhere in Poise. An
/// iOS export without Sensor Logger's "Standardise Units & Frames" uses Apple's sign (−1 g up):
/// read it with `ReadOptions.appleAccelerometerSign` (`--apple-accelerometer-sign`), which
/// negates the sum. Nothing is guessed.
///
/// **Merging**: the file with the highest rate (from its first 256 rows) is the timeline; every
/// other file's reading is delivered with the first timeline sample at or after its timestamp
/// and held (repeated) on the samples after it until the next one arrives, never interpolated.
/// Held values repeat exactly, so `poise info` reports them ("held"); `files` counts, per file,
/// the readings delivered, those replaced by a later reading before the next timeline sample,
/// and the samples that hold its previous reading. Timeline samples before every file has a
/// reading are left out (`leadingSamplesLeftOut`); readings after the last timeline sample are
/// read (and checked) but not delivered.
///
/// Each file is read by a `RecordingReader`, so its errors name the file inside the folder,
/// its line and column; strict and lenient modes apply per file.
public final class SessionReader: SampleSource {
    /// One file of the session and what became of it.
    public struct File: Sendable, Codable, Equatable {
        /// The file name inside the folder.
        public var name: String
        /// What is read from it, or why it is ignored.
        public var use: String
        /// Whether it is read.
        public var isRead: Bool
        /// Whether its samples are the timeline.
        public var isTimeline: Bool = false
        /// Rows read, and the times of the first and last, s.
        public var rows: Int = 0
        public var firstTimeS: Double?
        public var lastTimeS: Double?
        /// Readings delivered with a timeline sample.
        public var delivered: Int = 0
        /// Readings replaced by a later one of the same file before the next timeline sample.
        public var replaced: Int = 0
        /// Timeline samples that repeat this file's previous reading.
        public var heldSamples: Int = 0

        /// Mean rate over the rows read, Hz: (rows − 1) / (last − first).
        public var rateHz: Double? {
            guard rows > 1, let first = firstTimeS, let last = lastTimeS, last > first else { return nil }
            return Double(rows - 1) / (last - first)
        }
    }

    public let path: String
    public let schema: RecordingSchema
    public let options: ReadOptions
    /// Every file of the folder, read or ignored, in the order: timeline, other files read, ignored.
    public var files: [File] { streams.map(\.file) + ignoredFiles }
    /// Timeline samples left out because another file had no reading yet.
    public private(set) var leadingSamplesLeftOut = 0

    private let streams: [Stream]
    private let ignoredFiles: [File]
    private var delivered = 0
    private var finished = false
    private let accelerationSign: Double

    /// What a file's samples fill.
    enum Slot: Equatable {
        /// `acceleration` (specific force, or the gravity-free half when `gravity` joins it).
        case acceleration
        /// `acceleration` of a gravity file, added to the `acceleration` slot.
        case gravity
        case rotationRate
        case magneticField
    }

    /// A file being read, with one sample of look-ahead.
    final class Stream {
        var file: File
        let reader: RecordingReader
        let slots: [Slot]
        /// Samples read ahead (for the rate estimate), delivered before the reader's.
        var buffered: [MotionSample]
        var bufferedIndex = 0
        var pending: MotionSample?
        var latest: MotionSample?
        var exhausted = false

        init(file: File, reader: RecordingReader, slots: [Slot]) throws {
            self.file = file
            self.reader = reader
            self.slots = slots
            buffered = []
            try reader.read(into: &buffered, maximumCount: 256)
        }

        /// Median interval of the buffered samples, s (infinity with fewer than two).
        var medianInterval: Double {
            let intervals = zip(buffered, buffered.dropFirst()).map { $1.time - $0.time }.filter { $0 > 0 }.sorted()
            return intervals.isEmpty ? .infinity : intervals[intervals.count / 2]
        }

        func next() throws -> MotionSample? {
            let sample: MotionSample?
            if bufferedIndex < buffered.count {
                sample = buffered[bufferedIndex]
                bufferedIndex += 1
            } else {
                if !buffered.isEmpty { buffered = []; bufferedIndex = 0 }
                sample = try reader.next()
            }
            if let sample {
                file.rows += 1
                if file.firstTimeS == nil { file.firstTimeS = sample.time }
                file.lastTimeS = sample.time
            } else {
                exhausted = true
            }
            return sample
        }

        /// Takes every reading at or before `time`; returns how many.
        func advance(to time: Double) throws -> Int {
            if pending == nil && !exhausted { pending = try next() }
            var taken = 0
            while let reading = pending, reading.time <= time {
                latest = reading
                taken += 1
                pending = try next()
            }
            return taken
        }
    }

    /// Whether `path` is a folder or a ZIP archive (every one is read as a session; one Poise
    /// does not know is an error that lists its files).
    public static func recognizes(path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        return isDirectory.boolValue || ZipArchive.recognizes(path: path)
    }

    /// Whether the folder at `path` holds a session Poise reads (x-IMU3, phyphox or Sensor
    /// Logger layout, judged from its file names and headers as `init(path:options:)` does),
    /// so that a walk over a tree can take it as one recording instead of descending into it.
    public static func isSession(folder path: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return (try? SessionLayout(files: names.sorted(), folder: path) { firstLine(of: $0, in: path) }) != nil
    }

    /// The first line of the file `name` in `folder` (from its first 64 KiB), or nil when it
    /// cannot be read.
    private static func firstLine(of name: String, in folder: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: (folder as NSString).appendingPathComponent(name)) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 65_536)).map { SessionLayout.firstLine(of: $0) }
    }

    /// Whether the session came as a ZIP archive (the app's export) rather than a folder.
    public let isArchive: Bool

    /// Opens the session's files and chooses the timeline.
    ///
    /// - Throws: `RecordingError` for a folder that is no known session (listing its files), a
    ///   session without a sensor Poise reads, and any file's header or first-rows error.
    public init(path: String, options: ReadOptions = ReadOptions()) throws {
        self.path = path
        self.options = options
        accelerationSign = options.appleAccelerometerSign ? -1 : 1
        try options.refuseCSVLayout(path: path, allowsComments: true,
                                    "a session's files are mapped by the session reader (read one of its files alone to map it yourself)")
        let layout: SessionLayout
        /// A reader of the plan's file, named `folder/File.csv` or `export.zip/File.csv`.
        let open: (SessionLayout.Plan, ReadOptions) throws -> RecordingReader
        if ZipArchive.recognizes(path: path) {
            // The app's export: each file the layout reads is streamed from the archive
            // (entries in a subfolder count by their file name), never extracted.
            let archive = try ZipArchive(path: path)
            var entries: [String: ZipArchive.Entry] = [:]
            for entry in archive.entries {
                let name = (entry.name as NSString).lastPathComponent
                guard entries[name] == nil else { throw archive.failure("two entries named \(name)") }
                entries[name] = entry
            }
            layout = try SessionLayout(files: entries.keys.sorted(), folder: path) { name in
                entries[name].flatMap { archive.prefix(of: $0, count: 65_536) }.map { SessionLayout.firstLine(of: $0) }
            }
            open = { plan, options in
                let name = (path as NSString).appendingPathComponent(plan.name)
                guard let entry = entries[plan.name] else { throw RecordingError(file: name, line: 0, column: 0, message: "no such entry") }
                return try RecordingReader(stream: archive.stream(entry), name: name, options: options)
            }
            isArchive = true
        } else {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            } catch {
                throw RecordingError(file: path, line: 0, column: 0, message: "cannot list the folder (\(error.localizedDescription))")
            }
            layout = try SessionLayout(files: names, folder: path) { Self.firstLine(of: $0, in: path) }
            open = { plan, options in try RecordingReader(path: (path as NSString).appendingPathComponent(plan.name), options: options) }
            isArchive = false
        }
        var streams: [Stream] = []
        var fileOptions = options
        fileOptions.columns = nil
        fileOptions.mount = nil
        fileOptions.appleAccelerometerSign = false
        fileOptions.sampleRate = nil
        fileOptions.timeUnit = nil
        fileOptions.skipLines = 0
        fileOptions.delimiter = nil
        fileOptions.decimalComma = nil
        for plan in layout.plans {
            var planOptions = fileOptions
            planOptions.columns = plan.columns
            let reader = try open(plan, planOptions)
            streams.append(try Stream(file: File(name: plan.name, use: plan.use, isRead: true), reader: reader, slots: plan.slots))
        }
        // The timeline: the fastest file that is not a gravity half (the first of equals).
        let candidates = streams.indices.filter { !streams[$0].slots.contains(.gravity) }
        guard let timeline = candidates.min(by: { streams[$0].medianInterval < streams[$1].medianInterval }) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "\(layout.format.name): no sensor file to read")
        }
        streams[timeline].file.isTimeline = true
        let first = streams.remove(at: timeline)
        streams.insert(first, at: 0)
        self.streams = streams
        ignoredFiles = layout.ignored.map { File(name: $0.name, use: $0.reason, isRead: false) }
        schema = Self.schema(format: layout.format, streams: streams, ignored: layout.ignored, accelerationSign: accelerationSign)
    }

    public var issues: [RecordingIssue] {
        Array(streams.flatMap { $0.reader.issues }.prefix(options.maximumStoredIssues))
    }

    public var summary: ReadSummary {
        var total = ReadSummary()
        for stream in streams {
            let s = stream.reader.summary
            total.rowsDropped += s.rowsDropped
            total.rowsRepaired += s.rowsRepaired
            total.commentLines += s.commentLines
            for (kind, count) in s.issueCounts { total.issueCounts[kind, default: 0] += count }
        }
        total.rowsDelivered = delivered
        return total
    }

    public func next() throws -> MotionSample? {
        guard !finished else { return nil }
        let timeline = streams[0]
        while let sample = try timeline.next() {
            timeline.latest = sample
            var taken: [Int] = []
            for stream in streams.dropFirst() { taken.append(try stream.advance(to: sample.time)) }
            let complete = streams.allSatisfy { $0.latest != nil }
            if complete {
                for (stream, count) in zip(streams.dropFirst(), taken) {
                    if count > 0 {
                        stream.file.delivered += 1
                        stream.file.replaced += count - 1
                    } else {
                        stream.file.heldSamples += 1
                    }
                }
            }
            guard complete else {
                leadingSamplesLeftOut += 1
                continue
            }
            timeline.file.delivered += 1
            delivered += 1
            return merged(time: sample.time)
        }
        // Readings after the last timeline sample: read and checked, not delivered.
        for stream in streams.dropFirst() {
            while try stream.next() != nil {}
        }
        finished = true
        if delivered == 0 && leadingSamplesLeftOut > 0 {
            let silent = streams.filter { $0.latest == nil }.map(\.file.name)
            throw RecordingError(file: path, line: 0, column: 0,
                                 message: "no sample has a reading of every sensor: \(silent.joined(separator: ", ")) \(silent.count == 1 ? "has" : "have") no reading at or before the timeline's last sample (\(streams[0].file.name))")
        }
        return nil
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        try readByNext(into: &samples, maximumCount: maximumCount)
    }

    /// The sample at `time` from every file's latest reading.
    private func merged(time: Double) -> MotionSample {
        var sample = MotionSample(time: time)
        var gravity: SIMD3<Double>?
        for stream in streams {
            guard let latest = stream.latest else { continue }
            for slot in stream.slots {
                switch slot {
                case .acceleration: sample.acceleration += latest.acceleration
                case .gravity: gravity = latest.acceleration
                case .rotationRate: sample.rotationRate = latest.rotationRate
                case .magneticField: sample.magneticField = latest.magneticField
                }
            }
        }
        if let gravity { sample.acceleration += gravity }
        sample.acceleration *= accelerationSign
        return sample
    }

    /// Columns: the timeline's time, each read file's mapped columns (named `File.csv column`),
    /// then one ignored column per ignored file.
    static func schema(format: RecordingFormat, streams: [Stream], ignored: [(name: String, reason: String)],
                       accelerationSign: Double) -> RecordingSchema {
        var columns: [ColumnMapping] = []
        for (index, stream) in streams.enumerated() {
            for column in stream.reader.schema.columns {
                var mapped = ColumnMapping(name: "\(stream.file.name) \(column.name)", meaning: column.meaning, unit: column.unit)
                switch column.meaning {
                case .time:
                    guard index == 0 else { continue }
                case .acceleration(let axis, let scale):
                    mapped.meaning = stream.slots.contains(.gravity)
                        ? .accelerationComponent(axis: axis, scale: accelerationSign * scale)
                        : .acceleration(axis: axis, scale: accelerationSign * scale)
                case .ignored:
                    continue
                default:
                    break
                }
                columns.append(mapped)
            }
        }
        for file in ignored {
            columns.append(ColumnMapping(name: file.name, meaning: .ignored(reason: file.reason), unit: ""))
        }
        return RecordingSchema(format: format, columns: columns)
    }
}
