import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// phyphox multi-sensor exports read as sessions (`SessionLayout.phyphox`). No licensed real
/// multi-sensor export exists, so the exports are written here the way phyphox's "Export data →
/// CSV" writes them (the layout taken from phyphox's documentation and source, not checked on a
/// real export): one file per export set with a quoted header, every number as
/// `0.000000000E0` (ten significant digits, Java's exponent without `+` or leading zeros), the
/// delimiter and decimal separator of the chosen variant, and `meta/device.csv`,
/// `meta/time.csv`. Expected values are the written text read back with `Double(String)`.
@Suite struct PhyphoxSessionTests {
    /// `value` as phyphox writes it (`0.000000000E0`) with `decimal` as the separator.
    static func phyphoxNumber(_ value: Double, decimal: Character) -> String {
        let c = String(format: "%.9E", value)  // 9.806650000E+00
        let parts = c.split(separator: "E")
        let exponent = Int(parts[1])!
        return String(parts[0]).replacingOccurrences(of: ".", with: String(decimal)) + "E\(exponent)"
    }

    /// One sensor file: a time column and three axes, `count` rows `period` s apart from `start`.
    struct SensorFile: Sendable {
        var name: String
        var header: [String]
        var start: Double
        var period: Double
        var count: Int
        var values: @Sendable (Int) -> SIMD3<Double>
    }

    static let accelerometer = SensorFile(
        name: "Accelerometer.csv", header: ["Time (s)", "Acceleration x (m/s^2)", "Acceleration y (m/s^2)", "Acceleration z (m/s^2)"],
        start: 0.0012, period: 0.0025, count: 400, values: { SIMD3(0.02 * Double($0 % 7), -0.01, 9.81 + 0.001 * Double($0)) })
    static let gyroscope = SensorFile(
        name: "Gyroscope.csv", header: ["Time (s)", "Gyroscope x (rad/s)", "Gyroscope y (rad/s)", "Gyroscope z (rad/s)"],
        start: 0.0031, period: 0.005, count: 200, values: { SIMD3(0.001 * Double($0), 0, -0.5) })
    static let magnetometer = SensorFile(
        name: "Magnetometer.csv", header: ["Time (s)", "Magnetic field x (µT)", "Magnetic field y (µT)", "Magnetic field z (µT)"],
        start: 0.0007, period: 0.02, count: 50, values: { SIMD3(12.5, -30 + Double($0), -40.25) })
    static let linear = SensorFile(
        name: "Linear Acceleration.csv", header: ["Time (s)", "Linear Acceleration x (m/s^2)", "Linear Acceleration y (m/s^2)", "Linear Acceleration z (m/s^2)"],
        start: 0.001, period: 0.0025, count: 400, values: { _ in SIMD3(0.01, 0.02, 0.03) })

    /// The text phyphox writes for `file` with `delimiter` and `decimal`.
    static func text(_ file: SensorFile, delimiter: Character, decimal: Character) -> String {
        var text = file.header.map { "\"\($0)\"" }.joined(separator: String(delimiter)) + "\n"
        for i in 0 ..< file.count {
            let v = file.values(i)
            text += [file.start + Double(i) * file.period, v.x, v.y, v.z].map { phyphoxNumber($0, decimal: decimal) }
                .joined(separator: String(delimiter)) + "\n"
        }
        return text
    }

