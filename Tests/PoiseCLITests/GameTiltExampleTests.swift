import Foundation
import Poise
import PoiseRecording
import Testing

/// The behaviour Examples/GameTilt relies on, on the recording it reads by default
/// (data/steering.csv: flat until 2 s, lifted 60° into the steering pose by 3 s, steering turns
/// of 20–45° about the screen normal from 4.5 s, back to the centre of the wheel by about 21 s).
/// The home settings are read from the example's source, so the test follows the example.
@Suite struct GameTiltExampleTests {
    static var root: URL { SpectrumCommandTests.packageRoot }

    /// `HomeCalibrationSettings(…)` of Examples/GameTilt/main.swift.
    static func exampleSettings() throws -> HomeCalibrationSettings {
        let source = try String(contentsOf: root.appendingPathComponent("Examples/GameTilt/main.swift"), encoding: .utf8)
        func value(_ name: String) throws -> Double {
            let pattern = try NSRegularExpression(pattern: "\(name): *([0-9.]+)")
            let match = try #require(pattern.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
                                     "the example sets \(name)")
            return try #require(Double(source[Range(match.range(at: 1), in: source)!]))
        }
        #expect(source.contains("dynamicRecalibration: true"))
        return HomeCalibrationSettings(dynamicRecalibration: true, recalibrationAngle: try value("recalibrationAngle"),
                                       stillnessRate: try value("stillnessRate"), stillnessAngle: try value("stillnessAngle"),
                                       holdTime: try value("holdTime"))
    }

    static func outputs(home: HomeCalibrationSettings) throws -> [TiltOutput] {
        let recording = try Recording.load(path: root.appendingPathComponent("data/steering.csv").path)
        var controller = try TiltController(settings: TiltSettings(home: home))
        return controller.process(recording.samples)
    }

    /// Without recalibration the steering pose reads as full forward for the whole game: the
    /// problem the example fixes.
    @Test func withoutRecalibrationTheSteeringPoseSaturatesForward() throws {
        let outputs = try Self.outputs(home: HomeCalibrationSettings())
        let driving = outputs.filter { $0.time >= 4.5 }
        #expect(!driving.isEmpty && driving.allSatisfy { $0.stick.y == -1 })
        #expect(outputs.compactMap(\.event) == [.initial])
    }

    /// With the example's settings: home is set once more, in the steering pose before the
    /// steering starts; no steering turn re-homes; the stick then reaches full left and full
    /// right, never full forward, and is centred when the wheel is back at the centre.
    @Test func holdingTheSteeringPoseRecalibratesOnceAndSteeringWorks() throws {
        let outputs = try Self.outputs(home: try Self.exampleSettings())
        let events = outputs.filter { $0.event != nil }
        #expect(events.map(\.event) == [.initial, .dynamic])
        let rehomed = try #require(events.last?.time)
        #expect(rehomed > 3.0 && rehomed < 4.5, "re-homed at \(rehomed) s")
        let after = outputs.filter { $0.time > rehomed }
        #expect(after.allSatisfy { $0.stick.y > -1 })
        #expect(after.contains { $0.stick.x == 1 } && after.contains { $0.stick.x == -1 })
        let end = outputs.filter { $0.time >= 22 }
        #expect(!end.isEmpty && end.allSatisfy { $0.stick == .zero })
    }
}
