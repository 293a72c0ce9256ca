import Testing
@testable import PoiseRecording

/// `StreamLines`: what a live byte stream gives the CSV reader — good lines unchanged, a line with
/// a NUL byte or longer than the limit left out and counted, wherever the reads split them.
@Suite struct StreamLinesTests {
    /// Feeds `text` in reads of `chunk` bytes; returns what passed and the counts.
    static func run(_ bytes: [UInt8], chunk: Int, maximumLine: Int = 64) -> (String, LiveBadInput) {
        var lines = StreamLines(maximumLine: maximumLine)
        var out: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start ..< end].withUnsafeBytes { lines.lines($0, into: &out) }
            start = end
        }
        lines.finish(into: &out)
        return (String(decoding: out, as: UTF8.self), lines.bad)
    }

    @Test(arguments: [1, 3, 7, 1000])
    func badLinesAreLeftOutWhereverTheReadsSplitThem(chunk: Int) {
        let long = String(repeating: "9", count: 200)
        let text = Array("t_s,acc_x_g\n0,1\n".utf8) + Array("0.01,\u{0}x\n".utf8) + Array("0.02,2\n\(long)\n0.03,3\n0.04,4".utf8)
        let (out, bad) = Self.run(text, chunk: chunk)
        #expect(out == "t_s,acc_x_g\n0,1\n0.02,2\n0.03,3\n0.04,4")
        #expect(bad.binary == 1 && bad.tooLong == 1 && bad.total == 2)
    }

    @Test func goodLinesPassUnchanged() {
        let text = Array("t_s,acc_x_g\r\n0,1\r\n0.01,2\r\n".utf8)
        #expect(Self.run(text, chunk: 5).0 == "t_s,acc_x_g\r\n0,1\r\n0.01,2\r\n")
        #expect(Self.run(text, chunk: 5).1 == LiveBadInput())
    }

    /// A line of several MiB without a line break is held only up to the limit.
    @Test func anEndlessLineIsCountedOnce() {
        let text = Array("h\n".utf8) + [UInt8](repeating: 65, count: 3 << 20) + Array("\n1\n".utf8)
        let (out, bad) = Self.run(text, chunk: 65536, maximumLine: LiveFeed.maximumLine)
        #expect(out == "h\n1\n")
        #expect(bad.tooLong == 1 && bad.total == 1)
    }
}
