import Foundation
import Poise
import PoiseRun

/// The magnetometer calibration of 10⁵ samples (a device turned through every direction with
/// hard and soft iron, 0.4 µT noise, 5 % of the samples disturbed by a magnet): one ellipsoid fit,
/// and the whole robust calibration (fits until no sample changes side, with coverage). Target:
/// the whole calibration in under 50 ms of CPU time (single-threaded).
func calibrationSuite(_ r: Report) {
    let count = 100_000
    let softIron = Matrix3(SIMD3(1.1, 0.05, 0.02), SIMD3(0.05, 0.95, -0.03), SIMD3(0.02, -0.03, 1.02))
    var state: UInt64 = 42
    func gaussian() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let u = max(Double(state >> 11) / Double(1 << 53), 1e-300)
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let v = Double(state >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
    var fields: [SIMD3<Double>] = []
    fields.reserveCapacity(count)
    for i in 0..<count {
        let t = (Double(i) + 0.5) / Double(count)
        let z = 1 - 2 * t, phi = 2 * Double.pi * 60 * t, rho = (1 - z * z).squareRoot()
        var field = softIron * (50 * SIMD3(rho * cos(phi), rho * sin(phi), z)) + SIMD3(25, -40, 12)
        field += 0.4 * SIMD3(gaussian(), gaussian(), gaussian())
        if i % 20_000 < 1_000 { field += SIMD3(30, 10, -20) }
        fields.append(field)
    }
    var single = MagnetometerCalibrator.Options()
    single.maximumIterations = 1
    var strength = 0.0
    r.add(measure("MagnetometerCalibrator one fit, 1e5 samples", items: count, runs: 11) {
        strength += (try? MagnetometerCalibrator.calibrate(fields, options: single))?.fieldStrength ?? .nan
    })
    var result: MagnetometerCalibration?
    let runs = 11
    let cpuBefore = processCPUTime()
    let robust = measure("MagnetometerCalibrator robust, 1e5 samples", items: count, runs: runs) {
        result = try? MagnetometerCalibrator.calibrate(fields)
    }
    // CPU time per call (the harness runs 3 warm-up calls, then `runs`): what the fit costs on
    // one core, whatever else the machine runs; the wall-clock median above includes waiting.
    let cpuMilliseconds = Double(processCPUTime() - cpuBefore) / Double(runs + 3) / 1e6
    r.add(robust)
    blackHole(strength)
    if let result {
        r.notes.append("calibration: \(result.iterations) fits, \(result.rejected) rejected, offset \(result.correction.offset), field \(result.fieldStrength) µT")
    } else {
        r.notes.append("calibration: the fit failed")
    }
    r.notes.append(String(format: "calibration: robust calibration of 1e5 samples %.1f ms of CPU time per call, %.1f ms wall (median)",
                          cpuMilliseconds, robust.medianNanoseconds / 1e6))
    r.check("robust calibration of 1e5 samples, ms CPU", cpuMilliseconds, atMost: 50)
}

