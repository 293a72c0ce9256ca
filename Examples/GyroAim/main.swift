// A game loop that aims with the gyroscope: the camera turns with the device (player space,
// tiered smoothing, bias calibration), and a scripted right stick flicks the camera around.
//
// Reads a recording (default data/rotations-with-breaks.csv: a device turned about its axes
// with pauses in between). The sensor delivers samples at its own rate; the game renders at
// 60 Hz, and each frame takes the camera turn of the samples that arrived since the previous
// frame (GyroAim.takeFrame), so nothing is lost or counted twice whatever the two rates are.
// The right stick is scripted (a recording has no stick): at 5 s it is pushed fully right,
// held, turned a quarter of a circle clockwise, then released; FlickStick turns the camera
// 90° right over 0.1 s at once, then follows the stick's rotation.
//
//   swift run ExampleGyroAim [FILE]
import Foundation
import Poise
import PoiseRecording

var settings = GyroAimSettings()
settings.space = .player                  // yaw about gravity however the device is held
settings.sensitivity = .realWorld(cameraDegreesPer360: 360)   // 1:1: a full device turn is a full camera turn
settings.smoothingThreshold = 5           // °/s: slower turns (hand shake) smoothed, above 10 °/s untouched
let path = CommandLine.arguments.dropFirst().first ?? "data/rotations-with-breaks.csv"

/// The scripted right stick at game time t (s): x right, y forward.
func stick(at t: Double) -> SIMD2<Double> {
    switch t {
    case ..<5: return .zero
    case ..<5.5: return SIMD2(1, 0)                                   // flick: face right
    case ..<6.5:
        let angle = (90 + 90 * (t - 5.5)) * Double.pi / 180            // rotate the stick 90° in 1 s
        return SIMD2(sin(angle), cos(angle))
    default: return .zero                                             // released
    }
}

do {
    let recording = try Recording.load(path: path)
    if let first = recording.samples.first, let last = recording.samples.last, last.time > first.time {
        settings.sampleRate = Double(recording.samples.count - 1) / (last.time - first.time)   // mean rate
    }
    var aim = try GyroAim(settings: settings)
    var flick = try FlickStick()
    let frameRate = 60.0, frameTime = 1 / frameRate
    var cameraYaw = 0.0, cameraPitch = 0.0, gyroYaw = 0.0, flickYaw = 0.0
    var next = 0
    let samples = recording.samples
    let start = samples.first?.time ?? 0, end = samples.last?.time ?? 0
    var frame = 0
    while start + Double(frame) * frameTime <= end {
        let now = start + Double(frame) * frameTime
        // The samples that arrived since the previous frame.
        while next < samples.count && samples[next].time <= now {
            aim.process(samples[next])
            next += 1
        }
        let turn = aim.takeFrame()
        let flickTurn = flick.update(stick: stick(at: now - start), dt: frameTime)
        gyroYaw += turn.yaw
        flickYaw += flickTurn
        cameraYaw += turn.yaw + flickTurn
        cameraPitch = min(max(cameraPitch + turn.pitch, -89), 89)   // the camera's own pitch limit
        if frame % 120 == 0 || (flickTurn != 0 && frame % 6 == 0) {
            print(String(format: "t %6.2f s  camera yaw %+8.2f°  pitch %+6.2f°  (this frame: gyro %+6.3f°, flick %+6.2f°, %d samples)",
                         now - start, cameraYaw, cameraPitch, turn.yaw, flickTurn, turn.sampleCount))
        }
        frame += 1
    }
    let bias = aim.calibration.bias * (180 / Double.pi)
    print(String(format: "%d frames at 60 Hz: gyro turned the camera %+.2f° in yaw, the flick stick %+.2f°; bias (%.3f, %.3f, %.3f) °/s",
                 frame, gyroYaw, flickYaw, bias.x, bias.y, bias.z))
} catch {
    FileHandle.standardError.write(Data("ExampleGyroAim: \(error)\n".utf8))
    exit(1)
}
