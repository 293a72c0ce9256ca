import Foundation
import Testing
@testable import Poise

/// The magnetometer calibration on the 15 real BROAD trials: where the trial turns enough it
/// lowers the spread of |B|; where it does not, it says so instead of returning a fit.
@Suite struct MagnetometerCalibrationBROADTests {
    @Test(.enabled(if: DeviceMotionBROADTests.isPresent, "../shared/data/broad is absent"))
    func spreadOfTheFieldStrengthFallsOrTheFitIsRefused() throws {
        var calibrated: [String] = []
        let folder = DeviceMotionBROADTests.folder
        let trials = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(trials.count == 15)
        for trial in trials {
            let fields = try DeviceMotionBROADTests.load(folder.appendingPathComponent(trial)).compactMap(\.magneticField)
            do {
                let result = try MagnetometerCalibrator.calibrate(fields)
                #expect(result.after.standardDeviation < result.before.standardDeviation, "\(trial)")
                #expect(result.fieldStrength > 40 && result.fieldStrength < 50, "\(trial): \(result.fieldStrength) µT")
                calibrated.append(String(trial.prefix(2)))
            } catch {
                #expect(error.message.contains("hardly turned") || error.message.contains("turned through only"), "\(trial): \(error.message)")
            }
        }
        // The slow-rotation trials, the tapping and vibration trial that turn in all directions,
        // and the magnet trials (their disturbed samples rejected) are calibrated.
        #expect(Set(["02", "04", "05", "24", "26", "29", "31", "34"]).isSubset(of: Set(calibrated)), "\(calibrated)")
    }
}
