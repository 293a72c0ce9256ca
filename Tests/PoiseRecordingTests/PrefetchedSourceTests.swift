import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// `PrefetchedSource` gives the samples of the source it reads ahead, bit for bit and in order,
/// whatever the sizes its reader asks for.
@Suite struct PrefetchedSourceTests {
    @Test(arguments: [(1, 7), (5, 5), (64, 3), (1000, 4096)])
    func sameSamplesAsTheSource(chunk: Int, request: Int) throws {
        let samples = SampleSpoolTests.samples(500)
        let schema = try SampleSpoolTests.schema("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps")
        let source = PrefetchedSource(ArraySource(path: "test", schema: schema, samples: samples), chunkSize: chunk)
        defer { source.stop() }
        #expect(source.schema == schema)
        var read: [MotionSample] = []
        while try source.read(into: &read, maximumCount: request) > 0 {}
        #expect(read.map(SampleSpoolTests.bits) == samples.map(SampleSpoolTests.bits))
        #expect(try source.next() == nil)
    }
}
