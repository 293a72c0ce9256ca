import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// `SampleSpool` gives back exactly the samples written, in chunks of any size; a sample it has
/// no room for makes it unusable instead of losing a quantity.
@Suite struct SampleSpoolTests {
    static func schema(_ header: String) throws -> RecordingSchema {
        let file = TemporaryFile(header + "\n")
        defer { file.remove() }
        return try RecordingReader(path: file.path).schema
    }

    /// Samples with every optional quantity present, absent and mixed, and values whose bits a
    /// text round trip would not keep (subnormal, negative zero, NaN payloads).
    static func samples(_ count: Int) -> [MotionSample] {
        (0..<count).map { i in
            let x = Double(i)
            return MotionSample(time: x / 200 + 1e-13 * x,
                                acceleration: SIMD3(sin(x), i == 3 ? -0.0 : cos(x), i == 5 ? .leastNonzeroMagnitude : 1 + x / 7),
                                rotationRate: SIMD3(x.squareRoot(), i == 9 ? Double(nan: 0x1234, signaling: false) : -x, 1 / (x + 1)),
                                magneticField: i % 3 == 0 ? nil : SIMD3(20 + x, -40, x / 3),
                                truth: i % 5 == 1 ? nil : Quaternion(w: cos(x / 10), x: sin(x / 10), y: 0, z: 0),
                                movement: i % 4 == 0 ? nil : i % 4 == 1)
        }
    }

    /// Equal down to the bits (NaN included).
    static func bits(_ sample: MotionSample) -> [UInt64] {
        var words = [sample.time.bitPattern]
        for v in [sample.acceleration, sample.rotationRate, sample.magneticField ?? SIMD3(7, 7, 7)] {
            words += [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern]
        }
        let q = sample.truth ?? Quaternion(w: 7, x: 7, y: 7, z: 7)
        words += [q.w.bitPattern, q.x.bitPattern, q.y.bitPattern, q.z.bitPattern]
        words += [sample.magneticField == nil ? 1 : 0, sample.truth == nil ? 1 : 0, sample.movement.map { $0 ? 2 : 3 } ?? 4]
        return words
    }

    @Test(arguments: [1, 1000, 4096, 16_384])
    func readsBackEverySampleBitForBit(chunk: Int) throws {
        let schema = try Self.schema("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT,gt_qw,gt_qx,gt_qy,gt_qz,movement")
        let spool = try SampleSpool(schema: schema)
        let written = Self.samples(10_000)
        for sample in written { spool.append(sample) }
        #expect(spool.source(path: "x.csv", schema: schema) == nil)   // not finished yet
        spool.finish()
        #expect(spool.isUsable)
        #expect(spool.count == written.count)
        // Twice from the start, as the report's passes read it.
        for _ in 0..<2 {
            let source = try #require(spool.source(path: "x.csv", schema: schema))
            var read: [MotionSample] = []
            while try source.read(into: &read, maximumCount: chunk) > 0 {}
            #expect(read.count == written.count)
            #expect(read.map(Self.bits) == written.map(Self.bits))
        }
        let source = try #require(spool.source(path: "x.csv", schema: schema))
        var one: [MotionSample] = []
        while let sample = try source.next() { one.append(sample) }
        #expect(one.map(Self.bits) == written.map(Self.bits))
    }

    @Test func aQuantityTheSchemaHasNoRoomForMakesItUnusable() throws {
        let schema = try Self.schema("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps")
        let spool = try SampleSpool(schema: schema)
        spool.append(MotionSample(time: 0, acceleration: SIMD3(0, 0, 1)))
        spool.append(MotionSample(time: 0.01, acceleration: SIMD3(0, 0, 1), magneticField: SIMD3(1, 2, 3)))
        spool.finish()
        #expect(!spool.isUsable)
        #expect(spool.problem?.contains("magnetometer") == true)
        #expect(spool.source(path: "x.csv", schema: schema) == nil)
    }

    #if os(Linux)
    @Test func theFileIsPrivateAndAlreadyUnlinked() throws {
        let spool = try SampleSpool(schema: try Self.schema("t_s,acc_x_g,acc_y_g,acc_z_g"))
        for sample in Self.samples(5000) { spool.append(MotionSample(time: sample.time, acceleration: sample.acceleration)) }
        spool.finish()
        #expect(spool.isUsable)
        var status = stat()
        #expect(fstat(spool.descriptor, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_nlink == 0)   // no name in any folder: gone with the descriptor
        #expect(Int(status.st_size) == 5000 * spool.words * 8)
    }
    #endif

    @Test func spoolingSourceHandsOnTheReadersSamplesAndFinishesAtTheEnd() throws {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for i in 0..<3000 { text += "\(Double(i) / 100),\(Double(i % 11) / 3),0.25,1,0,\(i % 2),0\n" }
        let file = TemporaryFile(text)
        defer { file.remove() }
        let direct = try Recording.load(path: file.path).samples
        let reader = try RecordingReader(path: file.path)
        let spool = try SampleSpool(schema: reader.schema)
        let tee = SpoolingSource(reader, into: spool)
        var passed: [MotionSample] = []
        while try tee.read(into: &passed, maximumCount: 700) > 0 {}
        #expect(passed == direct)
        #expect(spool.isFinished)
        let source = try #require(spool.source(path: file.path, schema: reader.schema))
        var back: [MotionSample] = []
        while try source.read(into: &back, maximumCount: 999) > 0 {}
        #expect(back == direct)
    }
}
