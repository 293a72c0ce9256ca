import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// Session folders (`SessionReader`): the real Sensor Logger and x-IMU3 samples in
/// ../shared/data/formats (read in place; skipped when absent) and synthetic Sensor Logger
/// folders for the files the real sample lacks (Gravity.csv, TotalAcceleration.csv, other rates).
@Suite struct SessionReaderTests {
    static let formatsPresent = sharedDataFolder().map { FileManager.default.fileExists(atPath: $0 + "/formats") } ?? false

    func path(_ relative: String) throws -> String {
        try #require(sharedDataFolder()) + "/formats/" + relative
    }

    /// The rows of a CSV file as numbers (header dropped), read independently of the reader.
    func rows(_ file: String) throws -> [[Double]] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces))! } }
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func ximu3SessionMergesTheMagnetometerOntoTheInertialTimeline() throws {
        let folder = try path("xio_ximu3_logged/Left Foot 64F0EBCE (UDP)")
        let reader = try SessionReader(path: folder)
        var samples: [MotionSample] = []
        try reader.read(into: &samples, maximumCount: 10_000)
        #expect(reader.schema.format == .ximu3Session)
        #expect(reader.schema.magneticFieldIsArbitrary && reader.schema.hasAccelerometer && reader.schema.hasGyroscope)
        let inertial = try rows(folder + "/Inertial.csv")
        let magnetometer = try rows(folder + "/Magnetometer.csv")
        // The rule, computed here by another route: each inertial row at or after the first
        // magnetometer reading carries the latest reading stamped at or before it.
        let delivered = inertial.filter { $0[0] >= magnetometer[0][0] }
        #expect(samples.count == delivered.count && reader.leadingSamplesLeftOut == inertial.count - delivered.count)
        for (sample, row) in zip(samples, delivered) {
            #expect(sample.time == row[0] * 1e-6)
            #expect(sample.rotationRate == SIMD3(row[1], row[2], row[3]) * (Double.pi / 180))
            #expect(sample.acceleration == SIMD3(row[4], row[5], row[6]))
            let latest = magnetometer.last { $0[0] <= row[0] }!
            #expect(sample.magneticField == SIMD3(latest[1], latest[2], latest[3]))  // a.u., as in the file
        }
        let files = Dictionary(uniqueKeysWithValues: reader.files.map { ($0.name, $0) })
        #expect(files["Inertial.csv"]?.isTimeline == true && files["Inertial.csv"]?.rows == 921)
        let mag = try #require(files["Magnetometer.csv"])
        #expect(mag.rows == magnetometer.count && abs((mag.rateHz ?? 0) - 20) < 0.5)
        #expect(mag.delivered + mag.heldSamples == samples.count)
        #expect(files["Quaternion.csv"]?.isRead == false && files["Quaternion.csv"]?.use.contains("orientation estimate") == true)
        // poise info lists the files with their rates, and never calls a.u. µT.
        let info = try RecordingInfo.inspect(path: folder)
        #expect(info.text.contains("Magnetometer.csv: magnetometer in arbitrary units"))
        #expect(info.ranges["magnetometer"]?.unit == "a.u.")
        #expect(!info.text.contains("magnetometer [µT]"))
        #expect(abs((info.ranges["accelerometer"]?.restNorm ?? 0) - 1) < 0.01)
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func sensorLoggerIOSWithoutGravityReadsGyroscopeAndMagnetometerOnly() throws {
        let folder = try path("sensor_logger_ios_iphone12")
        let recording = try Recording.load(path: folder)
        #expect(recording.schema.format == .sensorLogger)
        #expect(!recording.schema.hasAccelerometer && recording.schema.hasGyroscope && recording.schema.hasMagnetometer)
        let reason = recording.schema.columns.first { $0.name == "Accelerometer.csv" }?.meaning
        guard case .ignored(let text) = reason else { Issue.record("Accelerometer.csv is not listed as ignored"); return }
        #expect(text.contains("gravity-free") && text.contains("no Gravity.csv or TotalAcceleration.csv"))
        // time,seconds_elapsed,z,y,x: the x, y, z values land on their axes.
        let gyroscope = try rows(folder + "/Gyroscope.csv")
        let magnetometer = try rows(folder + "/Magnetometer.csv")
        #expect(recording.samples.count == gyroscope.count)
        for (sample, (g, m)) in zip(recording.samples, zip(gyroscope, magnetometer)) {
            #expect(sample.time == g[0] * 1e-9)
            #expect(sample.rotationRate == SIMD3(g[4], g[3], g[2]))
            #expect(sample.magneticField == SIMD3(m[4], m[3], m[2]))
        }
        #expect(throws: (any Error).self) {
            try recording.schema.require([.accelerometer], file: folder, for: "6D fusion")
        }
    }

    /// A Sensor Logger folder: `files` maps names to the rows' times (ns after a common epoch
    /// start) and their x, y, z values (by row index). Columns are written z, y, x as the app does.
    func sensorLoggerFolder(_ files: [String: (times: [Int], values: (Int) -> SIMD3<Double>)]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, file) in files {
            var text = "time,seconds_elapsed,z,y,x\n"
            for (i, time) in file.times.enumerated() {
                let v = file.values(i)
                text += "\(1_760_000_000_000_000_000 + time),\(Double(time) * 1e-9),\(v.z),\(v.y),\(v.x)\n"
            }
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    /// `count` times `periodNs` apart from 0.
    func every(_ periodNs: Int, _ count: Int) -> [Int] { (0 ..< count).map { $0 * periodNs } }

    @Test func gravityCompletesTheUserAccelerationAndSlowerFilesAreHeld() throws {
        // 100 Hz device motion (user acceleration + gravity, iOS sign: gravity −9.8 on z face up),
        // 100 Hz gyroscope, 25 Hz magnetometer.
        let folder = try sensorLoggerFolder([
            "Accelerometer.csv": (every(10_000_000, 100), { SIMD3(0.01 * Double($0), 0, 0.5) }),
            "Gravity.csv": (every(10_000_000, 100), { _ in SIMD3(0, 0, -9.80665) }),
            "Gyroscope.csv": (every(10_000_000, 100), { SIMD3(0, 0, Double($0)) }),
            "Magnetometer.csv": (every(40_000_000, 25), { SIMD3(20, 0, Double($0)) }),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // iOS: Apple's sign, negated by the explicit option.
        let reader = try SessionReader(path: folder, options: ReadOptions(appleAccelerometerSign: true))
        var samples: [MotionSample] = []
        try reader.read(into: &samples, maximumCount: 1000)
        #expect(samples.count == 100)
        for (i, s) in samples.enumerated() {
            // Each file converted to g (× 1 / 9.80665, the reader's factor), then added and negated.
            let g = 1 / 9.80665
            let user: SIMD3<Double> = SIMD3(0.01 * Double(i), 0, 0.5) * g
            let gravity: SIMD3<Double> = SIMD3(0, 0, -9.80665) * g
            #expect(s.acceleration == -(user + gravity))
            #expect(s.rotationRate.z == Double(i))
            // The 25 Hz reading of time 4k·10 ms is delivered at sample 4k and held on the next three.
            #expect(s.magneticField == SIMD3(20, 0, Double(i / 4)))
        }
        #expect(abs(samples[0].acceleration.z - (1 - 0.5 / 9.80665)) < 1e-12)  // +1 g up after the sign
        let files = Dictionary(uniqueKeysWithValues: reader.files.map { ($0.name, $0) })
        #expect(files["Magnetometer.csv"]?.delivered == 25 && files["Magnetometer.csv"]?.heldSamples == 75)
        #expect(files["Gravity.csv"]?.delivered == 100 && files["Gravity.csv"]?.heldSamples == 0)
        #expect(reader.schema.columns.contains { $0.name == "Gravity.csv x" && $0.meaning == .accelerationComponent(axis: 0, scale: -1 / 9.80665) })
        // Without the option the sum is taken as specific force as it is (Android's sign).
        let android = try Recording.load(path: folder)
        let user: SIMD3<Double> = SIMD3(0, 0, 0.5) * (1 / 9.80665)
        let gravity: SIMD3<Double> = SIMD3(0, 0, -9.80665) * (1 / 9.80665)
        #expect(android.samples[0].acceleration == user + gravity)
        let info = try RecordingInfo.inspect(path: folder)
        #expect(info.text.contains("Magnetometer.csv: magnetometer (µT); 25 rows, 25.0 Hz; delivered with 25 samples, held on 75"))
        #expect(info.suspicious.contains { $0.contains("--apple-accelerometer-sign") })
        let negated = try RecordingInfo.inspect(path: folder, options: ReadOptions(appleAccelerometerSign: true, strict: false))
        #expect(!negated.suspicious.contains { $0.contains("--apple-accelerometer-sign") })
    }

    @Test func totalAccelerationIsTheAccelerometerAndReadingsInAGapAreReplacedNotAveraged() throws {
        // Android: TotalAcceleration at 50 Hz and a 100 Hz magnetometer on a 200 Hz gyroscope
        // timeline that misses 10 samples (1000–1045 ms): of the magnetometer readings in the
        // gap only the last is delivered; the others are counted as replaced.
        let gyroscopeTimes = every(5_000_000, 400).filter { !(1_000_000_000 ... 1_045_000_000).contains($0) }
        let folder = try sensorLoggerFolder([
            "TotalAcceleration.csv": (every(20_000_000, 100), { SIMD3(0, 0, 9.80665 + Double($0)) }),
            "Accelerometer.csv": (every(20_000_000, 100), { _ in SIMD3(0, 0, 0) }),
            "Gyroscope.csv": (gyroscopeTimes, { SIMD3(Double($0), 0, 0) }),
            "Magnetometer.csv": (every(10_000_000, 200), { SIMD3(Double($0), 0, 1) }),
            "Orientation.csv": (every(10_000_000, 10), { _ in SIMD3(0, 0, 0) }),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = try SessionReader(path: folder)
        var samples: [MotionSample] = []
        try reader.read(into: &samples, maximumCount: 1000)
        #expect(reader.files.first?.name == "Gyroscope.csv" && reader.files.first?.isTimeline == true)
        #expect(samples.count == gyroscopeTimes.count)
        for (i, s) in samples.enumerated() {
            let t = gyroscopeTimes[i]
            #expect(s.rotationRate.x == Double(i))
            #expect(s.acceleration == SIMD3(0, 0, 9.80665 + Double(t / 20_000_000)) * (1 / 9.80665))
            #expect(s.magneticField?.x == Double(t / 10_000_000))
        }
        let files = Dictionary(uniqueKeysWithValues: reader.files.map { ($0.name, $0) })
        // Readings at 1000…1050 ms wait for the sample at 1050 ms: five are replaced.
        #expect(files["Magnetometer.csv"]?.replaced == 5)
        #expect(files["Accelerometer.csv"]?.isRead == false && files["Orientation.csv"]?.isRead == false)
        #expect(files["TotalAcceleration.csv"]?.use.contains("with gravity") == true)
    }

    @Test func foldersThatAreNoSessionAreRefusedWithTheirFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "x".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect { try RecordingSources.open(path: folder.path) } throws: {
            "\($0)".contains("not a session Poise reads") && "\($0)".contains("notes.txt")
        }
        // A file without rows leaves no sample with every sensor: an error that names it.
        try "time,seconds_elapsed,z,y,x\n".write(to: folder.appendingPathComponent("Magnetometer.csv"), atomically: true, encoding: .utf8)
        try "time,seconds_elapsed,z,y,x\n1,0,1,2,3\n2,0,1,2,3\n".write(to: folder.appendingPathComponent("Gyroscope.csv"), atomically: true, encoding: .utf8)
        #expect { try Recording.load(path: folder.path) } throws: { "\($0)".contains("Magnetometer.csv has no reading") }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Magnetometer.csv"))
        // A mapping for one file is not silently dropped on a folder.
        try "time,seconds_elapsed,z,y,x\n1,0,1,2,3\n".write(to: folder.appendingPathComponent("Gyroscope.csv"), atomically: true, encoding: .utf8)
        #expect { try RecordingSources.open(path: folder.path, options: ReadOptions(columns: try ColumnSpec("t=time:ns,gyr=x,y,z:radps"))) } throws: {
            "\($0)".contains("--columns and --skip-lines describe one CSV file")
        }
        // A damaged file names itself, its line and column inside the folder.
        try "time,seconds_elapsed,z,y,x\n1,0,1,2,3\n2,0,1,x,3\n".write(to: folder.appendingPathComponent("Gyroscope.csv"), atomically: true, encoding: .utf8)
        #expect { try Recording.load(path: folder.path) } throws: { "\($0)".contains("Gyroscope.csv:3:4:") }
    }
}
