import Testing
import Poise
@testable import PoiseRecording

@Suite struct RecordingWriterTests {
    /// Every Double survives write → read bit for bit (shortest round-trip form + exact parser).
    @Test func roundTripIsExact() throws {
        var random = SimulationRandom(seed: 11)
        func anyDouble() -> Double {
            while true {
                let d = Double(bitPattern: random.next())
                if d.isFinite { return d }
            }
        }
        var samples: [MotionSample] = []
        var time = -5.0
        for i in 0..<3000 {
            time = time.nextUp + random.uniform() * 0.01
            let truth: Quaternion<Double>? = i % 7 == 0 ? nil : Quaternion(w: anyDouble(), x: anyDouble(), y: anyDouble(), z: anyDouble())
            samples.append(MotionSample(time: time,
                                        acceleration: SIMD3(anyDouble(), random.gaussian(), 5e-324),
                                        rotationRate: SIMD3(anyDouble(), -0.0, random.uniform()),
                                        magneticField: SIMD3(anyDouble(), 1e300, -2.2250738585072014e-308),
                                        truth: truth, movement: i % 3 == 0))
        }
        let file = TemporaryFile("")
        defer { file.remove() }
        let writer = try RecordingWriter(path: file.path, options: WriteOptions(includeTruth: true, includeMovement: true))
        try writer.write(contentsOf: samples)
        try writer.close()
        let back = try Recording.load(path: file.path, options: ReadOptions(strict: false))
        #expect(back.samples.count == samples.count)
        for (a, b) in zip(samples, back.samples) {
            #expect(a.time.bitPattern == b.time.bitPattern)
            #expect(a.acceleration.x.bitPattern == b.acceleration.x.bitPattern && a.acceleration == b.acceleration)
            #expect(a.rotationRate.y.sign == b.rotationRate.y.sign)
            #expect(a.rotationRate == b.rotationRate && a.magneticField == b.magneticField)
            #expect(a.truth == b.truth && a.movement == b.movement)
        }
    }

    /// Samples without a new magnetometer reading (a bag's IMU between its slower magnetometer's
    /// messages) are written with empty magnetometer fields and read back strictly: no reading
    /// before the first one, the previous one held after it; never `nan` in the file.
    @Test func missingMagnetometerReadingsRoundTripAsHeld() throws {
        let mags: [SIMD3<Double>?] = [nil, nil, SIMD3(30, -2, 40), nil, nil, SIMD3(31, -2, 40), nil]
        let samples = mags.enumerated().map { i, m in
            MotionSample(time: Double(i) / 100, acceleration: SIMD3(0, 0, 1), rotationRate: .zero, magneticField: m)
        }
        let file = TemporaryFile("")
        defer { file.remove() }
        let writer = try RecordingWriter(path: file.path, options: WriteOptions())
        try writer.write(contentsOf: samples)
        try writer.close()
        #expect(!(try String(contentsOfFile: file.path, encoding: .utf8)).contains("nan"))
        let back = try Recording.load(path: file.path)
        #expect(back.samples.map(\.magneticField) == [nil, nil, SIMD3(30, -2, 40), SIMD3(30, -2, 40), SIMD3(30, -2, 40),
                                                      SIMD3(31, -2, 40), SIMD3(31, -2, 40)])
    }

    @Test func significantDigitsOptionRounds() throws {
        let file = TemporaryFile("")
        defer { file.remove() }
        let writer = try RecordingWriter(path: file.path, options: WriteOptions(includeMagneticField: false, significantDigits: 4))
        try writer.write(MotionSample(time: 0.123456789, acceleration: SIMD3(1.0 / 3, 0, 1)))
        try writer.close()
        let r = try Recording.load(path: file.path)
        #expect(r.samples[0].time == 0.1235 && r.samples[0].acceleration.x == 0.3333)
        #expect(RecordingWriter.header(for: WriteOptions(includeMagneticField: false)) == "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps")
    }

    @Test func unwritablePathIsAnError() {
        #expect(throws: RecordingError.self) { _ = try RecordingWriter(path: "/nonexistent-dir/x.csv") }
    }
}
