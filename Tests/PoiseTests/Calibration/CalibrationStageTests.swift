import Foundation
import Testing
@testable import Poise

/// `calibrate:file=…` in a pipeline applies exactly the file's corrections, and only to sensors
/// the recording has.
@Suite struct CalibrationStageTests {
    func withFile<T>(_ calibration: SensorCalibration, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-stage-\(UUID().uuidString).json").path
        try calibration.json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    @Test func appliesEachCorrectionBeforeLaterStages() throws {
        let calibration = SensorCalibrationJSONTests.sample
        try withFile(calibration) { path in
            var pipeline = try StageCatalog.standard.pipeline("calibrate:file=\(path) | fusion:9d",
                                                              context: StageContext(sampleRate: 100, hasMagnetometer: true))
            #expect(pipeline.description.hasPrefix("calibrate:file=\(path)"))
            let sample = MotionSample(time: 0, acceleration: SIMD3(0.1, 0.2, 0.97), rotationRate: SIMD3(0.01, -0.02, 0.03),
                                      magneticField: SIMD3(40, -10, -30))
            var seen: ProcessedSample?
            var whole = ProcessedSample(sample)
            pipeline.process(&whole) { index, record in if index == 0 { seen = record } }
            let record = try #require(seen)
            #expect(record.acceleration == calibration.accelerometer!.apply(sample.acceleration))
            #expect(record.rotationRate == sample.rotationRate - calibration.gyroscope!.offset)
            #expect(record.magneticField == calibration.magnetometer!.apply(sample.magneticField!))
            #expect(record.input == sample)
            var applied = sample
            calibration.apply(to: &applied)
            #expect(applied.acceleration == record.acceleration && applied.magneticField == record.magneticField)
        }
    }

    @Test func neverInventsASensor() throws {
        try withFile(SensorCalibrationJSONTests.sample) { path in
            var pipeline = try StageCatalog.standard.pipeline("calibrate:file=\(path)",
                                                              context: StageContext(sampleRate: 100, hasMagnetometer: false, hasGyroscope: false))
            let sample = MotionSample(time: 0, acceleration: SIMD3(0, 0, 1))
            let record = pipeline.process(sample)
            #expect(record.magneticField == nil)
            #expect(record.rotationRate == .zero)
            #expect(record.acceleration != sample.acceleration)
        }
    }

    @Test func badArgumentsAreSpecErrors() throws {
        let context = StageContext(sampleRate: 100)
        #expect(throws: SpecError.self) { try StageCatalog.standard.pipeline("calibrate", context: context) }
        #expect(throws: SpecError.self) { try StageCatalog.standard.pipeline("calibrate:path=x.json", context: context) }
        #expect {
            try StageCatalog.standard.pipeline("lowpass:cutoff=5 | calibrate:file=/nonexistent/cal.json", context: context)
        } throws: { error in
            "\(error)".contains("/nonexistent/cal.json: cannot open the calibration file")
        }
    }
}
