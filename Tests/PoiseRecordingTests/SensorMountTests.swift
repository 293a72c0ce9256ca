import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// `SensorMount` (`--mount`): its three spellings and its application as samples are read.
@Suite struct SensorMountTests {
    @Test func theThreeSpellingsOfAQuarterTurnAgree() throws {
        // Device x = −sensor y, device y = sensor x: a quarter turn about z.
        let map = try SensorMount("x=-y,y=x,z=z").remap
        let alignment = try SensorMount("-Y+X+Z").remap
        let angles = try SensorMount("0,0,90").remap
        for v in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0.3, -0.4, 0.9)] {
            let expected = SIMD3(-v.y, v.x, v.z)
            #expect(map.vector(v) == expected)
            #expect(alignment.vector(v) == expected)
            #expect((angles.vector(v) - expected).maxMagnitude < 1e-15)
        }
        #expect(try SensorMount("y=z,z=x,x=y").remap.vector(SIMD3(1, 2, 3)) == SIMD3(2, 3, 1))
    }

    @Test func mirrorsAndMistakesAreRefusedAtThePart() throws {
        func error(_ text: String) -> SpecError? {
            do { _ = try SensorMount(text); return nil } catch { return error }
        }
        let mirror = try #require(error("x=y,y=x,z=z"))
        #expect(mirror.message.contains("did you mean x=y,y=x,z=-z"))
        #expect(try #require(error("x=-y,y=x")).message.contains("device axis z is not given"))
        #expect(try #require(error("x=y,y=y,z=z")).message.contains("sensor axis y is used twice"))
        let badAxis = try #require(error("x=-y,y=w,z=z"))
        #expect(badAxis.column == 6 && badAxis.token == "y=w")
        #expect(try #require(error("+Y+X+Z")).message.contains("reflection"))
        let angle = try #require(error("10,abc,3"))
        #expect(angle.column == 4 && angle.message.contains("'abc' is not an angle"))
        #expect(try #require(error("10,20")).message.contains("three angles"))
        #expect(mirror.subject == .mount)
    }

    @Test func appliedToEverySensorAndTheTruthAsRead() throws {
        let file = TemporaryFile("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT,gt_qw,gt_qx,gt_qy,gt_qz\n"
                                 + "0,1,0,0,0.1,0.2,0.3,10,20,30,1,0,0,0\n0.01,0,1,0,0,0,1,0,0,40,1,0,0,0\n")
        defer { file.remove() }
        let mount = try SensorMount("x=-y,y=x,z=z")
        let plain = try Recording.load(path: file.path)
        let mounted = try Recording.load(path: file.path, options: ReadOptions(mount: mount))
        #expect(mounted.schema.mount == mount)
        for (p, m) in zip(plain.samples, mounted.samples) {
            #expect(m.time == p.time)
            #expect(m.acceleration == SIMD3(-p.acceleration.y, p.acceleration.x, p.acceleration.z))
            #expect(m.rotationRate == SIMD3(-p.rotationRate.y, p.rotationRate.x, p.rotationRate.z))
            #expect(m.magneticField == p.magneticField.map { SIMD3(-$0.y, $0.x, $0.z) })
            // The attitude still maps the (mounted) device frame to the earth: q ⊗ r*.
            #expect(m.truth == p.truth.map { mount.remap.attitude($0) })
        }
        // Streaming reads give the same samples as next().
        let source = try RecordingSources.open(path: file.path, options: ReadOptions(mount: mount))
        var streamed: [MotionSample] = []
        try source.read(into: &streamed, maximumCount: 10)
        #expect(streamed == mounted.samples)
        #expect(source.unmounted is RecordingReader)
        let info = try RecordingInfo.inspect(path: file.path, options: ReadOptions(strict: false, mount: mount))
        #expect(info.text.contains("mount (--mount): x=-y,y=x,z=z"))
    }
}