    /// A folder laid out like phyphox's zip: the sensor files and `meta/`.
    static func export(_ files: [SensorFile], delimiter: Character, decimal: Character) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-phyphox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("meta"), withIntermediateDirectories: true)
        for file in files {
            try text(file, delimiter: delimiter, decimal: decimal).write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        let d = String(delimiter)
        try "\"property\"\(d)\"value\"\n\"deviceModel\"\(d)\"Pixel\"\n".write(to: folder.appendingPathComponent("meta/device.csv"), atomically: true, encoding: .utf8)
        try "\"event\"\(d)\"experiment time\"\(d)\"system time\"\(d)\"system time text\"\n\"START\"\(d)\(phyphoxNumber(0, decimal: decimal))\(d)1760000000\(decimal)000\(d)\"2025-10-09 08:53:20.000 UTC+00:00\"\n"
            .write(to: folder.appendingPathComponent("meta/time.csv"), atomically: true, encoding: .utf8)
        return folder.path
    }

    /// The expected samples, computed without the reader: every file's written text parsed with
    /// `Double(String)`, merged onto the accelerometer's times with the latest reading of each
    /// other file at or before each time (samples before every file has one left out).
    static func expected(delimiter: Character, decimal: Character) -> [MotionSample] {
        func rows(_ file: SensorFile) -> [[Double]] {
            text(file, delimiter: delimiter, decimal: decimal).split(separator: "\n").dropFirst().map {
                $0.split(separator: delimiter).map { Double($0.replacingOccurrences(of: String(decimal), with: "."))! }
            }
        }
        let acc = rows(accelerometer), gyr = rows(gyroscope), mag = rows(magnetometer)
        var samples: [MotionSample] = []
        for row in acc {
            guard let g = gyr.last(where: { $0[0] <= row[0] }), let m = mag.last(where: { $0[0] <= row[0] }) else { continue }
            var sample = MotionSample(time: row[0])
            sample.acceleration = SIMD3(row[1], row[2], row[3]) * (1 / 9.80665)
            sample.rotationRate = SIMD3(g[1], g[2], g[3])
            sample.magneticField = SIMD3(m[1], m[2], m[3])
            samples.append(sample)
        }
        return samples
    }

    static let variants: [(delimiter: Character, decimal: Character)] = [(",", "."), ("\t", "."), (";", "."), ("\t", ","), (";", ",")]

    @Test(arguments: 0 ..< variants.count)
    func everyCSVVariantOfAFolderReadsTheSameMergedSamples(variant: Int) throws {
        let (delimiter, decimal) = Self.variants[variant]
        let folder = try Self.export([Self.accelerometer, Self.gyroscope, Self.magnetometer, Self.linear], delimiter: delimiter, decimal: decimal)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Recording.load(path: folder)
        #expect(recording.schema.format == .phyphoxSession)
        let expected = Self.expected(delimiter: delimiter, decimal: decimal)
        #expect(recording.samples.count == expected.count)
        #expect(recording.samples == expected)
        // At rest on its back the phone reads +1 g up (phyphox writes Android's sign).
        #expect(abs(recording.samples[0].acceleration.z - 1) < 0.01)
        let reader = try SessionReader(path: folder)
        let files = Dictionary(uniqueKeysWithValues: reader.files.map { ($0.name, $0) })
        #expect(reader.files.first?.name == "Accelerometer.csv" && reader.files.first?.isTimeline == true)
        #expect(files["Gyroscope.csv"]?.isRead == true && files["Magnetometer.csv"]?.isRead == true)
        #expect(files["Linear Acceleration.csv"]?.isRead == false)
        #expect(files["Linear Acceleration.csv"]?.use.contains("gravity-free") == true)
        #expect(files["Linear Acceleration.csv"]?.use.contains("Accelerometer.csv is read") == true)
        #expect(files["meta"]?.use.contains("metadata") == true)
    }

    @Test(.enabled(if: pythonPresent, "python3 is absent"))
    func theZipPhyphoxWritesReadsLikeItsFolder() throws {
        let folder = try Self.export([Self.accelerometer, Self.gyroscope, Self.magnetometer, Self.linear], delimiter: ";", decimal: ",")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scratch = try PythonScratch()
        defer { scratch.remove() }
        // The archive as phyphox's ZipOutputStream lays it out: sensor files at the top, meta/ below.
        try scratch.python("""
        import os, sys, zipfile
        folder = sys.argv[1]
        with zipfile.ZipFile('export.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            for name in sorted(os.listdir(folder)):
                if name != 'meta':
                    z.write(os.path.join(folder, name), name)
            for name in ('device.csv', 'time.csv'):
                z.write(os.path.join(folder, 'meta', name), 'meta/' + name)
        """, [folder])
        let zip = scratch.path("export.zip")
        let fromZip = try Recording.load(path: zip)
        #expect(fromZip.schema.format == .phyphoxSession)
        #expect(fromZip.samples == Self.expected(delimiter: ";", decimal: ","))
        let info = try RecordingInfo.inspect(path: zip)
        #expect(info.text.contains("recognised: phyphox session (a ZIP archive"))
        #expect(info.text.contains("Accelerometer.csv"))
        #expect(info.text.contains("time.csv"))
        #expect(info.text.contains("Linear Acceleration.csv"))
    }

    @Test func linearAccelerationAloneLeavesNoAccelerometerAndSaysWhy() throws {
        let folder = try Self.export([Self.gyroscope, Self.linear], delimiter: ",", decimal: ".")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try Recording.load(path: folder)
        #expect(recording.schema.format == .phyphoxSession)
        #expect(!recording.schema.hasAccelerometer && recording.schema.hasGyroscope)
        #expect(recording.schema.columns.contains {
            $0.name == "Linear Acceleration.csv" && $0.meaning == .ignored(reason: "gravity-free (linear) acceleration, not an accelerometer reading, and no file of the export holds 'Acceleration x (m/s^2)' (phyphox's accelerometer with g): the session has no accelerometer")
        })
        // Only gravity-free acceleration: nothing to read, and the error lists each file and why.
        let only = try Self.export([Self.linear], delimiter: ",", decimal: ".")
        defer { try? FileManager.default.removeItem(atPath: only) }
        #expect { try Recording.load(path: only) } throws: {
            "\($0)".contains("phyphox session without a sensor Poise reads") && "\($0)".contains("Linear Acceleration.csv (gravity-free")
        }
    }

    @Test func aDamagedRowNamesItsFileLineAndColumn() throws {
        let folder = try Self.export([Self.accelerometer, Self.gyroscope], delimiter: ",", decimal: ".")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/Gyroscope.csv"
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[3] = "6.300000000E-3,1.0E0,oops,2.0E0"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try Recording.load(path: folder) } throws: { "\($0)".contains("Gyroscope.csv:4:3:") }
    }
}
