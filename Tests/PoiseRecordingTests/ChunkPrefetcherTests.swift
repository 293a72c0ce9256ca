import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// `ChunkPrefetcher` hands on exactly the chunks, and the error, of reading in the caller's thread.
@Suite struct ChunkPrefetcherTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    static func rows(_ count: Int, badAt bad: Int? = nil) -> String {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0..<count { text += i == bad ? "\(Double(i) / 100),0,x,1\n" : "\(Double(i) / 100),\(i % 7),0,1\n" }
        return text
    }

    @Test(arguments: [1, 7, 1000])
    func chunksEqualTheCallersOwnLoop(chunkSize: Int) throws {
        let path = try Self.file(Self.rows(2500))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var direct: [[MotionSample]] = []
        let reader = try RecordingReader(path: path)
        var chunk: [MotionSample] = []
        while try reader.read(into: &chunk, maximumCount: chunkSize) > 0 { direct.append(chunk); chunk.removeAll() }
        let ahead = ChunkPrefetcher(try RecordingReader(path: path), chunkSize: chunkSize)
        defer { ahead.stop() }
        var prefetched: [[MotionSample]] = []
        while let next = try ahead.next() { prefetched.append(next) }
        #expect(prefetched == direct)
        #expect(try ahead.next() == nil)
    }

    @Test func theErrorComesAfterTheChunksBeforeIt() throws {
        let path = try Self.file(Self.rows(300, badAt: 250))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ahead = ChunkPrefetcher(try RecordingReader(path: path), chunkSize: 100)
        defer { ahead.stop() }
        #expect(try ahead.next()?.count == 100)
        #expect(try ahead.next()?.count == 100)
        #expect(throws: RecordingError.self) { try ahead.next() }
    }

    @Test func stoppingEarlyReleasesTheSource() throws {
        let path = try Self.file(Self.rows(5000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ahead = ChunkPrefetcher(try RecordingReader(path: path), chunkSize: 10, depth: 1)
        #expect(try ahead.next()?.count == 10)
        ahead.stop()
        ahead.stop()
    }
}
