import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// Reads the real exports in ../shared/data/formats (see its README.md for sources and licences;
/// the files are read in place, never copied). Skipped, and reported so, when the folder is absent.
@Suite struct FormatSamplesTests {
    static let formatsPresent = sharedDataFolder().map { FileManager.default.fileExists(atPath: $0 + "/formats") } ?? false

    func path(_ relative: String) throws -> String {
        try #require(sharedDataFolder()) + "/formats/" + relative
    }

    /// Median interval of the samples' times, s.
    func medianInterval(_ samples: [MotionSample]) -> Double {
        let intervals = zip(samples.dropFirst(), samples).map { $0.time - $1.time }.sorted()
        return intervals[intervals.count / 2]
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func xsensExportReadsAccelerationAt100Hz() throws {
        let r = try Recording.load(path: path("xsens_mtmanager_opensense/MT_012005D6_009-001_00B421E6.txt"))
        #expect(r.schema.format == .xsens)
        #expect(r.samples.count == 2432)
        #expect(r.samples.first?.time == 4.72 && abs((r.samples.last?.time ?? 0) - 29.03) < 1e-9)
        #expect(abs(medianInterval(r.samples) - 0.01) < 1e-9)
        #expect(r.schema.hasAccelerometer && !r.schema.hasGyroscope && !r.schema.hasMagnetometer)
        // Specific force in g: the norm is about 1 g (a gait trial, so the median, not every row).
        let norms = r.samples.map { simd_length($0.acceleration) }.sorted()
        #expect(abs(norms[norms.count / 2] - 1) < 0.05)
        #expect(r.issues.isEmpty)
        let info = try RecordingInfo.inspect(path: path("xsens_mtmanager_opensense/MT_012005D6_009-001_00B421E6.txt"))
        #expect(info.text.contains("recognised: Xsens MT Manager export; tab-separated, decimal point, 5 comment lines before the header, update rate 100 Hz"))
        #expect(info.text.contains("PacketCounter → time [packets at 100 Hz → s]"))
        #expect(info.text.contains("Mat[1][1], Mat[2][1]"))
        #expect(abs((info.ranges["accelerometer"]?.restNorm ?? 0) - 1) < 0.01)
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func ngimuReadsWithItsRepeatedTimestamps() throws {
        let r = try Recording.load(path: path("xio_ngimu_gait_tracking/short_walk.csv"))
        #expect(r.schema.format == .xioFusion)
        #expect(r.samples.count == 16_539)
        #expect(abs(medianInterval(r.samples) - 0.0025) < 0.0001)
        #expect((r.summary.issueCounts[.duplicateTime] ?? 0) > 0)
        #expect(r.schema.hasAccelerometer && r.schema.hasGyroscope && !r.schema.hasMagnetometer)
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func phyphoxLinearAccelerationIsRefusedWithTheReason() throws {
        let error = #expect(throws: RecordingError.self) {
            _ = try Recording.load(path: path("phyphox_csv/cart-backNforth.csv"))
        }
        #expect(error?.line == 1)
        #expect(error?.message.contains("no sensor columns") == true)
        #expect(error?.message.contains("gravity-free") == true)
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func motionSenseReadsAt50HzWithGravityUp() throws {
        let r = try Recording.load(path: path("coremotion_motionsense/dws_1/sub_1.csv"), options: ReadOptions(sampleRate: 50))
        #expect(r.schema.format == .coreMotion)
        #expect(r.samples.count == 1751)
        #expect(abs((r.samples.last?.time ?? 0) - 35.0) < 1e-9)
        #expect(r.schema.hasAccelerometer && r.schema.hasGyroscope && !r.schema.hasMagnetometer)
        // Row 0: gravity (0.741895, 0.669768, −0.031672) + user (0.294894, −0.184493, 0.377542), negated.
        let a = r.samples[0].acceleration
        #expect(abs(a.x + (0.741895 + 0.294894)) < 1e-12 && abs(a.y + (0.669768 - 0.184493)) < 1e-12)
        // Walking downstairs: the median norm is about 1 g.
        let norms = r.samples.map { simd_length($0.acceleration) }.sorted()
        #expect(abs(norms[norms.count / 2] - 1) < 0.1)
        #expect(r.issues.count == 1 && r.issues[0].kind == .unknownColumn)  // the unnamed row index
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func ximu3InertialReadsAt50Hz() throws {
        let r = try Recording.load(path: path("xio_ximu3_logged/Left Foot 64F0EBCE (UDP)/Inertial.csv"))
        #expect(r.schema.format == .ximu3)
        #expect(r.samples.count == 921)
        #expect(abs(medianInterval(r.samples) - 0.02) < 0.001)
        #expect(r.schema.hasAccelerometer && r.schema.hasGyroscope)
        #expect(r.issues.allSatisfy { $0.kind == .gap && $0.action == .kept })
    }

    @Test(.enabled(if: formatsPresent, "../shared/data/formats is absent"))
    func sensorLoggerUserAccelerationIsNotRead() throws {
        // iOS Sensor Logger's Accelerometer.csv is gravity-free and names its axes z, y, x only.
        let error = #expect(throws: RecordingError.self) {
            _ = try Recording.load(path: path("sensor_logger_ios_iphone12/Accelerometer.csv"))
        }
        #expect(error?.line == 1 && error?.message.contains("Header: 'time', 'seconds_elapsed', 'z', 'y', 'x'") == true)
    }
}

private func simd_length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
