import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// `TruthStartSource` leaves out exactly the samples before the first with truth, whatever the
/// chunk sizes, and passes every later one on (with or without truth).
@Suite struct TruthStartSourceTests {
    static func samples(truthFrom first: Int?, count: Int) -> [MotionSample] {
        (0..<count).map { i in
            let hasTruth = first.map { i >= $0 && i % 7 != 3 } ?? false
            return MotionSample(time: Double(i) / 100, acceleration: SIMD3(0, 0, 1),
                                truth: hasTruth ? Quaternion(w: 1, x: 0, y: 0, z: 0) : nil)
        }
    }

    static func source(_ samples: [MotionSample]) throws -> ArraySource {
        ArraySource(path: "test", schema: try SampleSpoolTests.schema("t_s,acc_x_g,acc_y_g,acc_z_g,gt_qw,gt_qx,gt_qy,gt_qz"), samples: samples)
    }

    @Test(arguments: [1, 3, 10, 4096])
    func leavesOutTheLeadingRowsWithoutTruth(chunk: Int) throws {
        let all = Self.samples(truthFrom: 25, count: 200)
        let source = TruthStartSource(try Self.source(all))
        var read: [MotionSample] = []
        while try source.read(into: &read, maximumCount: chunk) > 0 {}
        #expect(source.skipped == 25)
        #expect(read.map(\.time) == all.dropFirst(25).map(\.time))
        #expect(read.contains { $0.truth == nil })   // later rows without truth are kept
    }

    @Test func nextGivesTheSameSamples() throws {
        let all = Self.samples(truthFrom: 5, count: 40)
        let source = TruthStartSource(try Self.source(all))
        var read: [MotionSample] = []
        while let sample = try source.next() { read.append(sample) }
        #expect(source.skipped == 5 && read.map(\.time) == all.dropFirst(5).map(\.time))
    }

    @Test func noTruthGivesNothing() throws {
        let source = TruthStartSource(try Self.source(Self.samples(truthFrom: nil, count: 30)))
        var read: [MotionSample] = []
        #expect(try source.read(into: &read, maximumCount: 8) == 0)
        #expect(read.isEmpty && source.skipped == 30)
    }
}
