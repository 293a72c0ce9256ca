// A game's tilt controller: a phone held like a gamepad steers with its tilt.
//
// Reads a recording (default data/steering.csv: a player turning a landscape phone like a wheel),
// feeds every sensor sample to Poise's TiltController (gravity from fusion, home calibration,
// stick response), and samples the stick at the game's 30 Hz frame rate, as a game loop would.
//
//   swift run ExampleGameTilt [FILE]
import Foundation
import Poise
import PoiseRecording

let path = CommandLine.arguments.dropFirst().first ?? "data/steering.csv"
do {
    let recording = try Recording.load(path: path)
    var controller = try TiltController(settings: TiltSettings())
    let frameRate = 30.0
    var nextFrame = recording.samples.first?.time ?? 0
    var frames = 0, maximumSteer = 0.0
    for sample in recording.samples {
        // Sensor callback: every sample goes through the controller.
        let output = controller.process(sample)
        // Game loop: read the latest stick once per frame.
        while sample.time >= nextFrame {
            frames += 1
            maximumSteer = max(maximumSteer, abs(output.stick.x))
            if frames % 30 == 1 {
                print(String(format: "t %6.2f s  stick x %+.2f  y %+.2f  (roll %+.1f°, pitch %+.1f°)", output.time,
                             output.stick.x, output.stick.y, output.angles.roll * 180 / .pi, output.angles.pitch * 180 / .pi))
            }
            nextFrame += 1 / frameRate
        }
    }
    print("\(frames) frames at \(Int(frameRate)) Hz; largest steering deflection \(String(format: "%.2f", maximumSteer))")
} catch {
    FileHandle.standardError.write(Data("ExampleGameTilt: \(error)\n".utf8))
    exit(1)
}
