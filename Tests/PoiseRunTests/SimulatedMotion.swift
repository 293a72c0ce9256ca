import Foundation
import Poise

/// A deterministic 100 Hz recording: still periods with small accelerometer noise alternating
/// with tilting motion (gravity swinging in the y–z plane, gyroscope about x).
///
/// Layout in seconds: still 0–3, moving 3–6, still 6–9, moving 9–12, still 12–15.
func simulatedMotion(rate: Double = 100, seconds: Double = 15) -> [MotionSample] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func noise() -> Double {   // uniform in [−0.004, 0.004] g, from a 64-bit LCG
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.008
    }
    let count = Int(seconds * rate)
    return (0..<count).map { i in
        let t = Double(i) / rate
        let phase = t.truncatingRemainder(dividingBy: 6)
        var angle = 0.0, rate = 0.0
        if phase >= 3 {   // moving: θ = 0.8·sin(2π·0.7·(t − 3))
            let w = 2 * Double.pi * 0.7
            angle = 0.8 * Double.sin(w * (phase - 3))
            rate = 0.8 * w * Double.cos(w * (phase - 3))
        }
        let acceleration = SIMD3(noise(), Double.sin(angle) + noise(), Double.cos(angle) + noise())
        return MotionSample(time: t, acceleration: acceleration, rotationRate: SIMD3(rate, 0, 0))
    }
}

/// Writes `samples` as a Poise CSV (time, acceleration, rotation rate) in the temporary folder and
/// returns its path.
func writeRecording(_ samples: [MotionSample]) throws -> String {
    var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
    for s in samples {
        text += "\(s.time),\(s.acceleration.x),\(s.acceleration.y),\(s.acceleration.z),\(s.rotationRate.x),\(s.rotationRate.y),\(s.rotationRate.z)\n"
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-replay-\(UUID().uuidString).csv").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
