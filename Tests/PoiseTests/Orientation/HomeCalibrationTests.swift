import Testing
@testable import Poise

func rotationX(degrees: Double) -> Quaternion<Double> {
    Quaternion(axis: SIMD3(1, 0, 0), angle: degrees * Units.radiansPerDegree)
}

@Suite struct HomeCalibrationTests {
    static let dt = 1.0 / 64  // exact in binary, so the expected times are exact

    @Test func relativeAttitudeIsMultiplyByInverseOfHome() throws {
        var home = try HomeCalibration()
        let h = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: 1.2) * rotationX(degrees: 20)
        #expect(home.process(attitude: h, rotationRate: nil, time: 0).event == .initial)
        // The device tilts 10° about its own x axis from home, whatever the heading.
        let (relative, event) = home.process(attitude: h * rotationX(degrees: 10), rotationRate: nil, time: 1)
        #expect(event == nil)
        let angles = TiltAngles(relative)
        #expect(abs(angles.pitch - 10 * Units.radiansPerDegree) < 1e-12)
        #expect(abs(angles.roll) < 1e-12)
        #expect(maxAbs(relative.act(SIMD3(0, 1, 0)) - rotationX(degrees: 10).act(SIMD3(0, 1, 0))) < 1e-12)
    }

    @Test func recalibrationOnRequestTakesTheNextSample() throws {
        var home = try HomeCalibration()
        _ = home.process(attitude: .identity, rotationRate: nil, time: 0)
        home.requestRecalibration()
        let q = rotationX(degrees: 50)
        let r = home.process(attitude: q, rotationRate: nil, time: 0.5)
        #expect(r.event == .requested && r.relative == .identity)
        #expect(home.homeTime == 0.5)
        let next = home.process(attitude: q, rotationRate: nil, time: 0.6)
        #expect(next.relative.angle < 1e-7 && next.event == nil)
    }

    /// Home until 1 s, then a 40° posture change in `turn` seconds at a constant rate, then still.
    func posture(_ settings: HomeCalibrationSettings, turn: Double, until end: Double,
                 rate: (Double) -> SIMD3<Double>? = { _ in nil }) throws -> [(Double, HomeEvent)] {
        var home = try HomeCalibration(settings: settings)
        var events: [(Double, HomeEvent)] = []
        var k = 0
        while Double(k) * Self.dt <= end {
            let t = Double(k) * Self.dt
            let angle = t <= 1 ? 0 : Swift.min(40, 40 * (t - 1) / turn)
            if let e = home.process(attitude: rotationX(degrees: angle), rotationRate: rate(t), time: t).event {
                events.append((t, e))
            }
            k += 1
        }
        return events
    }

    @Test func dynamicRecalibrationHappensExactlyAfterTheHoldTime() throws {
        let settings = HomeCalibrationSettings(dynamicRecalibration: true)
        // Turning 40° in 0.5 s at 80°/s: not still while turning (rate above 10°/s).
        let turning: (Double) -> SIMD3<Double>? = { t in
            t > 1 && t < 1.5 ? SIMD3(80 * Units.radiansPerDegree, 0, 0) : .zero
        }
        let events = try posture(settings, turn: 0.5, until: 6, rate: turning)
        #expect(events.map(\.1) == [.initial, .dynamic])
        // Far (> 30°) and still from t = 1.5 (the first sample at 40° with zero rate): home at 3.5.
        #expect(events.last?.0 == 3.5)
        // Without rates, stillness is judged by the attitude alone: the device is far after
        // t = 1.375 (30°) and stops at t = 1.5; turning restarts the hold each time it moves more
        // than 5°, so home changes 2 s after a moment in (1.375, 1.5].
        let attitudeOnly = try posture(settings, turn: 0.5, until: 6)
        #expect(attitudeOnly.map(\.1) == [.initial, .dynamic])
        let time = try #require(attitudeOnly.last?.0)
        #expect(time > 3.375 && time <= 3.5)
    }

    @Test func noRecalibrationWhenDisabledOrNotStillOrNotFarEnough() throws {
        #expect(try posture(HomeCalibrationSettings(), turn: 0.5, until: 6).map(\.1) == [.initial])
        let moving: (Double) -> SIMD3<Double>? = { _ in SIMD3(0, 0.5, 0) }  // 28.6°/s
        #expect(try posture(HomeCalibrationSettings(dynamicRecalibration: true), turn: 0.5, until: 6, rate: moving).map(\.1) == [.initial])
        let wide = HomeCalibrationSettings(dynamicRecalibration: true, recalibrationAngle: 45)
        #expect(try posture(wide, turn: 0.5, until: 6).map(\.1) == [.initial])
    }

    @Test func wanderBeyondTheStillnessAngleRestartsTheHold() throws {
        var home = try HomeCalibration(settings: HomeCalibrationSettings(dynamicRecalibration: true, holdTime: 2))
        var events: [(Double, HomeEvent)] = []
        for k in 0...(7 * 64) {
            let t = Double(k) * Self.dt
            // Home, then 40° from t = 1, then 47° from t = 2 (a 7° step: more than 5°).
            let angle = t < 1 ? 0.0 : (t < 2 ? 40 : 47)
            if let e = home.process(attitude: rotationX(degrees: angle), rotationRate: nil, time: t).event { events.append((t, e)) }
        }
        #expect(events.count == 2)
        #expect(events.last?.0 == 4.0 && events.last?.1 == .dynamic)
    }

    @Test func returningNearHomeCancelsThePendingRecalibration() throws {
        var home = try HomeCalibration(settings: HomeCalibrationSettings(dynamicRecalibration: true))
        var dynamicEvents = 0
        for k in 0...(8 * 64) {
            let t = Double(k) * Self.dt
            // Far for 1.5 s at a time, then back home for a moment: never 2 s in a row.
            let phase = t.truncatingRemainder(dividingBy: 2)
            let angle = t < 1 || phase >= 1.5 ? 0.0 : 40
            if home.process(attitude: rotationX(degrees: angle), rotationRate: nil, time: t).event == .dynamic { dynamicEvents += 1 }
        }
        #expect(dynamicEvents == 0)
    }

    @Test func badSettingsAreRejected() {
        let e = #expect(throws: OrientationSettingsError.self) { try HomeCalibration(settings: HomeCalibrationSettings(holdTime: -1)) }
        #expect(e?.message.contains("holdTime") == true)
    }
}
