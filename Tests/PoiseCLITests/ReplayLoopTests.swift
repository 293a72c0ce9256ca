import Foundation
import Testing

/// `poise replay --loop N`: N passes in a row on one continuing time line.
@Suite struct ReplayLoopTests {
    @Test func passesContinueTheTimeLineAndRepeatTheInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 200, rate: 100)
        let once = scratch.path("once.csv"), looped = scratch.path("looped.csv")
        let single = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "none", "--out", once])
        #expect(single.status == 0, "\(single.stderr)")
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "none", "--loop", "3",
                                           "--out", looped, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 600)
        #expect(report["loops"] as? Int == 3)
        let first = try csvRows(once).dropFirst(), rows = try csvRows(looped).dropFirst()
        #expect(rows.count == 600)
        let times = rows.map { Double($0[0])! }
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-9 }, "one period everywhere, seams included")
        // Without a pipeline every pass carries the recording's values; only the time moves.
        for pass in 0 ..< 3 {
            let slice = rows[(rows.startIndex + pass * 200) ..< (rows.startIndex + (pass + 1) * 200)]
            #expect(slice.map { Array($0.dropFirst()) } == first.map { Array($0.dropFirst()) })
        }
    }

    @Test(arguments: ["0", "-1", "1000001", "x"])
    func badLoopCountsAreUsageErrors(count: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 20, rate: 100)
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--loop", count])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--loop"), "\(result.stderr)")
    }
}
