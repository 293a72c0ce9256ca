import Foundation
import Testing

/// Ctrl-C (SIGINT) on the commands that write a file: the destination is either complete or not
/// there at all (never half-written), and no temporary `.partial-PID` file is left behind.
@Suite(.serialized) struct InterruptTests {
    /// A long 9-axis recording (`rows` samples at 100 Hz), written quickly without the simulator.
    static func longRecording(_ scratch: Scratch, rows: Int) throws -> String {
        var text = "t_ms,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n"
        text.reserveCapacity(rows * 48)
        for i in 0..<rows { text += String(i * 10) + (i & 1 == 0 ? ",0,0,1,0.01,0,0,20,0,-40\n" : ",0.01,0,1,0,0.01,0,20,0.5,-40\n") }
        let path = scratch.path("long.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func fuseStopsWithoutLeavingAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try Self.longRecording(scratch, rows: 1_500_000)
        let out = scratch.path("motion.csv")
        let result = try PoiseProcess.run(["fuse", input, "--mode", "9d", "--out", out], interruptAfter: 1.0)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted after") && result.stderr.contains("was not written"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func simulateStopsWithoutLeavingAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("sim.csv")
        try "previous contents\n".write(toFile: out, atomically: true, encoding: .utf8)
        let result = try PoiseProcess.run(["simulate", "--scenario", "walking", "--duration", "100000", "--out", out],
                                          interruptAfter: 1.0)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("was not written"))
        // The file that was there before is untouched.
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous contents\n")
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func benchStopsWithoutLeavingAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try Self.longRecording(scratch, rows: 200_000)
        let out = scratch.path("bench.json")
        let result = try PoiseProcess.run(["bench", input, "--json", "--output", out], interruptAfter: 1.0)
        #expect(result.status != 0, "bench should not have finished in 1 s: \(result.stdout.prefix(200))")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path).allSatisfy { !$0.contains("bench.json") })
    }
}
