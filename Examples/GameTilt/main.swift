// A game's tilt controller: a phone held like a gamepad steers with its tilt.
//
// Reads a recording (default data/steering.csv: a player picks up a phone lying flat, lifts it
// 60° into a steering pose, holds it there 1.5 s, then turns it like a wheel), feeds every sensor
// sample to Poise's TiltController (gravity from the low-passed accelerometer, home calibration,
// stick response), and samples the stick at the game's 30 Hz frame rate, as a game loop would.
//
// Home is the first sample — the phone lying flat. Without recalibration the steering pose,
// 60° from there, would read as "full forward" (stick y = −1) for the whole game. With dynamic
// recalibration, a posture held still far from home becomes the new home: far means more than
// 50°, more than any steering turn (at most 45°), so steering never re-homes; the hold is 1 s,
// shorter than the 1.5 s the player holds the steering pose before driving.
// (Turning the wheel also moves y a little: gravity gives a heading-free tilt, so a turn about
// the screen normal of a lifted phone is partly seen as pitch. A racing game would use x only.)
//
//   swift run ExampleGameTilt [FILE]
import Foundation
import Poise
import PoiseRecording

/// The example's settings (Tests/PoiseCLITests/GameTiltExampleTests.swift checks the behaviour
/// they give on data/steering.csv).
let home = HomeCalibrationSettings(dynamicRecalibration: true, recalibrationAngle: 50, stillnessRate: 10,
                                   stillnessAngle: 5, holdTime: 1)
let path = CommandLine.arguments.dropFirst().first ?? "data/steering.csv"
do {
    let recording = try Recording.load(path: path)
    var controller = try TiltController(settings: TiltSettings(home: home))
    let frameRate = 30.0
    var nextFrame = recording.samples.first?.time ?? 0
    var frames = 0, maximumSteer = 0.0, forwardFrames = 0
    for sample in recording.samples {
        // Sensor callback: every sample goes through the controller.
        let output = controller.process(sample)
        if let event = output.event {
            print(String(format: "t %6.2f s  home set (%@): the stick is centred in this posture", output.time, event.rawValue))
        }
        // Game loop: read the latest stick once per frame.
        while sample.time >= nextFrame {
            frames += 1
            maximumSteer = max(maximumSteer, abs(output.stick.x))
            if output.stick.y <= -1 { forwardFrames += 1 }
            if frames % 30 == 1 {
                print(String(format: "t %6.2f s  stick x %+.2f  y %+.2f  (roll %+.1f°, pitch %+.1f°)", output.time,
                             output.stick.x, output.stick.y, output.angles.roll * 180 / .pi, output.angles.pitch * 180 / .pi))
            }
            nextFrame += 1 / frameRate
        }
    }
    print("\(frames) frames at \(Int(frameRate)) Hz; largest steering deflection \(String(format: "%.2f", maximumSteer)); "
          + "\(forwardFrames) frames at full forward (y = −1)")
} catch {
    FileHandle.standardError.write(Data("ExampleGameTilt: \(error)\n".utf8))
    exit(1)
}
