import Foundation
import Testing
@testable import Poise

/// Accuracy on the BROAD trials in ../shared/data/broad (BROAD metric, conventions.md), with
/// default parameters. Targets (anchors.md): mean total RMSE below VQF's (9D 2.30°, 6D 1.00°)
/// and no trial worse than Madgwick's. Skipped (and reported so) when ../shared is absent.
@Suite struct DeviceMotionBROADTests {
    static let trials: [(file: String, madgwick: Double)] = [
        ("05_undisturbed_slow_rotation_with_breaks_B.csv", 2.06),
        ("09_undisturbed_fast_rotation_with_breaks_B.csv", 2.75),
        ("16_undisturbed_fast_translation_B.csv", 9.62),
        ("24_disturbed_tapping_A.csv", 1.92),
        ("27_disturbed_phone_vibration_B.csv", 11.34),
    ]

    static var folder: URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("../shared/data/broad").standardized
    }

    /// Whether ../shared/data/broad is present (the tests that read it are skipped without it).
    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// The samples of the trial `name` (its file name without ".csv").
    static func load(trial name: String) throws -> [MotionSample] {
        try load(folder.appendingPathComponent(name + ".csv"))
    }

    /// Reads the columns the metric needs (t, acc m/s², gyr rad/s, mag µT, gt_q, movement).
    /// A local reader keeps this core test target free of PoiseRecording.
    static func load(_ url: URL) throws -> [MotionSample] {
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.append(0)   // strtod stops at the terminator
        var samples: [MotionSample] = []
        samples.reserveCapacity(60_000)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let end = base + buffer.count - 1
            var cursor = base
            while cursor < end && cursor.pointee != 10 { cursor += 1 }   // the header line
            var f = [Double](repeating: .nan, count: 18)
            while cursor < end {
                cursor += 1   // past the line feed
                guard cursor < end else { break }
                var count = 0
                while count < 18 {
                    var next: UnsafeMutablePointer<CChar>? = nil
                    f[count] = strtod(cursor, &next)
                    guard let after = next, after != cursor else { break }
                    count += 1
                    cursor = after
                    if cursor.pointee == 44 { cursor += 1 } else { break }   // ','
                }
                while cursor < end && cursor.pointee != 10 { cursor += 1 }
                guard count == 18 else { continue }
                let q = Quaternion(w: f[10], x: f[11], y: f[12], z: f[13])
                samples.append(MotionSample(time: f[0], acceleration: SIMD3(f[1], f[2], f[3]) / 9.80665,
                                            rotationRate: SIMD3(f[4], f[5], f[6]), magneticField: SIMD3(f[7], f[8], f[9]),
                                            truth: q.isFinite ? q : nil, movement: f[17] == 1))
            }
        }
        return samples
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: folder.path), "../shared/data/broad is absent"))
    func defaultParametersBeatVQFOnTheFiveTrials() throws {
        var nine: [Double] = [], six: [Double] = []
        for trial in Self.trials {
            let samples = try Self.load(Self.folder.appendingPathComponent(trial.file))
            #expect(samples.count > 50_000, "\(trial.file): \(samples.count) rows")
            let rate = DeviceMotionConfiguration.estimatedSampleRate(of: samples) ?? 0
            #expect(abs(rate - 285.714) < 0.1)
            var e9 = DeviceMotionEstimator(configuration: .init(sampleRate: rate, reference: .magneticNorthZVertical))
            var e6 = DeviceMotionEstimator(configuration: .init(sampleRate: rate, reference: .arbitraryZVertical))
            let r9 = e9.evaluate(samples), r6 = e6.evaluate(samples)
            #expect(r9.total < trial.madgwick, "\(trial.file) 9D \(r9.total)° vs Madgwick \(trial.madgwick)°")
            #expect(r6.total < trial.madgwick, "\(trial.file) 6D \(r6.total)° vs Madgwick \(trial.madgwick)°")
            #expect(!r9.headingAligned && r6.headingAligned)
            nine.append(r9.total); six.append(r6.total)
        }
        let mean9 = nine.reduce(0, +) / 5, mean6 = six.reduce(0, +) / 5
        // Measured: 9D 2.185°, 6D 0.925° (with a 2.5-ms output prediction 2.02°, 0.72°).
        #expect(mean9 < 2.25, "9D mean \(mean9)° (VQF 2.30°), trials \(nine)")
        #expect(mean6 < 0.96, "6D mean \(mean6)° (VQF 1.00°), trials \(six)")
    }

    /// Trial 34: a magnet fixed to the device from 45 to 100 s. The magnetometer offset
    /// estimation removes most of it (9D 2.33° with the defaults, VQF 3.35°); without it the defaults
    /// are where VQF is.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: folder.path), "../shared/data/broad is absent"))
    func magnetometerOffsetEstimationRemovesTheAttachedMagnet() throws {
        let samples = try Self.load(trial: "34_disturbed_attached_magnet_3cm")
        let rate = DeviceMotionConfiguration.estimatedSampleRate(of: samples) ?? 0
        var withOffset = DeviceMotionEstimator(configuration: .init(sampleRate: rate))
        var configuration = DeviceMotionConfiguration(sampleRate: rate)
        configuration.magneticOffsetEstimation = false
        var without = DeviceMotionEstimator(configuration: configuration)
        let on = withOffset.evaluate(samples).total, off = without.evaluate(samples).total
        #expect(on < 2.5, "9D \(on)° with the offset estimation (VQF 3.35°)")
        #expect(off > 3.0, "9D \(off)° without it")
    }

    /// Trials 29 and 31: a magnet beside the path bends the field the device passes through.
    /// The field-direction test (`magneticDirectionThreshold`) turns the heading gain down while
    /// the field's heading moves faster than the gyroscope can explain: 9D 1.71° and 2.64° with
    /// the defaults, 2.18° and 3.31° without the test (VQF 2.38°, 3.21°).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: folder.path), "../shared/data/broad is absent"))
    func fieldDirectionTestHoldsTheHeadingBesideAMagnet() throws {
        for (trial, vqf) in [("29_disturbed_stationary_magnet_B", 2.38), ("31_disturbed_stationary_magnet_D", 3.21)] {
            let samples = try Self.load(trial: trial)
            let rate = DeviceMotionConfiguration.estimatedSampleRate(of: samples) ?? 0
            var defaults = DeviceMotionEstimator(configuration: .init(sampleRate: rate))
            var configuration = DeviceMotionConfiguration(sampleRate: rate)
            configuration.magneticDirectionThreshold = 0
            var without = DeviceMotionEstimator(configuration: configuration)
            let on = defaults.evaluate(samples).total, off = without.evaluate(samples).total
            #expect(on < 0.9 * vqf && on < off - 0.3, "\(trial) 9D \(on)° with the test, \(off)° without (VQF \(vqf)°)")
        }
    }
}
