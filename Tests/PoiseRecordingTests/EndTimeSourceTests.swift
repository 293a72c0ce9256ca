import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// `EndTimeSource` passes on the samples up to its end time and reads nothing after the first
/// later one.
@Suite struct EndTimeSourceTests {
    static func samples(count: Int) -> [MotionSample] {
        (0..<count).map { MotionSample(time: Double($0) / 100, acceleration: SIMD3(0, 0, 1)) }
    }

    @Test(arguments: [1, 3, 10, 4096])
    func endsAtTheFirstLaterSample(chunk: Int) throws {
        let all = Self.samples(count: 500)
        let source = EndTimeSource(try TruthStartSourceTests.source(all), end: 1.234)
        var read: [MotionSample] = []
        while try source.read(into: &read, maximumCount: chunk) > 0 {}
        #expect(read.map(\.time) == all.prefix(124).map(\.time))
        #expect(try source.next() == nil)
    }

    /// A malformed row a few rows after the end time is never parsed: no error.
    @Test func doesNotReadPastTheEnd() throws {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for i in 0..<300 { text += "\(Double(i) / 100),0,0,1,0.001,0,0\n" }
        text += "3.00,0,0,one,0,0,0\n"
        for i in 301..<400 { text += "\(Double(i) / 100),0,0,1,0.001,0,0\n" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-end-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        var read: [MotionSample] = []
        let bounded = EndTimeSource(try RecordingSources.open(path: path, options: ReadOptions(strict: true)), end: 2.5)
        while try bounded.read(into: &read, maximumCount: 4096) > 0 {}
        #expect(read.count == 251)
        // The whole file has the bad row.
        let whole = try RecordingSources.open(path: path, options: ReadOptions(strict: true))
        var all: [MotionSample] = []
        #expect(throws: (any Error).self) { while try whole.read(into: &all, maximumCount: 4096) > 0 {} }
    }
}
