import Testing
@testable import PoiseRun

/// `BlockRecordFile`: records written in one direction and read back in either, through one block.
@Suite struct BlockRecordFileTests {
    /// Records written backward over many blocks read back forward as written; records never
    /// written read as zero; each block is written once and read at most once per pass.
    @Test func recordsWrittenBackwardReadForward() throws {
        let n = 300_000
        let file = try BlockRecordFile(size: 24, reserving: n, purpose: "test records")
        for i in stride(from: n - 1, through: 0, by: -1) {
            let p = try file.record(i, writing: true).assumingMemoryBound(to: Double.self)
            (p[0], p[1], p[2]) = (Double(i), -Double(i), Double(i) * 0.5)
        }
        try file.flush()
        let blocks = (n + file.perBlock - 1) / file.perBlock
        #expect(blocks > 20)
        #expect(file.blockWrites == blocks && file.blockReads == 0)
        for i in 0..<n {
            let p = try file.record(i, writing: false).assumingMemoryBound(to: Double.self)
            #expect(p[0] == Double(i) && p[1] == -Double(i) && p[2] == Double(i) * 0.5)
        }
        #expect(file.blockReads == blocks - 1)   // block 0, written last, is still buffered
        let unwritten = try file.record(n + 2 * file.perBlock, writing: false).assumingMemoryBound(to: Double.self)
        #expect(unwritten[0] == 0 && unwritten[1] == 0 && unwritten[2] == 0)
    }

    /// Records on both sides of every block boundary, visited out of order (a jump to another
    /// block and back, the last record of a block then the first of the next), are the ones
    /// written there.
    @Test func recordsAtBlockBoundariesInAnyOrder() throws {
        let file = try BlockRecordFile(size: 24, purpose: "test records")
        let n = 4 * file.perBlock + 5
        for i in 0..<n { try file.record(i, writing: true).storeBytes(of: Double(i), as: Double.self) }
        var visits: [Int] = []
        for b in 1...4 { visits += [b * file.perBlock - 1, b * file.perBlock, (b - 1) * file.perBlock, b * file.perBlock + 1] }
        visits += [n - 1, 0, n - 2, 1]
        for i in visits { #expect(try file.record(i, writing: false).load(as: Double.self) == Double(i)) }
    }

    /// A change to a record read back is kept (read, change, move on, come back).
    @Test func changesInPlaceAreKept() throws {
        let file = try BlockRecordFile(size: 8, purpose: "test records")
        let n = 3 * file.perBlock + 7
        for i in 0..<n { try file.record(i, writing: true).storeBytes(of: Double(i), as: Double.self) }
        for i in stride(from: n - 1, through: 0, by: -1) {
            let p = try file.record(i, writing: true)
            p.storeBytes(of: p.load(as: Double.self) * 2, as: Double.self)
        }
        for i in 0..<n { #expect(try file.record(i, writing: false).load(as: Double.self) == Double(2 * i)) }
    }
}
