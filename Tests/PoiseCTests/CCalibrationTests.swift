import CPoise
import Foundation
import Poise
import PoiseC
import Testing

/// The C calibration calls: load from a JSON string or a file, inspect, apply to buffers exactly
/// as the Swift library does, and refuse bad input.
@Suite struct CCalibrationTests {
    static let calibration = SensorCalibration(
        gyroscope: SensorCorrection(offset: SIMD3(0.01, -0.02, 0.005)),
        magnetometer: SensorCorrection(offset: SIMD3(25, -40, 12),
                                       matrix: Matrix3(SIMD3(0.9, 0.05, 0.01), SIMD3(0.05, 1.1, 0.02), SIMD3(0.01, 0.02, 1.0))))

    @Test func appliesWhatTheLibraryApplies() throws {
        var error = poise_error()
        let handle = try #require(poise_calibration_load(Self.calibration.json, &error), "\(message(error))")
        defer { poise_calibration_destroy(handle, nil) }
        var random = TestRandom(state: 3)
        let count = 50
        var acc = (0..<3 * count).map { _ in random.unit() }
        var gyr = (0..<3 * count).map { _ in random.unit() }
        var mag = (0..<3 * count).map { _ in 50 * random.unit() }
        let (acc0, gyr0, mag0) = (acc, gyr, mag)
        #expect(poise_calibration_apply(handle, &acc, &gyr, &mag, count, &error) == POISE_OK, "\(message(error))")
        for i in 0..<count {
            var sample = MotionSample(time: 0, acceleration: SIMD3(acc0[3 * i], acc0[3 * i + 1], acc0[3 * i + 2]),
                                      rotationRate: SIMD3(gyr0[3 * i], gyr0[3 * i + 1], gyr0[3 * i + 2]),
                                      magneticField: SIMD3(mag0[3 * i], mag0[3 * i + 1], mag0[3 * i + 2]))
            Self.calibration.apply(to: &sample)
            #expect([acc[3 * i], acc[3 * i + 1], acc[3 * i + 2]] == [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z])
            #expect([gyr[3 * i], gyr[3 * i + 1], gyr[3 * i + 2]] == [sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z])
            let m = try #require(sample.magneticField)
            #expect([mag[3 * i], mag[3 * i + 1], mag[3 * i + 2]] == [m.x, m.y, m.z])
        }
        // A sensor the caller lacks is NULL; one the calibration lacks is untouched.
        var onlyAcc = acc0
        #expect(poise_calibration_apply(handle, &onlyAcc, nil, nil, count, &error) == POISE_OK)
        #expect(onlyAcc == acc0)
        var present: Int32 = -1
        var offset = [Double](repeating: 0, count: 3), matrix = [Double](repeating: 0, count: 9)
        #expect(poise_calibration_get(handle, Int32(POISE_SENSOR_MAGNETOMETER.rawValue), &present, &offset, &matrix, &error) == POISE_OK)
        #expect(present == 1 && offset == [25, -40, 12] && matrix[1] == 0.05 && matrix[4] == 1.1)
        #expect(poise_calibration_get(handle, Int32(POISE_SENSOR_ACCELEROMETER.rawValue), &present, nil, nil, &error) == POISE_OK)
        #expect(present == 0)
        #expect(poise_calibration_get(handle, 7, &present, nil, nil, &error) == POISE_ERROR_INVALID_ARGUMENT)
    }

    @Test func loadsAFileAndRefusesBadInput() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-c-\(UUID().uuidString).json").path
        try Self.calibration.json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var error = poise_error()
        let handle = try #require(poise_calibration_load(path, &error), "\(message(error))")
        var values = [Double.nan, 0, 0]
        #expect(poise_calibration_apply(handle, nil, &values, nil, 1, &error) == POISE_ERROR_NON_FINITE)
        #expect(values[1] == 0)
        #expect(poise_calibration_destroy(handle, &error) == POISE_OK)
        #expect(poise_calibration_load("{\"format\": \"poise-calibration\", \"version\": 1,", &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_PARSE.rawValue))
        #expect(message(error).contains("line 1, column"))
        #expect(poise_calibration_load("/nonexistent/cal.json", &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue))
        #expect(poise_calibration_load(nil, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_NULL_ARGUMENT.rawValue))
        #expect(poise_calibration_apply(nil, nil, nil, nil, 0, &error) == POISE_ERROR_INVALID_HANDLE)
    }
}
