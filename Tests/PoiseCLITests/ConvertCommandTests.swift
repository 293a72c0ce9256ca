import Foundation
import Testing

/// `poise convert`: any readable recording as Poise's canonical CSV, read back to the same values.
@Suite struct ConvertCommandTests {
    /// A semicolon / decimal-comma x-io-style export with a column Poise does not use: the output
    /// has Poise's names and units, the unused column is gone, and converting the output again
    /// gives the same bytes.
    @Test func aForeignDialectBecomesCanonicalAndConvertingAgainChangesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch.path("semi.csv")
        try "Time (s);Accelerometer X (g);Accelerometer Y (g);Accelerometer Z (g);Gyroscope X (deg/s);Gyroscope Y (deg/s);Gyroscope Z (deg/s);Barometer (hPa)\n0,0;0,01;-0,02;1,0;180,0;0,0;-90,0;1013,2\n0,01;0,02;-0,01;0,99;0,0;0,0;0,0;1013,3\n"
            .write(toFile: input, atomically: true, encoding: .utf8)
        let out = scratch.path("out.csv"), again = scratch.path("again.csv")
        let result = try PoiseProcess.run(["convert", input, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == """
            t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps
            0.0,0.01,-0.02,1.0,\(Double.pi),0.0,\(-Double.pi / 2)
            0.01,0.02,-0.01,0.99,0.0,0.0,0.0

            """)
        #expect(try PoiseProcess.run(["convert", out, "--out", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: again)))
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func theInputIsNeverTheOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 10, rate: 100)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = try PoiseProcess.run(["convert", input, "--out", input])
        #expect(result.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }
}
